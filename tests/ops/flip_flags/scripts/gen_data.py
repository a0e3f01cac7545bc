#!/usr/bin/env python3
"""FlipFlags data: x.npy (bool, N elements) and golden.npy = !x. Usage: gen_data.py N"""
import sys

import numpy as np

n = int(sys.argv[1])
x = np.random.default_rng(5).integers(0, 2, n).astype(bool)
np.save("x.npy", x)
np.save("golden.npy", ~x)
