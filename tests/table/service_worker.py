"""The service worker's script as the tests read it."""

import json
import re


def preamble(source, name):
    """The value the worker's preamble gives ``name``."""
    line = re.search(rf"^const {name} = (.*);$", source, re.MULTILINE)
    assert line is not None, name
    return json.loads(line.group(1))
