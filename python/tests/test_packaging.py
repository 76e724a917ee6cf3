# SPDX-License-Identifier: MIT
"""The package's documentation and metadata agree with the code: python/README.md's calls are
valid Python with the functions' real parameters, its snippets run as scripts, setup.py's
hint names the directory `cmake --install` uses, and the version is the same everywhere."""
import ast
import inspect
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import hitscan

PKG = Path(__file__).resolve().parent.parent  # python/
README = (PKG / "README.md").read_text()


def api_calls():
    """The code spans of the README's API table's first column."""
    table = README.split("## API", 1)[1].split("\n\n", 2)[1]
    for row in table.splitlines()[2:]:
        for span in re.findall(r"`([^`]+)`", row.split(" | ")[0]):
            yield span


def test_api_table_calls_are_python():
    calls = [c for c in api_calls() if "(" in c]
    assert any(c.startswith("scene(") for c in calls)
    for call in calls:
        ast.parse(call, mode="eval")  # SyntaxError names the call


def test_api_table_matches_module_functions():
    """Each documented module function's parameters are the real ones, in order, with the
    real defaults."""
    checked = 0
    for call in api_calls():
        tree = ast.parse(call, mode="eval").body
        if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name):
            continue
        fn = getattr(hitscan, tree.func.id)
        if isinstance(fn, type):
            continue
        real = inspect.signature(fn).parameters
        names = [a.id for a in tree.args] + [k.arg for k in tree.keywords]
        assert names == list(real)[: len(names)], (call, list(real))
        for k in tree.keywords:
            assert ast.literal_eval(k.value) == real[k.arg].default, (call, k.arg)
        checked += 1
    assert checked >= 3


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README, re.S)


def test_snippets_compile_and_guard_process_pools():
    """Worker processes re-import the main script: a snippet that starts a cluster must do it
    under `if __name__ == "__main__":`, or pasted into a script it starts clusters forever."""
    blocks = python_blocks()
    assert blocks
    starts = 0
    for code in blocks:
        compile(code, "README.md", "exec")
        tree = ast.parse(code)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                    "Client", "LocalCluster"):
                starts += 1
                guarded = [
                    s for s in tree.body
                    if isinstance(s, ast.If) and "__name__" in ast.unparse(s.test)
                    and any(n is node for n in ast.walk(s))]
                assert guarded, ast.unparse(node)
    assert starts


def test_setup_py_hint_names_the_install_libdir(tmp_path):
    """Without pkg-config finding hitscan, setup.py stops with a hint for PKG_CONFIG_PATH: on
    Debian `cmake --install` puts hitscan.pc in <prefix>/lib/<multiarch>/pkgconfig."""
    env = dict(os.environ, PKG_CONFIG_LIBDIR=str(tmp_path), PKG_CONFIG_PATH="")
    env.pop("HITSCAN_BUILD_DIR", None)
    r = subprocess.run([sys.executable, "setup.py", "--version"], cwd=PKG, env=env,
                       capture_output=True, text=True)
    assert r.returncode != 0 and "PKG_CONFIG_PATH" in r.stderr, r.stderr
    arch = sysconfig.get_config_var("MULTIARCH")
    if arch and Path("/etc/debian_version").exists():
        assert f"<prefix>/lib/{arch}/pkgconfig" in r.stderr, r.stderr
    else:
        assert "<prefix>/lib/pkgconfig" in r.stderr, r.stderr


def pyproject():
    import tomllib

    return tomllib.loads((PKG / "pyproject.toml").read_text())["project"]


def test_one_version_everywhere(tmp_path):
    """pyproject.toml, setup.py (what pip installs), the package and the extension agree."""
    version = pyproject()["version"]
    assert version == "0.3.0"
    assert hitscan.__version__ == hitscan._hitscan.__version__ == version
    # setup.py wants a library to build against; --version links nothing
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "libhitscan.a").touch()
    env = dict(os.environ, HITSCAN_BUILD_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "setup.py", "--version"], cwd=PKG, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == version, r.stdout
    # the C library's own version is reported beside it
    assert re.fullmatch(r"\d+\.\d+\.\d+", hitscan.library_version)


def test_licence_metadata():
    meta = pyproject()
    # setuptools before 77 (Debian 12 has 66) takes the SPDX expression as a table only
    assert meta["license"] in ("MIT", {"text": "MIT"})
    assert "License :: OSI Approved :: MIT License" in meta["classifiers"]
