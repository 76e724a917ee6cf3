# SPDX-License-Identifier: MIT
"""hitscan: segment / ray / line / capsule vs circle queries on NumPy arrays.

    import hitscan
    grid = hitscan.Grid(hitscan.Circles(xyr))      # xyr: (N, 3) x, y, r
    idx, t = grid.closest(queries)                 # queries: (M, 4) ax, ay, bx, by

A thin layer over the hitscan C library: uniform-grid broadphase, SIMD kernels chosen at run
time, OpenMP threads. Batch calls release the GIL; float32 C-contiguous arrays are used in
place. See help(hitscan.Grid.closest) for the query arguments, and hitscan.dask for Dask.
"""
import os as _os

# OpenMP's idle threads sleep between calls unless the user chose otherwise: libgomp's default
# spins for milliseconds after each parallel region, and with another process holding a core
# two threads then ran several times slower than one. libgomp reads the variable once, when
# it loads with the extension below (docs/threads.md).
_os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from ._hitscan import (
    Brute,
    Circles,
    Closest,
    ClosestDetails,
    Contacts,
    Grid,
    Hit,
    Hits,
    HitsCSR,
    InvalidQueryWarning,
    Overlaps,
    OverlapsCSR,
    PairShifts,
    SweptPairs,
    Walls,
    intersect,
    isa_default,
    isa_levels,
    library_version,
    scene,
)
from ._hitscan import __version__

__all__ = [
    "Brute",
    "Circles",
    "Closest",
    "ClosestDetails",
    "Contacts",
    "Grid",
    "Hit",
    "Hits",
    "HitsCSR",
    "InvalidQueryWarning",
    "Overlaps",
    "OverlapsCSR",
    "PairShifts",
    "SweptPairs",
    "Walls",
    "intersect",
    "isa_default",
    "isa_levels",
    "library_version",
    "scene",
    "__version__",
]
