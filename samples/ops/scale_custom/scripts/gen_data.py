#!/usr/bin/env python3
"""Inputs and golden of ScaleCustom: gen_data.py DTYPE ROWS COLS SCALE (default float32 16 256 0.5).

Writes input/x.npy (and input/x.bin) and output/golden.npy / .bin: x * scale, the scale
rounded to the element type first, as the kernel does.
"""
import os
import sys

import numpy as np

args = sys.argv[1:] + ["float32", "16", "256", "0.5"][len(sys.argv) - 1:]
dtype = np.dtype(args[0])
shape = (int(args[1]), int(args[2]))
scale = dtype.type(float(args[3]))
rng = np.random.default_rng(7)
x = rng.uniform(-10, 10, shape).astype(dtype)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
for name, a in (("input/x", x), ("output/golden", x * scale)):
    np.save(name + ".npy", a.astype(dtype))
    a.astype(dtype).tofile(name + ".bin")
