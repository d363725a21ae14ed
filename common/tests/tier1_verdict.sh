# Tier 1: the shared verdict rule of the claims tables (readme_tables.py: ratio, compare,
# verdict). A ratio of counters that were not counted (0 / 0, x / 0) or a counter that is
# missing is no measurement: its verdict must read "cannot be judged here (...)", never
# "holds" or "does not hold"; a real ratio is judged by its threshold. Sourced by
# run_tests.sh from common/ (readme_tables.py is in common/py/).
vd_log=$CW_TEST_TMP/verdict.log
python3 - >"$vd_log" 2>&1 <<'PY'
import math, sys
sys.path.insert(0, "py")
from readme_tables import ratio, compare, verdict
bad = []
def judged(a, b, op, threshold):
    return verdict(compare(ratio(a, b), op, threshold))
# Not measurable: zero or missing denominators, missing or empty numerators, CSV cells.
for a, b in ((0, 0), (5, 0), ("0", "0"), ("7", "0"), (None, 3), (3, None), ("", "2"), ("2", ""),
             ("n/a", "2"), ("nan", "1"), (0.0, 0.0)):
    r = ratio(a, b)
    if r is not None:
        bad.append(f"ratio({a!r}, {b!r}) = {r!r}, expected None")
    for op in (">", ">=", "<", "<="):
        for threshold in (0, 2, 0.1):
            v = judged(a, b, op, threshold)
            if not v.startswith("cannot be judged here ("):
                bad.append(f"verdict of {a!r} / {b!r} {op} {threshold}: {v!r}")
if compare(None, ">", 2) is not None:
    bad.append("compare(None, '>', 2) is not None")
if verdict(None, "no counter").find("no counter") < 0:
    bad.append("verdict(None, why) does not say why")
# Measurable: a real ratio is judged, both ways, and a zero numerator is a measurement.
for a, b, op, threshold, expected in ((10, 2, ">", 2, "holds"), ("3", "2", ">", 2, "does not hold"),
                                      (0, 4, "<=", 0.1, "holds"), (1, 4, "<", 0.1, "does not hold"),
                                      ("65.0", "35.7", ">=", 1.5, "holds"), (4, 4, ">=", 1, "holds")):
    v = judged(a, b, op, threshold)
    if v != expected:
        bad.append(f"verdict of {a!r} / {b!r} {op} {threshold}: {v!r}, expected {expected!r}")
if ratio(6, 3) != 2.0 or ratio("1", "4") != 0.25 or ratio(0, 4) != 0.0:
    bad.append("ratio of real numbers is not their quotient")
print("; ".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
t_verdict "readme_tables: 0 / 0, x / 0 and a missing counter cannot be judged, a real ratio is judged" "$vd_log"
