#!/usr/bin/env python3
"""Inputs and golden of ColSumCustom: gen_data.py ROWS COLS CORES (default 100 64 48).

Writes input/x.npy (and input/x.bin) and output/golden.npy / .bin. The golden adds in the
kernel's order, in float32: each of min(ROWS, CORES) cores sums its share of the rows (the
first ROWS % cores take one row more), then the partial sums are added in core order.
"""
import os
import sys

import numpy as np

args = [int(a) for a in sys.argv[1:]] + [100, 64, 48][len(sys.argv) - 1:]
rows, cols, cores = args
rng = np.random.default_rng(3)
x = rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
used = min(rows, cores)
partials = []
start = 0
for i in range(used):
    n = rows // used + (1 if i < rows % used else 0)
    acc = np.zeros(cols, np.float32)
    for r in range(start, start + n):
        acc = acc + x[r]
    partials.append(acc)
    start += n
golden = np.zeros(cols, np.float32)
for p in partials:
    golden = golden + p
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
for name, a in (("input/x", x), ("output/golden", golden)):
    np.save(name + ".npy", a)
    a.tofile(name + ".bin")
