#!/usr/bin/env python3
"""Inputs and the float64 golden of RmsNormCustom: gen_data.py DTYPE ROWS H [EPSILON] [SEED]."""
import os
import sys

import numpy as np


def main():
    dtype = sys.argv[1] if len(sys.argv) > 1 else "float32"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    h = int(sys.argv[3]) if len(sys.argv) > 3 else 256
    eps = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-6
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    rng = np.random.default_rng(seed)
    x = rng.uniform(-4, 4, (rows, h)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, (h,)).astype(dtype)
    x64 = x.astype(np.float64)
    rms = np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps)
    golden = x64 / rms * gamma.astype(np.float64)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    np.save("input/x.npy", x)
    np.save("input/gamma.npy", gamma)
    np.save("output/golden.npy", golden)


if __name__ == "__main__":
    main()
