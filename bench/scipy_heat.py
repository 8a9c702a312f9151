#!/usr/bin/env python3
"""Anchor for `make bench`: SciPy (Debian python3-scipy) computes the glow's density the usual way: bin the
points into the pixel grid with numpy.histogram2d, then scipy.ndimage.gaussian_filter with the same sigma.
Prints one line of JSON with the seconds spent (reading the input excluded).

  scipy_heat.py POINTS.f64 WIDTH HEIGHT SIGMA
POINTS.f64: little-endian float64 triples (x pixel, y pixel, weight).
"""
import json
import sys
import time

import numpy
from scipy import ndimage


def main():
    path, width, height, sigma = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    points = numpy.fromfile(path, dtype="<f8").reshape(-1, 3)
    started = time.perf_counter()
    grid, _, _ = numpy.histogram2d(points[:, 1], points[:, 0], bins=(height, width), range=((0, height), (0, width)),
                                   weights=points[:, 2])
    density = ndimage.gaussian_filter(grid.astype(numpy.float32), sigma=sigma, mode="constant", truncate=4.0)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "max": float(density.max())}))


if __name__ == "__main__":
    main()
