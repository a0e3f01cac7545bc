#!/usr/bin/env python3
"""Inputs and golden of TplAddRelu: gen_data.py DTYPE ROWS COLS RELU (default float16 8 512 1).

Writes input/x.npy, input/y.npy and output/golden.npy: x + y, or max(x + y, 0) when RELU is 1.
"""
import os
import sys

import numpy as np

dtype = np.dtype(sys.argv[1] if len(sys.argv) > 1 else "float16")
shape = tuple(int(d) for d in sys.argv[2:4]) if len(sys.argv) > 3 else (8, 512)
relu = (sys.argv[4] if len(sys.argv) > 4 else "1") == "1"
rng = np.random.default_rng(7)
if dtype.kind == "i":
    x = rng.integers(-1000, 1000, shape).astype(dtype)
    y = rng.integers(-1000, 1000, shape).astype(dtype)
else:
    x = rng.uniform(-10, 10, shape).astype(dtype)
    y = rng.uniform(-10, 10, shape).astype(dtype)
z = x + y
if relu:
    z = np.maximum(z, dtype.type(0))
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
for name, a in (("input/x", x), ("input/y", y), ("output/golden", z)):
    np.save(name + ".npy", a)
