# Architecture selection (select_arch.sh) against stub toolkits that answer like CUDA 13,
# CUDA 12 and CUDA 11.8, and a toolkit without --list-gpu-arch; with and without a local GPU.
stub_dir=$CW_TEST_TMP/stubs
make_stub_nvcc() {  # NAME VERSION "ARCHS" (empty: no --list-gpu-arch)
  mkdir -p "$stub_dir/$1"
  {
    echo '#!/bin/sh'
    echo "case \"\$1\" in --version) echo 'Cuda compilation tools, release $2, V$2.0';;"
    if [ -n "$3" ]; then
      echo "--list-gpu-arch) for a in $3; do echo compute_\$a; done;;"
    else
      echo "--list-gpu-arch) echo 'nvcc fatal : Unknown option' >&2; exit 1;;"
    fi
    echo "esac"
  } >"$stub_dir/$1/nvcc"
  chmod +x "$stub_dir/$1/nvcc"
}
make_stub_nvcc cuda13 13.0 "75 80 86 87 88 89 90 100 110 103 120 121"
make_stub_nvcc cuda12 12.4 "50 52 53 60 61 62 70 72 75 80 86 87 89 90"
make_stub_nvcc cuda118 11.8 "35 37 50 52 53 60 61 62 70 72 75 80 86 87 89 90"
make_stub_nvcc nolist 12.0 ""
make_stub_nvcc old 9.0 ""
mkdir -p "$stub_dir/gpu86" "$stub_dir/gpu90" "$stub_dir/gpu120" "$stub_dir/nogpu"
printf '#!/bin/sh\necho 8.6\n' >"$stub_dir/gpu86/nvidia-smi"; chmod +x "$stub_dir/gpu86/nvidia-smi"
printf '#!/bin/sh\necho 9.0\n' >"$stub_dir/gpu90/nvidia-smi"; chmod +x "$stub_dir/gpu90/nvidia-smi"
printf '#!/bin/sh\necho 12.0\n' >"$stub_dir/gpu120/nvidia-smi"; chmod +x "$stub_dir/gpu120/nvidia-smi"
printf '#!/bin/sh\nexit 9\n' >"$stub_dir/nogpu/nvidia-smi"; chmod +x "$stub_dir/nogpu/nvidia-smi"

arch_case() {  # NAME TOOLKIT GPU SMS EXPECTED_FLAGS [default|explicit]
  local got
  got=$(PATH="$stub_dir/$3:$PATH" ./scripts/select_arch.sh "$stub_dir/$2/nvcc" "$4" --flags "${6:-explicit}" | xargs)
  if [ "$got" = "$5" ]; then t_pass "arch: $1"; else t_fail "arch: $1" "got '$got', expected '$5'"; fi
}
arch_case "CUDA 11.8 builds sm_35 and sm_52" cuda118 nogpu "35 52" \
  "-gencode arch=compute_35,code=sm_35 -gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52"
arch_case "CUDA 12 drops sm_35, keeps sm_52" cuda12 nogpu "35 52" \
  "-gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52"
arch_case "default SMS, CUDA 13, no GPU: oldest supported" cuda13 nogpu "35 52" \
  "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_75,code=compute_75" default
arch_case "default SMS, CUDA 13, local sm_86 GPU" cuda13 gpu86 "35 52" \
  "-gencode arch=compute_86,code=sm_86 -gencode arch=compute_86,code=compute_86" default
arch_case "explicit SMS=35 90, CUDA 13: sm_35 skipped, sm_90 built" cuda13 nogpu "35 90" \
  "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
arch_case "explicit SMS=90 honoured" cuda13 gpu86 "90" \
  "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
arch_case "PTX for the highest of several" cuda13 nogpu "90 80" \
  "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90"
arch_case "toolkit without --list-gpu-arch builds what was asked" nolist nogpu "35 52" \
  "-gencode arch=compute_35,code=sm_35 -gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52"
# The default list (nobody set SMS) gets native code for the local GPU beside it; an explicit
# SMS does not.
arch_case "default SMS, CUDA 12, local sm_90 GPU: sm_52 and native sm_90" cuda12 gpu90 "35 52" \
  "-gencode arch=compute_52,code=sm_52 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" default
arch_case "explicit SMS=35 52, CUDA 12, local sm_90 GPU: exactly as asked" cuda12 gpu90 "35 52" \
  "-gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52" explicit
arch_case "default SMS=75 (a CUDA 12-style default on CUDA 13), local sm_90: native sm_90 added" cuda13 gpu90 "75" \
  "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" default
arch_case "default SMS, no GPU: the list alone" cuda12 nogpu "35 52" \
  "-gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52" default
arch_case "default SMS, local GPU the toolkit cannot build for: the list alone" cuda12 gpu120 "35 52" \
  "-gencode arch=compute_52,code=sm_52 -gencode arch=compute_52,code=compute_52" default
msg=$(PATH="$stub_dir/gpu90:$PATH" ./scripts/select_arch.sh "$stub_dir/cuda12/nvcc" "35 52" --message default)
if [ "$msg" = "arch: building sm_52 sm_90 + compute_90 PTX (default SMS=35 52: sm_35 not supported by nvcc 12.4, skipped; sm_90 added for the local GPU)" ]; then
  t_pass "arch: the default build's line names the native architecture it added"
else
  t_fail "arch: the default build's line names the native architecture it added" "got '$msg'"
fi
msg=$(PATH="$stub_dir/gpu120:$PATH" ./scripts/select_arch.sh "$stub_dir/cuda12/nvcc" "35 52" --message default)
if [[ "$msg" == *"the local GPU's sm_120 is not supported by nvcc 12.4: it will JIT-compile the PTX)" ]]; then
  t_pass "arch: a local GPU the toolkit cannot build for is named (JIT)"
else
  t_fail "arch: a local GPU the toolkit cannot build for is named (JIT)" "got '$msg'"
fi
# Through make: SMS unset is the default (native added); SMS on the command line or in the
# environment is explicit; SMS_DEFAULT changes the default list and stays a default.
arch_make() {  # NAME EXPECTED_LINE ENV... -- MAKE_ARGS...
  local name=$1 want=$2 envs=() got; shift 2
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  got=$(env -u SMS -u SMS_DEFAULT "${envs[@]}" PATH="$stub_dir/gpu90:$PATH" make --no-print-directory -s arch-info \
        CUDA_PATH="$stub_dir/cuda12" NVCC="$stub_dir/cuda12/nvcc" "$@" 2>&1)
  if [ "$got" = "$want" ]; then t_pass "arch (make): $name"; else t_fail "arch (make): $name" "got '$got', expected '$want'"; fi
}
arch_make "SMS not given: default list plus the local sm_90" \
  "arch: building sm_52 sm_90 + compute_90 PTX (default SMS=35 52: sm_35 not supported by nvcc 12.4, skipped; sm_90 added for the local GPU)" --
arch_make "SMS on the command line: exactly as asked" \
  "arch: building sm_52 + compute_52 PTX (SMS=35 52: sm_35 not supported by nvcc 12.4, skipped)" -- SMS="35 52"
arch_make "SMS in the environment: exactly as asked" \
  "arch: building sm_52 + compute_52 PTX (SMS=35 52: sm_35 not supported by nvcc 12.4, skipped)" SMS="35 52" --
arch_make "SMS_DEFAULT=75: still a default, the local sm_90 added" \
  "arch: building sm_75 sm_90 + compute_90 PTX (default SMS=75, nvcc 12.4; sm_90 added for the local GPU)" -- SMS_DEFAULT=75
msg=$(PATH="$stub_dir/nogpu:$PATH" ./scripts/select_arch.sh "$stub_dir/cuda13/nvcc" "35 52" --message default)
if [ "$msg" = "arch: building sm_75 + compute_75 PTX (default SMS=35 52 not supported by nvcc 13.0; oldest supported)" ]; then
  t_pass "arch: one line saying what and why"
else
  t_fail "arch: one line saying what and why" "got '$msg'"
fi
# Refused in one "error:" line, exit 1 and no flags (common/README.md, "Choosing GPU
# architectures"): an item that is not an architecture, whatever SMS's origin; an explicit SMS
# of which the toolkit builds nothing (named, with the toolkit's range and the CUDA that builds it).
arch_refused() {  # NAME TOOLKIT ORIGIN SMS PATTERN...
  local name=$1 tk=$2 origin=$3 sms=$4 msg flags status p bad=""; shift 4
  msg=$(PATH="$stub_dir/gpu90:$PATH" ./scripts/select_arch.sh "$stub_dir/$tk/nvcc" "$sms" --message "$origin"); status=$?
  flags=$(PATH="$stub_dir/gpu90:$PATH" ./scripts/select_arch.sh "$stub_dir/$tk/nvcc" "$sms" --flags "$origin")
  for p in "$@"; do grep -Fq -- "$p" <<<"$msg" || bad="$bad '$p'"; done
  if [ "$status" -eq 1 ] && [ -z "$flags" ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] && [[ $msg == error:* ]] && [ -z "$bad" ]; then
    t_pass "arch: $name"
  else
    t_fail "arch: $name" "exit $status, flags '$flags', missing$bad: $msg"
  fi
}
cuda13_list="75 80 86 87 88 89 90 100 103 110 120 121"
arch_refused "SMS=abc refused, naming it and what nvcc builds" cuda13 explicit abc "SMS=abc: 'abc' is not a GPU architecture" "nvcc 13.0 builds $cuda13_list"
arch_refused "SMS=10 refused, naming it and what nvcc builds" cuda13 explicit 10 "SMS=10: '10' is not a GPU architecture" "nvcc 13.0 builds $cuda13_list"
arch_refused "SMS=90a refused" cuda12 explicit 90a "'90a' is not a GPU architecture"
arch_refused "a typo beside a good item refused" cuda12 explicit "52 9O" "'9O' is not a GPU architecture"
arch_refused "a typo in SMS_DEFAULT refused too" cuda13 default "7.5" "SMS_DEFAULT=7.5: '7.5' is not a GPU architecture"
arch_refused "an empty SMS refused" cuda13 explicit "" "SMS is empty"
arch_refused "SMS=70 with CUDA 13: CUDA 12 builds it" cuda13 explicit 70 \
  "SMS=70: nvcc 13.0" "builds sm_75 to sm_121" "sm_70 (compute capability 7.0) is built by CUDA 12"
arch_refused "SMS=60 with CUDA 13: CUDA 12 builds it" cuda13 explicit 60 "sm_60 (compute capability 6.0) is built by CUDA 12"
arch_refused "SMS=35 with CUDA 12: CUDA 11.8 builds it" cuda12 explicit 35 \
  "builds sm_50 to sm_90" "sm_35 (compute capability 3.5) is built by CUDA 11.8"
arch_refused "SMS=35 52 with CUDA 13: each named" cuda13 explicit "35 52" "sm_35 (compute capability 3.5) is built by CUDA 11.8" \
  "sm_52 (compute capability 5.2) is built by CUDA 12"
arch_refused "SMS=100 with CUDA 11.8: a newer CUDA builds it" cuda118 explicit 100 "sm_100 (compute capability 10.0) is built by CUDA 12.8 or newer"
msg=$(./scripts/select_arch.sh "$stub_dir/old/nvcc" "35 52" --message); status=$?
if [ "$status" -ne 0 ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] &&
   grep -q '^error: nvcc 9.0 .* older than CUDA 11.8.*module load cuda/11.8' <<<"$msg"; then
  t_pass "arch: a toolkit older than 11.8 is refused in one line naming the minimum"
else
  t_fail "arch: a toolkit older than 11.8 is refused in one line naming the minimum" "exit $status: $msg"
fi
t_run make --no-print-directory -s arch-info CUDA_PATH="$stub_dir/old" NVCC="$stub_dir/old/nvcc"
if [ "$T_STATUS" -ne 0 ] && grep -q 'older than CUDA 11.8' "$T_OUT"; then
  t_pass "arch: make stops before compiling with a toolkit older than 11.8"
else
  t_fail "arch: make stops before compiling with a toolkit older than 11.8" "exit $T_STATUS"; t_show_failure
fi

# Stale objects: every object is rebuilt when the toolkit (another module's nvcc) or SMS
# changes, and not otherwise. A copy of common/ is built with two stub toolkits whose nvcc
# "compiles" by writing its -o file.
make_compiling_nvcc() {  # NAME VERSION
  mkdir -p "$stub_dir/$1/bin"
  cat >"$stub_dir/$1/bin/nvcc" <<STUB
#!/bin/sh
case "\$1" in
  --version) echo 'Cuda compilation tools, release $2, V$2.0'; exit 0;;
  --list-gpu-arch) for a in 52 60 70 75 80 90; do echo compute_\$a; done; exit 0;;
esac
out=""
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
[ -n "\$out" ] && echo "stub $2" >"\$out"
exit 0
STUB
  chmod +x "$stub_dir/$1/bin/nvcc"
}
make_compiling_nvcc tk118 11.8
make_compiling_nvcc tk124 12.4
make_compiling_nvcc tk13 13.0
sed -i 's/for a in 52 60 70 75 80 90;/for a in 75 80 86 87 88 89 90 100 103 110 120 121;/' "$stub_dir/tk13/bin/nvcc"
stale_copy=$CW_TEST_TMP/stale-common
rm -rf "$stale_copy"; mkdir -p "$stale_copy"
mkdir -p "$stale_copy/scripts"
cp Makefile arch.mk assignment.mk ./*.h ./*.cuh devinfo.cu "$stale_copy/"
cp scripts/select_arch.sh scripts/shadowed_cuda_headers.sh "$stale_copy/scripts/"
mkdir -p "$stale_copy/tests" && cp tests/gpu_selftest.cu "$stale_copy/tests/"
stale_build() {  # TOOLKIT SMS -> how many nvcc compile lines make printed
  PATH="$stub_dir/nogpu:$PATH" make --no-print-directory -C "$stale_copy" all CUDA_PATH="$stub_dir/$1" SMS="$2" 2>&1 |
    grep -c '/bin/nvcc .*-o '
}
stale_build tk118 "52" >/dev/null
r_same=$(stale_build tk118 "52")
r_sms=$(stale_build tk118 "52 70")
r_toolkit=$(stale_build tk124 "52 70")
if [ "$r_same" = 0 ] && [ "$r_sms" -ge 3 ] && [ "$r_toolkit" -ge 3 ] && grep -q "stub 12.4" "$stale_copy/build/devinfo.o"; then
  t_pass "build: objects rebuilt when SMS or the toolkit changes, not otherwise"
else
  t_fail "build: objects rebuilt when SMS or the toolkit changes, not otherwise" \
    "nvcc runs: same config $r_same, new SMS $r_sms, new toolkit $r_toolkit"
fi
# Through make: refused before anything compiles (a quote in SMS reaches the script as typed),
# while the default list still falls back on CUDA 13.
rm -rf "${stale_copy:?}/bin" "${stale_copy:?}/build"
for cw_sms in abc 70 'a"b`c`'; do
  t_run env PATH="$stub_dir/nogpu:$PATH" make --no-print-directory -C "$CW_TEST_TMP/stale-common" all \
    CUDA_PATH="$stub_dir/tk13" SMS="$cw_sms"
  if [ "$T_STATUS" -ne 0 ] && [ "$(grep -c '^error: SMS=' "$T_OUT" "$T_ERR" | awk -F: '{ s += $NF } END { print s }')" -eq 1 ] &&
     ! grep -q -- '/bin/nvcc .*-o ' "$T_OUT" && [ ! -e "$CW_TEST_TMP/stale-common/bin/devinfo" ]; then
    t_pass "arch (make): SMS=$cw_sms stops the build before any compile, in one line"
  else
    t_fail "arch (make): SMS=$cw_sms stops the build before any compile, in one line" "exit $T_STATUS"; t_show_failure
  fi
done
t_run env -u SMS PATH="$stub_dir/nogpu:$PATH" make --no-print-directory -s -C "$CW_TEST_TMP/stale-common" arch-info \
  CUDA_PATH="$stub_dir/tk13"
if [ "$T_STATUS" -eq 0 ] && grep -qx 'arch: building sm_75 + compute_75 PTX (default SMS=35 52 not supported by nvcc 13.0; oldest supported)' "$T_OUT"; then
  t_pass "arch (make): the default SMS on CUDA 13 falls back (not refused)"
else
  t_fail "arch (make): the default SMS on CUDA 13 falls back (not refused)" "exit $T_STATUS"; t_show_failure
fi
