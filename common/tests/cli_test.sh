# Tier 1 of common/: devinfo's options, and the architecture selection with stub toolkits.
expect_usage_error "devinfo: unknown option" "unknown option" bin/devinfo --bogus
expect_usage_error "devinfo: non-numeric --device" "expects an integer" bin/devinfo --device=abc
expect_usage_error "devinfo: negative --device" "out of range" bin/devinfo --device=-1
expect_output "devinfo: --help lists every option" "--device=N.*--check" sh -c 'bin/devinfo --help | tr "\n" " "'
. tests/arch_test.sh
