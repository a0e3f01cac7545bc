#!/usr/bin/env python3
"""Compares the sample's output with its golden: every element must be equal within the
tolerance of the scenario's type. Prints "test pass!" and exits 0 when they are."""
import argparse
import sys

import numpy as np

DTYPES = {1: np.float32, 2: np.float16}
TOLERANCE = {1: 1e-6, 2: 1e-3}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("golden")
    parser.add_argument("-scenarioNum", type=int, default=1, choices=sorted(DTYPES))
    args = parser.parse_args()
    dtype = DTYPES[args.scenarioNum]
    out = np.fromfile(args.output, dtype=dtype)
    golden = np.fromfile(args.golden, dtype=dtype)
    if out.shape != golden.shape:
        print(f"test failed: {out.size} output elements, {golden.size} expected")
        return 1
    tol = TOLERANCE[args.scenarioNum]
    bad = np.flatnonzero(~np.isclose(out, golden, rtol=tol, atol=tol))
    for i in bad[:10]:
        print(f"index {i}: output {out[i]}, golden {golden[i]}")
    if bad.size:
        print(f"test failed: {bad.size} of {out.size} elements differ")
        return 1
    print("test pass!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
