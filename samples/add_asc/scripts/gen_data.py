#!/usr/bin/env python3
"""Inputs and golden of the single-source Add sample: x, y are 16384 float16 values; golden =
x + y in float16. Writes input/input_x.bin, input/input_y.bin and output/golden.bin under the
current directory."""
import os

import numpy as np


def gen_golden_data():
    rng = np.random.default_rng(7)
    x = rng.uniform(-60, 60, [16384]).astype(np.float16)
    y = rng.uniform(-60, 60, [16384]).astype(np.float16)
    golden = (x + y).astype(np.float16)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
