"""Checks that `ascendc compare` reaches numpy's pass/fail verdict on generated .bin files.

The verdict the vendor samples' verification scripts compute: read both files with
`numpy.fromfile`, `numpy.isclose(output, golden, rtol, atol, equal_nan)`, and pass when the
fraction of elements that are not close is at most the allowed error ratio.

Usage: python3 compare_against_numpy.py <path to the ascendc binary>
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

DTYPES = ["float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "uint32"]


def cases(rng):
    """Yields (dtype, output, golden, rtol, atol, error_ratio, equal_nan)."""
    for dtype in DTYPES:
        for _ in range(40):
            n = int(rng.integers(1, 200))
            if dtype.startswith("float"):
                golden = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4)).astype(dtype)
                noise = rng.standard_normal(n) * np.abs(golden.astype(np.float64)) * 10.0 ** rng.integers(-7, -1)
                out = (golden.astype(np.float64) + noise).astype(dtype)
                if rng.random() < 0.3:
                    idx = rng.integers(0, n, size=int(rng.integers(1, 4)))
                    special = rng.choice([np.nan, np.inf, -np.inf], size=idx.size)
                    out[idx] = special
                    if rng.random() < 0.5:
                        golden[idx] = special
            else:
                info = np.iinfo(dtype)
                golden = rng.integers(max(info.min, -1000), min(info.max, 1000), size=n).astype(dtype)
                out = golden.copy()
                k = int(rng.integers(0, 4))
                if k:
                    idx = rng.integers(0, n, size=k)
                    out[idx] = rng.integers(max(info.min, -1000), min(info.max, 1000), size=k).astype(dtype)
            rtol = float(rng.choice([1e-5, 1e-3, 1e-2]))
            atol = float(rng.choice([1e-8, 1e-4, 1e-2, 1.0]))
            ratio = float(rng.choice([0.0, 0.001, 0.01, 0.1]))
            equal_nan = bool(rng.random() < 0.5)
            yield dtype, out, golden, rtol, atol, ratio, equal_nan
    # Differences right at the tolerance, where the precision of the comparison decides.
    for dtype in ["float16", "float32", "float64"]:
        for factor in [0.5, 0.999, 1.0, 1.001, 1.01, 2.0]:
            for rtol, atol in [(1e-3, 1e-5), (1e-2, 0.0), (0.0, 1e-3), (1e-5, 1e-8)]:
                golden = (rng.standard_normal(64) * 100).astype(dtype)
                g = golden.astype(np.float64)
                out = (g + (atol + rtol * np.abs(g)) * factor).astype(dtype)
                yield dtype, out, golden, rtol, atol, 0.0, False


def main():
    binary = sys.argv[1]
    rng = np.random.default_rng(2026)
    checked = disagreed = numpy_passes = 0
    with tempfile.TemporaryDirectory() as d:
        out_path, golden_path = Path(d) / "out.bin", Path(d) / "golden.bin"
        for dtype, out, golden, rtol, atol, ratio, equal_nan in cases(rng):
            out.tofile(out_path)
            golden.tofile(golden_path)
            a = np.fromfile(out_path, dtype=dtype)
            b = np.fromfile(golden_path, dtype=dtype)
            close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
            numpy_pass = float(np.mean(~close)) <= ratio
            args = [binary, "compare", str(out_path), str(golden_path), "--dtype", dtype,
                    "--rtol", repr(rtol), "--atol", repr(atol), "--error-ratio", repr(ratio)]
            if equal_nan:
                args.append("--equal-nan")
            code = subprocess.run(args, capture_output=True).returncode
            if code not in (0, 1):
                print(f"ascendc compare failed to run ({code}): {' '.join(args)}")
                return 1
            checked += 1
            numpy_passes += numpy_pass
            if (code == 0) != numpy_pass:
                disagreed += 1
                print(f"disagree: {dtype} n={a.size} rtol={rtol} atol={atol} ratio={ratio} "
                      f"equal_nan={equal_nan}: numpy {'pass' if numpy_pass else 'fail'}, "
                      f"ascendc {'pass' if code == 0 else 'fail'}")
    print(f"numpy verdicts: {numpy_passes} pass, {checked - numpy_passes} fail")
    print(f"{checked - disagreed} passed, {disagreed} failed")
    return 1 if disagreed else 0


if __name__ == "__main__":
    sys.exit(main())
