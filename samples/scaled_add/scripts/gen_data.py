#!/usr/bin/env python3
"""Inputs and golden of the scaled-add sample: x, y of 100000 elements (float32 for scenario 1,
float16 for scenario 2) and golden = 0.5 * x + y rounded once to that type. Writes
input/input_x.bin, input/input_y.bin and output/golden.bin under the current directory."""
import argparse
import os

import numpy as np

DTYPES = {1: np.float32, 2: np.float16}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-scenarioNum", type=int, default=1, choices=sorted(DTYPES))
    dtype = DTYPES[parser.parse_args().scenarioNum]
    rng = np.random.default_rng(2024)
    x = rng.uniform(-100, 100, 100000).astype(dtype)
    y = rng.uniform(-100, 100, 100000).astype(dtype)
    # The kernel multiplies (one rounding), then adds (a second rounding).
    golden = (x * dtype(0.5)).astype(dtype) + y
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    y.tofile("input/input_y.bin")
    golden.astype(dtype).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
