#!/usr/bin/env python3
"""Inputs and golden of AddCustom: gen_data.py DTYPE ROWS COLS (default float16 8 2048).

Writes input/x.npy, input/y.npy (and the same data as raw .bin) and output/golden.npy / .bin.
"""
import os
import sys

import numpy as np

dtype = np.dtype(sys.argv[1] if len(sys.argv) > 1 else "float16")
shape = tuple(int(d) for d in sys.argv[2:4]) if len(sys.argv) > 3 else (8, 2048)
rng = np.random.default_rng(13)
x = rng.uniform(-100, 100, shape).astype(dtype)
y = rng.uniform(-100, 100, shape).astype(dtype)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
for name, a in (("input/x", x), ("input/y", y), ("output/golden", x + y)):
    np.save(name + ".npy", a)
    a.tofile(name + ".bin")
