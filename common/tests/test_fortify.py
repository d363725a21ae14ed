"""Ubuntu's compilers define _FORTIFY_SOURCE, under which glibc marks calls such as ftruncate
warn_unused_result; nvcc's front end then warns about a value cast away with (void) (#1650-D),
an error under WERROR=1 (the adding-a-version tests build so). Debian's compilers do not define
it, so the GPU machine found it first: every header of common/, compiled here as Ubuntu would,
with warnings as errors."""
from cwtest import ROOT, make_print, need_nvcc, run


def test_common_headers_compile_warning_free_under_fortify_source(tmp_path):
    need_nvcc()
    headers = sorted(p.name for p in (ROOT / "common").iterdir() if p.suffix in (".h", ".cuh"))
    tu = tmp_path / "every_header.cu"
    tu.write_text("".join(f'#include "{h}"\n' for h in headers) + "int main() { return 0; }\n")
    nvcc = make_print("common", "NVCC")
    r = run([nvcc, "-std=c++14", "-O2", "-Xcompiler", "-O2,-Wall,-Wextra,-Werror", "-D_FORTIFY_SOURCE=2",
             "-Werror", "all-warnings", "-Wno-deprecated-gpu-targets", f"-I{ROOT / 'common'}", "-c", tu,
             "-o", tmp_path / "every_header.o"], timeout=600)
    assert r.rc == 0, r.tail(20)
