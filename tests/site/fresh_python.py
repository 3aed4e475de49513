"""Python run apart from the tests, in the project, with nothing in its environment but what
a test gives it: how settings read the environment, as a server starting reads it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python(*args, **env):
    """Run Python in the project with nothing in the environment but ``env``."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def settings_value(expression, **env):
    """Evaluate ``expression`` on the settings in a fresh interpreter with ``env``."""
    return python("-c", f"from boulmous_site import settings; print({expression})", **env)
