#!/usr/bin/env python3
"""Inputs and goldens of kernel_surface: x = 0, 0.5, ... 31.5 and y = 1 in half; xf = x in float.

Writes input/{x,y,xf}.bin, output/golden_{z,info,y,flags}.bin and output/golden_dump.txt (the
text DumpTensor / DumpAccChkPoint print)."""
import os

import numpy as np

N = 64
# GetUserWorkspace in the CPU-debug flow: the workspace itself (no system part before it).
USER_WORKSPACE_OFFSET_KIB = 0


def dump(desc, addr, position, values, shape=None):
    head = f"DumpTensor: desc={desc}, addr=0x{addr:x}, data_type=float16, position={position}, dump_size={len(values)}\n"
    text = [f"{v:.6f}" for v in values.astype(np.float64)]
    if shape is None:
        return head + "[" + ", ".join(text) + "]\n"
    rows = ["[" + ",".join(text[r * shape[1]:(r + 1) * shape[1]]) + "]" for r in range(shape[0])]
    return head + "[" + ",\n".join(rows) + "]\n"


def main():
    x = (np.arange(N) * 0.5).astype(np.float16)
    y = np.ones(N, dtype=np.float16)
    z = (x + y).astype(np.float16)
    z[0] = np.float16(np.float32(z[0]) * 2)
    info = np.array([1, 3, 15, 9, -2, 7, 1, 0, 1, USER_WORKSPACE_OFFSET_KIB, 2, 2, 64, 1, 1, 1], dtype=np.int32)
    xf = x.astype(np.float32)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    y.tofile("input/y.bin")
    xf.tofile("input/xf.bin")
    z.tofile("output/golden_z.bin")
    info.tofile("output/golden_info.bin")
    (xf * np.float32(3)).astype(np.float32).tofile("output/golden_y.bin")
    np.array([1, 1], dtype=np.int32).tofile("output/golden_flags.bin")
    # UB: x at 0, y at 128, z at 256; DumpAccChkPoint starts 8 elements (16 bytes) into z.
    text = dump(1, 0, "UB", x, (8, 8)) + dump(2, 256 + 16, "UB", z[8:12]) + dump(3, 0, "GM", z[:4])
    with open("output/golden_dump.txt", "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
