import numpy as np
x = np.random.default_rng(7).uniform(0.0, 100.0, 8 * 256).astype(np.float32)
x.tofile("input_x.bin")
(np.sqrt(x) * np.float32(0.5)).astype(np.float32).tofile("golden_y.bin")
