# SPDX-License-Identifier: MIT
"""The package makes OpenMP's idle threads sleep unless the user chose a wait policy."""
import os
import subprocess
import sys


def _policy(env_policy):
    env = dict(os.environ, OMP_DISPLAY_ENV="true")
    env.pop("OMP_WAIT_POLICY", None)
    if env_policy is not None:
        env["OMP_WAIT_POLICY"] = env_policy
    out = subprocess.run([sys.executable, "-c", "import hitscan"], env=env, check=True,
                         capture_output=True, text=True)
    for line in out.stderr.splitlines():
        if "OMP_WAIT_POLICY" in line:
            return line.split("=")[1].strip().strip("'")
    raise AssertionError("OpenMP did not display its settings:\n" + out.stderr)


def test_passive_by_default():
    assert _policy(None) == "PASSIVE"


def test_user_choice_wins():
    assert _policy("active") == "ACTIVE"
