#!/usr/bin/env python3
"""AddInplace data: var.npy, x.npy (float32, N elements) and golden.npy = var + x.
Usage: gen_data.py N"""
import sys

import numpy as np

n = int(sys.argv[1])
rng = np.random.default_rng(11)
var = rng.uniform(-10, 10, n).astype(np.float32)
x = rng.uniform(-10, 10, n).astype(np.float32)
np.save("var.npy", var)
np.save("x.npy", x)
np.save("golden.npy", var + x)
