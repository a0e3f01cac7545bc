#!/usr/bin/env python3
"""Inputs and golden of BiasAddBase: gen_data.py DTYPE ROWS COLS ALPHA RELU BIAS_RANK
(default float32 8 1024 0.5 0 1).

Writes input/x.npy, input/bias.npy (shape [COLS], or [1, COLS] with BIAS_RANK 2) and
output/golden.npy: x * alpha + bias, then max(., 0) when RELU is 1, computed in the element type
step by step (alpha rounded to it first) as the kernel does.
"""
import os
import sys

import numpy as np

args = sys.argv[1:] + ["float32", "8", "1024", "0.5", "0", "1"][len(sys.argv) - 1:]
dtype = np.dtype(args[0])
rows, cols = int(args[1]), int(args[2])
alpha = dtype.type(float(args[3]))
relu = args[4] == "1"
bias_shape = (cols,) if args[5] == "1" else (1, cols)
rng = np.random.default_rng(11)
x = rng.uniform(-4, 4, (rows, cols)).astype(dtype)
bias = rng.uniform(-2, 2, bias_shape).astype(dtype)
y = (x * alpha).astype(dtype)
y = (y + bias).astype(dtype)
if relu:
    y = np.maximum(y, dtype.type(0))
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
np.save("input/x.npy", x)
np.save("input/bias.npy", bias)
np.save("output/golden.npy", y.astype(dtype).reshape(rows, cols))
