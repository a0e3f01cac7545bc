#!/usr/bin/env python3
"""Inputs and the float64 golden of SoftmaxCustom: gen_data.py DTYPE ROWS COLS [SEED]."""
import os
import sys

import numpy as np


def main():
    dtype = sys.argv[1] if len(sys.argv) > 1 else "float32"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rng = np.random.default_rng(seed)
    x = rng.uniform(-8, 8, (rows, cols)).astype(dtype)
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    golden = e / e.sum(axis=-1, keepdims=True)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    np.save("input/x.npy", x)
    np.save("output/golden.npy", golden)


if __name__ == "__main__":
    main()
