#!/usr/bin/env python3
"""Inputs and golden of add_custom: x, y uniform half values in [-100, 100), golden = x + y in half."""
import os

import numpy as np


def gen_golden_data():
    rng = np.random.default_rng(2023)
    x = rng.uniform(-100, 100, [8 * 2048]).astype(np.float16)
    y = rng.uniform(-100, 100, [8 * 2048]).astype(np.float16)
    golden = (x + y).astype(np.float16)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
