import sys
import numpy as np
y = np.fromfile("output_y.bin", dtype=np.float32)
g = np.fromfile("golden_y.bin", dtype=np.float32)
ok = y.shape == g.shape and np.allclose(y, g, rtol=1e-5, atol=1e-5)
print("compare result:", ok)
sys.exit(0 if ok else 1)
