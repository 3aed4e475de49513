"""The static files as production serves them: the project's own scripts and stylesheets
(static/js, static/css) minified as they are collected, then hashed and precompressed by
WhiteNoise (gzip and Brotli) as before (issue 20: a first visit's weight).

Minifying drops the comments and the spaces between tokens, nothing else: no name is
changed, and template literals and strings are kept as written (rjsmin, rcssmin). Under
DEBUG (`make run`) too: a phone on `make run` gets what production sends (issue 40.7: the
first visit's weight is measured there, tests/bench/bench_first_visit.py); the files as
written are in static/.
"""

from collections.abc import Callable
from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIED: dict[str, tuple[str, Callable[[str], str]]] = {
    "js/": (".js", rjsmin.jsmin),
    "css/": (".css", rcssmin.cssmin),
}
"""The project's own folders under static/, the files minified there, and how."""


def minifier(name: str) -> Callable[[str], str] | None:
    """How ``name`` is minified, if it is one of the project's scripts or stylesheets."""
    for folder, (suffix, minify) in MINIFIED.items():
        if name.startswith(folder) and name.endswith(suffix):
            return minify
    return None


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    def _save(self, name: str, content: Any) -> str:
        minify = minifier(name)
        if minify is not None:
            content.seek(0)
            content = ContentFile(minify(content.read().decode()).encode())
        return str(super()._save(name, content))
