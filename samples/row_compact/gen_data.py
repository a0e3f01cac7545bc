#!/usr/bin/env python3
"""Input and golden of row_compact: x is an [8, 5] float32 matrix, golden = x - rowmax(x)."""
import os

import numpy as np


def main():
    rng = np.random.default_rng(2024)
    x = rng.uniform(-10, 10, size=(8, 5)).astype(np.float32)
    golden = (x - x.max(axis=1, keepdims=True)).astype(np.float32)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
