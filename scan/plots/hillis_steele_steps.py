#!/usr/bin/env python3
"""The data of Figure 1.1 (the Hillis & Steele scan, step by step, on 8 elements), written
as CSV to stdout: one row per (step, element) with its value after that step and the
element it added (src; -1 where it kept its value). Step d adds x[k - 2^(d-1)] into x[k] for
every k >= 2^(d-1), reading the values of step d - 1 (the double-buffered form, hs_buffered).
    python3 plots/hillis_steele_steps.py 8 > results/hillis_steele_steps.csv"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
x = list(range(1, n + 1))  # the report's input: 1, 2, 3, ...
print("step,offset,k,value,src")
for k, v in enumerate(x):
    print("0,0,%d,%d,-1" % (k, v))
step, offset = 1, 1
while offset < n:
    x = [x[k] + x[k - offset] if k >= offset else x[k] for k in range(n)]
    for k, v in enumerate(x):
        print("%d,%d,%d,%d,%d" % (step, offset, k, v, k - offset if k >= offset else -1))
    step, offset = step + 1, offset * 2
