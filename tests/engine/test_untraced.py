"""The property tests run untraced (tests/engine/conftest.py) are tests of tests/engine."""

import importlib

from tests.engine.conftest import UNTRACED


def test_untraced_names_only_tests_there_are():
    missing = [
        (name, test)
        for name, tests in UNTRACED.items()
        for test in tests
        if not callable(getattr(importlib.import_module(f"tests.engine.{name[:-3]}"), test, None))
    ]
    assert missing == []
