"""Each player's sums over his club's counted games (:class:`PlayerTotals`), so that his page
reads one row where it added up thousands (issue 21: 3,300 games in under 60 ms).

Derived from the league's rows (:class:`ClubResult`) and kept with them in the same
transaction: a write of the league tells :func:`count` the rows it removed and those it
added, whole games each, and the totals of the players in them move by as much; a member's
name key changed moves his totals (:func:`rekey`); a rebuild counts them all again
(:func:`recount`). Every path is tested equal to the rows added up (tests/clubs).

The rows are told as the values of :data:`COLUMNS`, as the league writes and reads them.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import chain
from typing import Any

from ...engine.league import COUNTED, Source, Statistic
from ...infra.bulk import keys_checked_meanwhile
from ..models import Club, ClubResult, PlayerTotals

COLUMNS = [field.attname for field in ClubResult._meta.concrete_fields if not field.primary_key]
"""A league row's columns, as a bulk insert writes them and :func:`count` reads them."""

_FIELDS = ["figures", "amount", "contracts", "meetings"]
_PLACE = {-1: 1, 1: 2, 0: 3}
"""Where a meeting counts a game, by how his rank compares with the other's: a lower rank is
ahead (1), a higher one behind (2), the same level (3)."""


class Sums:
    """One player's totals as :class:`PlayerTotals` keeps them, or a change of them."""

    __slots__ = ("amount", "contracts", "figures", "meetings")

    def __init__(
        self,
        figures: dict[str, int] | None = None,
        amount: Decimal | None = None,
        contracts: dict[str, int] | None = None,
        meetings: dict[str, list[int]] | None = None,
    ) -> None:
        self.figures = figures or {}
        self.amount = amount
        self.contracts = contracts or {}
        self.meetings = meetings or {}

    @classmethod
    def of(cls, row: Any) -> "Sums":
        """A stored row's (a model object, of this code or of a migration's)."""
        return cls(dict(row.figures), row.amount, dict(row.contracts), dict(row.meetings))

    def add(self, other: "Sums", sign: int = 1) -> None:
        """``other`` added (``sign`` 1) or taken away (-1); what falls to 0 is left out, so
        that sums reached by any path are equal."""
        _add(self.figures, other.figures, sign)
        _add(self.contracts, other.contracts, sign)
        for key, meeting in other.meetings.items():
            was = self.meetings.get(key, [0] * len(meeting))
            mine = [old + sign * by for old, by in zip(was, meeting, strict=True)]
            if any(mine):
                self.meetings[key] = mine
            else:
                self.meetings.pop(key, None)
        if other.amount is not None:
            self.amount = (self.amount or Decimal(0)) + sign * other.amount

    @property
    def games(self) -> int:
        return self.figures.get("games", 0)

    def fields(self) -> dict[str, Any]:
        """As :class:`PlayerTotals` keeps them: no amount when none of his games has one."""
        fields = {name: getattr(self, name) for name in _FIELDS}
        if not self.figures.get("amounts"):
            fields["amount"] = None
        return fields


def _add(into: dict[str, int], other: dict[str, int], sign: int) -> None:
    for name, value in other.items():
        total = into.get(name, 0) + sign * value
        if total:
            into[name] = total
        else:
            into.pop(name, None)


def tally(rows: Iterable[Sequence[Any]], columns: Sequence[str] = COLUMNS) -> dict[str, Sums]:
    """Each player's sums over these rows, each the values of ``columns`` (whole games: his
    meetings are with the others of his game's rows), by key. Added up a column at a time,
    and the meetings counted as pairs, so that an import's 80,000 rows take a fraction of
    a second. A migration gives the columns its rows had then: a statistic without its
    column yet is not counted."""
    at = {name: index for index, name in enumerate(columns)}
    game_at, key_at, rank_at, won_at, total_at, contracts_at, amount_at = (
        at[name] for name in ("game_id", "key", "rank", "won", "total", "contracts", "amount")
    )
    counted = [
        (statistic.name, at[statistic.name]) for statistic in COUNTED if statistic.name in at
    ]
    tables: dict[Any, list[Sequence[Any]]] = defaultdict(list)
    his_rows: dict[str, list[Sequence[Any]]] = defaultdict(list)
    for row in rows:
        tables[row[game_at]].append(row)
        his_rows[row[key_at]].append(row)
    # (his key, the other's, 1 ahead, 2 behind or 3 level): how many games.
    pairs = Counter(
        (
            mine[key_at],
            other[key_at],
            _PLACE[(mine[rank_at] > other[rank_at]) - (mine[rank_at] < other[rank_at])],
        )
        for table in tables.values()
        for mine in table
        for other in table
        if other[key_at] != mine[key_at]
    )
    sums: dict[str, Sums] = {}
    for key, rows_of in his_rows.items():
        by_column = list(zip(*rows_of, strict=True))
        figures = Counter(
            {f"rank{rank}": games for rank, games in Counter(by_column[rank_at]).items()}
        )
        figures.update(
            games=len(rows_of),
            wins=sum(by_column[won_at]),
            total=sum(by_column[total_at]),
            **{name: sum(by_column[index]) for name, index in counted},
        )
        amounts = [amount for amount in by_column[amount_at] if amount is not None]
        figures["amounts"] = len(amounts)
        contracts = Counter(map(tuple, chain.from_iterable(by_column[contracts_at])))
        sums[key] = Sums(
            {name: value for name, value in figures.items() if value},
            sum(amounts, Decimal(0)) if amounts else None,
            {f"{bid}:{trump}:{int(made)}": n for (bid, trump, made), n in contracts.items()},
        )
    for (key, other, place), games in pairs.items():
        meeting = sums[key].meetings.setdefault(other, [0, 0, 0, 0])
        meeting[0] += games
        meeting[place] += games
    return sums


def values(row: ClubResult) -> list[Any]:
    """A row made as a model object, as the values of :data:`COLUMNS`."""
    return [getattr(row, name) for name in COLUMNS]


def count(
    club: Club, removed: Iterable[Sequence[Any]] = (), added: Iterable[Sequence[Any]] = ()
) -> None:
    """The totals of the players in these games moved by the rows ``removed`` from the
    league and those ``added`` (whole games each, as values of :data:`COLUMNS`). Inside the
    league's write, the club locked: three queries at most."""
    move(club, change_of(removed, added))


def change_of(
    removed: Iterable[Sequence[Any]] = (), added: Iterable[Sequence[Any]] = ()
) -> dict[str, Sums]:
    """By how much each player's totals move: :func:`count` without its queries."""
    change = tally(added)
    for key, sums in tally(removed).items():
        change.setdefault(key, Sums()).add(sums, -1)
    return change


def move(club: Club, change: dict[str, Sums]) -> None:
    """Each player's totals moved by his :func:`change_of`."""
    if not change:
        return
    stored = {row.key: row for row in PlayerTotals.objects.filter(club=club, key__in=list(change))}
    changed, new, gone = [], [], []
    for key, by in change.items():
        row = stored.get(key)
        sums = Sums.of(row) if row is not None else Sums()
        sums.add(by)
        if row is None:
            if sums.games:
                new.append(PlayerTotals(club=club, key=key, **sums.fields()))
        elif sums.games:
            for name, value in sums.fields().items():
                setattr(row, name, value)
            changed.append(row)
        else:
            gone.append(row.pk)
    if gone:
        PlayerTotals.objects.filter(pk__in=gone).delete()
    if changed:
        PlayerTotals.objects.bulk_update(changed, _FIELDS)
    if new:
        PlayerTotals.objects.bulk_create(new)


def recount(club: Club, rows: Iterable[Sequence[Any]] | None = None) -> None:
    """The club's totals counted again from all its league rows (``rows``, when the caller
    has just written them, else read)."""
    if rows is None:
        rows = list(ClubResult.objects.filter(club=club).values_list(*COLUMNS))
    # The rows just written are checked meanwhile (a rebuild writes tens of thousands).
    with keys_checked_meanwhile():
        sums = tally(rows)
    PlayerTotals.objects.filter(club=club).delete()
    PlayerTotals.objects.bulk_create(
        PlayerTotals(club=club, key=key, **his.fields()) for key, his in sums.items()
    )


def rekey(club: Club, old: str, new: str) -> None:
    """The player ``old`` is now ``new`` (renamed, merged into another, made anonymous): his
    totals become ``new``'s, added to any ``new`` has, and so do his meetings in everyone
    else's. Called after his league rows were given the new key."""
    if old == new:
        return
    rows = list(PlayerTotals.objects.filter(club=club))
    by_key = {row.key: row for row in rows}
    moved = by_key.get(old)
    if moved is None:
        return
    if new in moved.meetings:  # they sat together: his meetings with himself go
        recount(club)
        return
    kept = by_key.get(new)
    if kept is None:
        moved.key = new
        moved.save(update_fields=["key"])
    else:
        sums = Sums.of(kept)
        sums.add(Sums.of(moved))
        for name, value in sums.fields().items():
            setattr(kept, name, value)
        kept.save(update_fields=_FIELDS)
        moved.delete()
    met = [row for row in rows if row.key not in (old, new) and old in row.meetings]
    for row in met:
        sums = Sums(meetings={new: row.meetings.pop(old)})
        mine = Sums(meetings=row.meetings)
        mine.add(sums)
        row.meetings = mine.meetings
    PlayerTotals.objects.bulk_update(met, ["meetings"])


def figure(statistic: Statistic, figures: dict[str, int], points: Sequence[int]) -> int:
    """The statistic's value from a player's totals, as ``standings.sum_of`` adds it up over
    his rows."""
    match statistic.source:
        case Source.GAMES:
            return figures.get("games", 0)
        case Source.WINS:
            return figures.get("wins", 0)
        case Source.LEAGUE_POINTS:
            return sum(
                value * figures.get(f"rank{rank}", 0) for rank, value in enumerate(points, 1)
            )
        case Source.POINTS:
            return figures.get("total", 0)
        case Source.COUNT:
            return figures.get(statistic.name, 0)
