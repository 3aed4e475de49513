"""The one error type of the engine.

Messages are English templates with ``{name}`` fields. They are marked with
``gettext_noop`` so that Django's ``makemessages`` extracts them, and the web
layer translates them with :meth:`RulesError.translate`, while the engine itself
stays free of Django.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Self


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it."""
    return message


class _Shown:
    """A value in a message: ``{x}`` shows it plainly, ``{x!r}`` as JSON would write it."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        try:
            return json.dumps(self.value, ensure_ascii=False)
        except (TypeError, ValueError):
            return repr(self.value)


def _fill(template: str, params: dict[str, object]) -> str:
    return template.format(**{name: _Shown(value) for name, value in params.items()})


class RulesError(ValueError):
    """An input that breaks a rule of the game or of the game record.

    ``places`` say where the input was, outermost first (``hand 3``, ``trick 2``).
    """

    def __init__(
        self,
        message: str,
        /,
        *,
        located: tuple[tuple[str, dict[str, object]], ...] = (),
        **params: Any,
    ) -> None:
        self.message = message
        self.params = params
        self.places = located
        super().__init__(self.translate())

    def at(self, place: str, /, **params: object) -> Self:
        """The same error, located one level further out."""
        # Not copy.copy: it would call __init__ again with the formatted message.
        located = type(self).__new__(type(self))
        located.__dict__.update(self.__dict__)
        located.places = ((place, params), *self.places)
        located.args = (located.translate(),)
        return located

    def translate(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        parts = [_fill(gettext(place), params) for place, params in self.places]
        parts.append(_fill(gettext(self.message), self.params))
        return ": ".join(parts)

    def __str__(self) -> str:
        return self.translate()


class RecordError(RulesError):
    """A game record refused as a whole, with every problem found in it."""

    def __init__(self, problems: list[RulesError]) -> None:
        self.problems = tuple(problems)
        super().__init__(gettext_noop("{count} problems"), count=len(self.problems))

    def translate(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        return "\n".join(problem.translate(gettext) for problem in self.problems)
