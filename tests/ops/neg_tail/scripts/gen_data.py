#!/usr/bin/env python3
"""NegTail data: x (DTYPE, shape ROWS x COLS, random) and the golden y = -x flattened to one
dimension. Usage: gen_data.py DTYPE ROWS COLS (writes x.npy and golden.npy here)."""
import sys

import numpy as np

dtype, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(7)
x = rng.uniform(-100, 100, size=(rows, cols)).astype(dtype)
np.save("x.npy", x)
np.save("golden.npy", (-x).reshape(-1))
