# Tier 1: the parser of Nsight Compute's CSV (ncu_tidy.py) on a committed sample of real ncu
# output (tests/data/ncu_sample.csv: ncu 2025.3 on the H100, `ncu --clock-control none --csv
# --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__..._op_ld.sum
# reduction_versions --only=1,2 --n=65536 --repeat=1 --warmup=0`, made by gpu_session.sh's
# ncu-sample phase from reduction_versions' NCU_SAMPLE_ARGS; the kernel names checked below are
# that sample's): ==PROF== lines skipped, numbers with thousands separators read, kernel
# names shortened, launches of one kernel reduced to their median, the L2 flush left out.
nt_out=$CW_TEST_TMP/ncu_tidy.csv
rm -f "$nt_out"
t_run python3 py/ncu_tidy.py tests/data/ncu_sample.csv "$nt_out" --assignment sample --version 1 --n 65536 \
  --device "NVIDIA H100 80GB HBM3" --ncu-version 2025.3.1
nt_check=$(python3 - "$nt_out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def value(kernel, metric):
    found = [r for r in rows if r["kernel"] == kernel and r["metric"] == metric]
    return found[0] if len(found) == 1 else None
bad = []
if len(rows) != 12: bad.append(f"{len(rows)} rows, expected 12 (4 kernels x 3 metrics)")
r = value("rv::reduce_interleaved_strided", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
if not r or r["value"] != "8995" or r["launches"] != "4": bad.append(f"strided bank conflicts: {r}")
r = value("rv::reduce_interleaved_divergent", "smsp__inst_executed.sum")
if not r or r["unit"] != "inst" or r["value"] != "254944": bad.append(f"divergent instructions: {r}")
if any("l2_flush" in x["kernel"] or "(" in x["kernel"] or "," in x["kernel"] for x in rows): bad.append("flush kernel, parameters or a comma kept")
if any(x["device"] != "NVIDIA H100 80GB HBM3" or x["ncu_version"] != "2025.3.1" for x in rows): bad.append("device/version columns")
print("; ".join(bad) or "ok")
PY
)
if [ "$T_STATUS" -eq 0 ] && [ "$nt_check" = ok ]; then
  t_pass "ncu_tidy: real ncu CSV to tidy rows (medians, units, short kernel names, flush left out)"
else
  t_fail "ncu_tidy: real ncu CSV to tidy rows (medians, units, short kernel names, flush left out)" "exit $T_STATUS: $nt_check"
fi
printf '==PROF== nothing profiled\n' >"$CW_TEST_TMP/empty_ncu.csv"
t_run python3 py/ncu_tidy.py "$CW_TEST_TMP/empty_ncu.csv" "$CW_TEST_TMP/none.csv" --assignment a --version v --n 1
if [ "$T_STATUS" -eq 2 ] && [ ! -e "$CW_TEST_TMP/none.csv" ] && [ "$(wc -l <"$T_ERR")" -eq 1 ]; then
  t_pass "ncu_tidy: output without metrics is exit 2, one line, nothing written"
else
  t_fail "ncu_tidy: output without metrics is exit 2, one line, nothing written" "exit $T_STATUS"
fi
