#!/usr/bin/env python3
"""SumList data: x0.npy … x{K-1}.npy (float32, N elements each) and golden.npy, their sum in
the kernel's order. Usage: gen_data.py K N"""
import sys

import numpy as np

k, n = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(3)
acc = np.zeros(n, np.float32)
for i in range(k):
    x = rng.uniform(-5, 5, n).astype(np.float32)
    np.save(f"x{i}.npy", x)
    acc = acc + x
np.save("golden.npy", acc)
