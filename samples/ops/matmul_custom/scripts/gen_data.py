#!/usr/bin/env python3
"""Inputs and the float64 golden of MatmulCustom: gen_data.py M N K [SEED]."""
import os
import sys

import numpy as np


def main():
    m, n, k = (int(v) for v in sys.argv[1:4])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-10, 10, (n,)).astype(np.float32)
    golden = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    np.save("input/a.npy", a)
    np.save("input/b.npy", b)
    np.save("input/bias.npy", bias)
    np.save("output/golden.npy", golden)


if __name__ == "__main__":
    main()
