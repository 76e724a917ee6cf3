# SPDX-License-Identifier: MIT
"""Builds the hitscan extension against an installed hitscan C library (found with
pkg-config: hitscan.pc), or against a CMake build tree of this repository.

    pip install --no-build-isolation ./python                      # pkg-config finds hitscan
    HITSCAN_BUILD_DIR=$PWD/build pip install --no-build-isolation ./python   # a build tree

See python/README.md (Debian 12: inside a venv made with --system-site-packages). The version
and the rest of the metadata are in pyproject.toml."""
import os
import shlex
import subprocess
import sysconfig
from pathlib import Path

import numpy
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "hitscan"], capture_output=True, text=True)
    except FileNotFoundError:
        return None
    return shlex.split(out.stdout) if out.returncode == 0 else None


def pc_dir():
    """Where `cmake --install` puts hitscan.pc below its prefix: lib/<multiarch>/pkgconfig on
    Debian and its derivatives (the project's CMAKE_INSTALL_LIBDIR there), else GNUInstallDirs'
    lib64 or lib."""
    arch = sysconfig.get_config_var("MULTIARCH")
    if arch and Path("/etc/debian_version").exists():
        return f"<prefix>/lib/{arch}/pkgconfig"
    return "<prefix>/lib64/pkgconfig or <prefix>/lib/pkgconfig"


def library():
    """include dirs, extra compile args, extra link args, runtime library dirs."""
    build = os.environ.get("HITSCAN_BUILD_DIR")
    if build:  # the static library of a CMake build tree (built with -fPIC) and this tree's headers
        lib = Path(build).resolve() / "src" / "libhitscan.a"
        if not lib.exists():
            raise SystemExit(f"HITSCAN_BUILD_DIR: {lib} not found (build the library first)")
        incs = [str(HERE.parent / "include"), str(Path(build).resolve() / "include")]
        return incs, ["-fopenmp"], [str(lib), "-fopenmp", "-lm"], []
    cflags, libs = pkg_config("--cflags"), pkg_config("--libs")
    if cflags is None or libs is None:
        raise SystemExit(
            "hitscan: the C library was not found: install it (cmake --install) so that "
            f"`pkg-config hitscan` works (for a non-standard prefix, set PKG_CONFIG_PATH={pc_dir()}), "
            "or set HITSCAN_BUILD_DIR to a CMake build directory")
    incs = [f[2:] for f in cflags if f.startswith("-I")]
    other = [f for f in cflags if not f.startswith("-I")]
    libdir = (pkg_config("--variable=libdir") or [None])[0]
    return incs, other + ["-fopenmp"], libs + ["-fopenmp"], [libdir] if libdir else []


incs, cflags, ldflags, rpath = library()
setup(
    ext_modules=[
        Extension(
            "hitscan._hitscan",
            sources=sorted(str(p.relative_to(HERE)) for p in (HERE / "src").glob("*.c")),
            include_dirs=[numpy.get_include(), "src", *incs],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra", *cflags],
            extra_link_args=ldflags,
            runtime_library_dirs=rpath,
        )
    ],
)
