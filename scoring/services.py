"""Every write, each one transaction: lock the game, load it once, ask the engine once,
write, and return the game as it now stands.

Refusals are domain errors carrying that state, for the view to show: the rules
broken (:class:`RulesBroken`, :class:`EndsEarly`), or the game changed under the
player's feet (:class:`HandTaken`, :class:`GameClosed`).
"""

import random
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from . import league
from .engine import (
    SEATS,
    FailedTaker,
    GameOver,
    GameResult,
    Record,
    Rules,
    RulesError,
    dealer_of,
    hand_from_dict,
)
from .engine import Hand as EngineHand
from .engine.draw import MAX_ROUNDS, draw
from .engine.draw import Round as DrawnRound
from .models import (
    Attendance,
    Change,
    Club,
    Game,
    Hand,
    Member,
    Night,
    Player,
    Round,
    ScorerLink,
    Season,
    Seat,
    Summary,
    name_key,
)
from .rights import NOBODY, Actor
from .state import GameState, columns, load_game, lock_game, score, snapshot, summary_of


class WriteRefused(Exception):
    """A write the game as it now stands does not allow; ``state`` is that game."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        super().__init__(state.game.pk)


class AlreadyRecorded(WriteRefused):
    """This form was sent before (a double tap, a retry): it recorded hand ``number``."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class HandTaken(WriteRefused):
    """Someone else recorded, or took back, hand ``number`` first."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class GameClosed(WriteRefused):
    """The game was abandoned: nothing changes until it is resumed."""


class GameWon(WriteRefused):
    """The game was won before this hand: it takes no more."""


class NothingToRedo(WriteRefused):
    """The game changed since the undo: the hand undone can no longer come back."""


class RulesBroken(Exception):
    """The engine refuses the hand in this game."""

    def __init__(self, error: RulesError) -> None:
        self.error = error
        super().__init__(str(error))


class EndsEarly(Exception):
    """With this edit the game is won at hand ``won_at``, before its last hand ``last``."""

    def __init__(self, won_at: int, last: int) -> None:
        self.won_at, self.last = won_at, last
        super().__init__(won_at, last)


def _players(names: Sequence[str]) -> list[Player]:
    """The players of these names, whatever their case, created where new.

    Names are compared by their key (:func:`name_key`), in Python, the same in every
    database. New names are created in one order (by key), so that two games creating
    the same names in crossed seat order cannot deadlock.
    """
    keys = [name_key(name) for name in names]
    found: dict[str, Player] = {
        player.key: player for player in Player.objects.filter(key__in=keys)
    }
    for key, name in sorted(zip(keys, names, strict=True)):
        if key in found:
            continue
        try:
            with transaction.atomic():
                found[key] = Player.objects.create(name=name, key=key)
        except IntegrityError:  # created meanwhile by another game
            found[key] = Player.objects.get(key=key)
    return [found[key] for key in keys]


def _change(game: Game, by: Actor, action: str, **fields: Any) -> None:
    """A line of the game's history, saying who made the change."""
    Change.objects.create(
        game=game, action=action, by_user_id=by.user_id, by_device=by.device, **fields
    )


def _summarise(state: GameState) -> GameState:
    """The game's summary row, and its club's results and ratings, following the change
    just made, in the same transaction."""
    Summary.objects.filter(game=state.game).update(changed_at=timezone.now(), **summary_of(state))
    league.follow(state)
    return state


@transaction.atomic
def create_game(
    *,
    names: Sequence[str],
    rules: Rules,
    first_dealer: int | None,
    place: str = "",
    rematch_of: Game | None = None,
    owner_id: int | None = None,
    token: uuid.UUID | None = None,
    club: Club | None = None,
    by: Actor = NOBODY,
) -> GameState:
    """A new game; ``first_dealer`` None draws the first dealer at random. A repeated
    ``token`` (a double tap on Start) gives the game it already started."""
    if token is not None:
        existing = Game.objects.filter(creation_token=token).first()
        if existing is not None:
            return load_game(existing)
    game = Game.objects.create(
        first_dealer=random.randrange(SEATS) if first_dealer is None else first_dealer,
        target=rules.target,
        failed_taker=rules.failed_taker.value,
        stake=rules.stake,
        currency=rules.currency,
        place=place,
        rematch_of=rematch_of,
        owner_id=owner_id,
        creation_token=token,
        club=club,
        club_label=club.name if club else "",
    )
    players = _players(names)
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=player) for position, player in enumerate(players)
    )
    _change(game, by, Change.Action.CREATED)
    record = Record(players=tuple(names), first_dealer=game.first_dealer, rules=rules)
    state = GameState(game, tuple(names), (), record, score(record))
    Summary.objects.create(game=game, changed_at=game.created_at, **summary_of(state))
    return state


def _aware(moment: datetime | None) -> datetime | None:
    """A record's date-time; one without an offset is taken as UTC."""
    if moment is None or timezone.is_aware(moment):
        return moment
    return timezone.make_aware(moment, UTC)


@transaction.atomic
def import_record(
    *,
    record: Record,
    owner_id: int | None = None,
    club: Club | None = None,
    follow_league: bool = True,
    by: Actor = NOBODY,
) -> GameState:
    """A game from a validated ``boulmous/1`` record, hands, descriptive keys and all.

    Into a club, the game counts in its league once won: its ratings follow at once, or,
    with ``follow_league`` false, when the caller rebuilds the league after many imports.
    """
    about = record.about
    result = score(record)
    started = _aware(about.started_at) or timezone.now()
    ended = _aware(about.finished_at)
    game = Game.objects.create(
        first_dealer=record.first_dealer,
        target=record.rules.target,
        failed_taker=record.rules.failed_taker.value,
        stake=record.rules.stake,
        currency=record.rules.currency,
        place=about.place or "",
        created_at=started,
        club_label=club.name if club else about.club or "",
        season_label=about.season or "",
        owner_id=owner_id,
        club=club,
    )
    if about.id and not Game.objects.filter(record_id=about.id).exists():
        game.record_id = about.id
    if about.abandoned and not result.finished:
        game.abandoned_at = ended or started
    game.save(update_fields=["record_id", "abandoned_at"])
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=player)
        for position, player in enumerate(_players(record.players))
    )
    _change(game, by, Change.Action.IMPORTED)
    last = len(record.hands)
    finished_at = ended if result.finished else None
    rows = Hand.objects.bulk_create(
        Hand(
            game=game,
            number=number,
            recorded_at=finished_at if number == last and finished_at else started,
            **columns(hand),
        )
        for number, hand in enumerate(record.hands, start=1)
    )
    state = GameState(game, record.players, tuple(rows), record, result)
    changed = rows[-1].recorded_at if rows else started
    Summary.objects.create(game=game, changed_at=changed, **summary_of(state))
    if follow_league:
        league.follow(state)
    return state


@transaction.atomic
def record_hand(
    *,
    public_id: str,
    number: int,
    hand: EngineHand,
    token: uuid.UUID | None,
    by: Actor = NOBODY,
) -> GameState:
    """Record hand ``number``, checked against the game as it now stands.

    A repeated token (a double tap, a retry) records nothing more. Two phones
    saving the same number: the first wins, the other gets HandTaken.
    """
    rows = lock_game(public_id)
    for row in rows.hands:
        if token is not None and row.token == token:
            raise AlreadyRecorded(rows.scored(), row.number)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if number != len(rows.hands) + 1:
        raise HandTaken(rows.scored(), number)
    record = rows.record.with_hand(number, hand)
    try:
        result = score(record)
    except GameOver:
        raise GameWon(rows.scored()) from None
    except RulesError as error:
        raise RulesBroken(error) from None
    row = Hand.objects.create(game=rows.game, number=number, token=token, **columns(hand))
    _change(rows.game, by, Change.Action.RECORDED, hand_number=number, after=snapshot(hand))
    return _summarise(GameState(rows.game, rows.names, (*rows.hands, row), record, result))


@transaction.atomic
def edit_hand(
    *,
    public_id: str,
    number: int,
    hand: EngineHand,
    discard_after_end: bool,
    by: Actor = NOBODY,
) -> GameState:
    """Replace hand ``number``'s facts; everything after is recomputed.

    If the game would now end before its last recorded hand, EndsEarly says so;
    with ``discard_after_end`` the hands after the new end are discarded, each
    kept in the history.
    """
    rows = lock_game(public_id)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if not 1 <= number <= len(rows.hands):
        raise HandTaken(rows.scored(), number)
    record = rows.record.with_hand(number, hand)
    try:
        result = score(record, drop_after_end=True)
    except RulesError as error:
        raise RulesBroken(error) from None
    won_at = len(result.hands)
    if won_at < len(record.hands) and not discard_after_end:
        raise EndsEarly(won_at, len(record.hands))
    for row, facts in zip(rows.hands[won_at:], record.hands[won_at:], strict=True):
        _discard(rows.game, row, facts, Change.Action.DISCARDED, by)
    row = rows.hands[number - 1]
    for name, value in columns(hand).items():
        setattr(row, name, value)
    row.save()
    _change(
        rows.game,
        by,
        Change.Action.EDITED,
        hand_number=number,
        before=snapshot(rows.record.hands[number - 1]),
        after=snapshot(hand),
    )
    kept = Record(
        players=record.players,
        first_dealer=record.first_dealer,
        rules=record.rules,
        hands=record.hands[:won_at],
    )
    return _summarise(GameState(rows.game, rows.names, rows.hands[:won_at], kept, result))


@transaction.atomic
def undo_hand(*, public_id: str, number: int, by: Actor = NOBODY) -> GameState:
    """Delete hand ``number`` if it is the last one; a repeated tap finds it gone and
    changes nothing more."""
    rows = lock_game(public_id)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if number < 1 or number != len(rows.hands):
        if number == len(rows.hands) + 1:
            return rows.scored()  # already undone: a double tap
        raise HandTaken(rows.scored(), number)
    _discard(rows.game, rows.hands[-1], rows.record.hands[-1], Change.Action.UNDONE, by)
    record = Record(
        players=rows.record.players,
        first_dealer=rows.record.first_dealer,
        rules=rows.record.rules,
        hands=rows.record.hands[:-1],
    )
    return _summarise(GameState(rows.game, rows.names, rows.hands[:-1], record, score(record)))


@transaction.atomic
def redo_hand(*, public_id: str, number: int, by: Actor = NOBODY) -> GameState:
    """Record again hand ``number``, undone by the game's last change; a repeated tap finds
    it back and changes nothing more."""
    rows = lock_game(public_id)
    last = rows.game.changes.first()
    if last is not None and last.action == Change.Action.REDONE and last.hand_number == number:
        return rows.scored()  # already redone: a double tap
    before = last.before if last is not None and last.action == Change.Action.UNDONE else None
    if not before or "record" not in before or last is None or last.hand_number != number:
        raise NothingToRedo(rows.scored())
    hand = hand_from_dict(before["record"], dealer_of(number - 1, rows.game.first_dealer))
    record = rows.record.with_hand(number, hand)
    result = score(record)  # it was legal where it stood, and nothing changed since
    row = Hand.objects.create(game=rows.game, number=number, **columns(hand))
    _change(rows.game, by, Change.Action.REDONE, hand_number=number, after=snapshot(hand))
    return _summarise(GameState(rows.game, rows.names, (*rows.hands, row), record, result))


def _discard(game: Game, row: Hand, facts: EngineHand, action: str, by: Actor) -> None:
    _change(game, by, action, hand_number=row.number, before=snapshot(facts))
    row.delete()


@transaction.atomic
def abandon_game(*, public_id: str, by: Actor = NOBODY) -> GameState:
    """The table stops before anyone has won: the game is settled as it stands."""
    state = lock_game(public_id).scored()
    if state.ending.over:
        return state
    state.game.abandoned_at = timezone.now()
    state.game.save(update_fields=["abandoned_at"])
    _change(state.game, by, Change.Action.ABANDONED)
    return _summarise(state)


@transaction.atomic
def resume_game(*, public_id: str, by: Actor = NOBODY) -> GameState:
    state = lock_game(public_id).scored()
    if state.game.abandoned_at is None:
        return state
    state.game.abandoned_at = None
    state.game.save(update_fields=["abandoned_at"])
    _change(state.game, by, Change.Action.RESUMED)
    return _summarise(state)


@transaction.atomic
def rematch(*, public_id: str, by: Actor = NOBODY) -> Game:
    """A new game with the same seats and rules, the deal passed on; asked twice, the same one."""
    state = lock_game(public_id).scored()
    existing = Game.objects.filter(rematch_of=state.game).first()
    if existing is not None:
        return existing
    return create_game(
        names=state.names,
        rules=state.record.rules,
        first_dealer=state.result.deal_passes_to,
        rematch_of=state.game,
        owner_id=state.game.owner_id,
        club=state.game.club,
        by=by,
    ).game


@transaction.atomic
def make_scorer_link(*, public_id: str) -> ScorerLink:
    """A new link that hands the scoring of the game to the phone that opens it."""
    return ScorerLink.objects.create(game=Game.objects.get(public_id=public_id))


@transaction.atomic
def revoke_scorer_link(*, public_id: str, link_id: int) -> None:
    """The link stops working, and so do the rights of the phones it was handed to."""
    ScorerLink.objects.filter(pk=link_id, game__public_id=public_id, revoked_at=None).update(
        revoked_at=timezone.now()
    )


# The club: its members, its seasons, its games and its records.


class NameTaken(Exception):
    """Another player of the club already goes by this name."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)


class SeasonOverlaps(Exception):
    """The days given overlap those of the season ``other``: a game would count in both."""

    def __init__(self, other: Season) -> None:
        self.other = other
        super().__init__(other.name)


class AlreadyInClub(Exception):
    """A game of these records is in the club already (same ``id``)."""

    def __init__(self, line: int, record_id: str) -> None:
        self.line, self.record_id = line, record_id
        super().__init__(line, record_id)


def _new_member(club: Club, name: str, **fields: Any) -> Member:
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, name=name, key=name_key(name), **fields)
    except IntegrityError:
        raise NameTaken(name) from None


@transaction.atomic
def create_club(
    *,
    name: str,
    slug: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
    admin_user_id: int,
    admin_name: str,
) -> Club:
    """A new club, whose first admin is the account that creates it, under ``admin_name``."""
    club = Club.objects.create(
        name=name,
        slug=slug,
        time_zone=time_zone,
        target=rules.target,
        failed_taker=rules.failed_taker.value,
        stake=rules.stake,
        currency=rules.currency,
        points=list(points),
        public=public,
        invite_admits=invite_admits,
    )
    _new_member(club, admin_name, role=Member.Role.ADMIN, user_id=admin_user_id)
    return club


@transaction.atomic
def update_club(
    *,
    club_id: int,
    name: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
) -> Club:
    """The club's settings; games already played keep the rules they were played with."""
    club = Club.objects.select_for_update().get(pk=club_id)
    club.name, club.time_zone, club.public, club.invite_admits = (
        name,
        time_zone,
        public,
        invite_admits,
    )
    club.target, club.failed_taker = rules.target, rules.failed_taker.value
    club.stake, club.currency, club.points = rules.stake, rules.currency, list(points)
    club.save()
    return club


@transaction.atomic
def add_member(*, club: Club, name: str, role: str = Member.Role.MEMBER) -> Member:
    """A player of the club who may never touch the app: a name, and a role."""
    return _new_member(club, name, role=role)


@transaction.atomic
def set_role(*, club: Club, member_id: int, role: str) -> Member:
    """A member's role. The club keeps at least one admin with an account."""
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.role == Member.Role.ADMIN and role != Member.Role.ADMIN:
        admins = Member.objects.filter(club=club, role=Member.Role.ADMIN, user__isnull=False)
        if not admins.exclude(pk=member.pk).exists():
            return member
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def join_club(*, club: Club, user_id: int, member_id: int | None, name: str) -> Member:
    """An account comes through the invite link, as a player the club already has (a claim on
    his name and his games) or under a new name. If the link admits at once he is in; else
    the claim waits for an admin. A guest who joins becomes a member."""
    existing = Member.objects.filter(club=club, user_id=user_id).first()
    if existing is not None:
        return existing
    if member_id is not None:
        member = Member.objects.select_for_update().get(
            club=club, pk=member_id, user=None, claimed_by=None
        )
    else:
        member = _new_member(club, name)
    if club.invite_admits:
        member.user_id, member.claimed_by_id = user_id, None
        if member.role == Member.Role.GUEST:
            member.role = Member.Role.MEMBER
    else:
        member.claimed_by_id = user_id
    member.save()
    return member


@transaction.atomic
def confirm_claim(*, club: Club, member_id: int, accept: bool) -> Member:
    """An admin says whether the account that claims this player is him."""
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.claimed_by_id is None:
        return member
    if accept and not Member.objects.filter(club=club, user_id=member.claimed_by_id).exists():
        member.user_id = member.claimed_by_id
        if member.role == Member.Role.GUEST:
            member.role = Member.Role.MEMBER
    member.claimed_by_id = None
    member.save()
    return member


@transaction.atomic
def new_invite(*, club: Club) -> Club:
    """A new invite link; the old one stops working."""
    club.invite_secret = Club._meta.get_field("invite_secret").get_default()
    club.save(update_fields=["invite_secret"])
    return club


@transaction.atomic
def create_season(
    *,
    club: Club,
    name: str,
    slug: str,
    first_day: date,
    last_day: date,
    points: Sequence[int],
) -> Season:
    """A season; its days may not overlap another's, so that a game counts in one at most."""
    Club.objects.select_for_update().get(pk=club.pk)
    other = club.seasons.filter(first_day__lte=last_day, last_day__gte=first_day).first()
    if other is not None:
        raise SeasonOverlaps(other)
    return Season.objects.create(
        club=club,
        name=name,
        slug=slug,
        first_day=first_day,
        last_day=last_day,
        points=list(points),
    )


def _club_names(club: Club, names: Sequence[str], role: str) -> list[str]:
    """The names as the club writes them; a name it does not know yet joins it in ``role``."""
    known = {
        member.key: member.name
        for member in Member.objects.filter(club=club, key__in=[name_key(n) for n in names])
    }
    shown = []
    for name in names:
        key = name_key(name)
        if key not in known:
            known[key] = _new_member(club, name, role=role).name
        shown.append(known[key])
    return shown


@transaction.atomic
def start_club_game(
    *,
    club: Club,
    names: Sequence[str],
    first_dealer: int | None,
    owner_id: int | None,
    token: uuid.UUID | None = None,
    by: Actor = NOBODY,
) -> GameState:
    """A club game with the club's rules: members by their names, anyone else as a guest."""
    return create_game(
        names=_club_names(club, names, Member.Role.GUEST),
        rules=Rules(
            target=club.target,
            failed_taker=FailedTaker(club.failed_taker),
            stake=club.stake,
            currency=club.currency,
        ),
        first_dealer=first_dealer,
        place=club.name,
        owner_id=owner_id,
        token=token,
        club=club,
        by=by,
    )


@transaction.atomic
def import_club_records(
    *, club: Club, records: Sequence[Record], owner_id: int | None, by: Actor = NOBODY
) -> int:
    """Games from a club's ``records.jsonl``, all or none; their players become members.

    Written in bulk, so that thousands of games take seconds: every record is scored by
    the engine first (which refuses any hand the rules do not allow), then the games, their
    seats, hands, history and summaries are inserted a batch at a time, each row as
    :func:`import_record` writes it. The league is rebuilt once, after the last. Returns
    the number of games imported."""
    Club.objects.select_for_update().get(pk=club.pk)
    ids = [record.about.id for record in records if record.about.id]
    taken = _record_ids(Game.objects.filter(club=club), ids)
    for line, record in enumerate(records, start=1):
        if record.about.id in taken:
            raise AlreadyInClub(line, record.about.id or "")
    results = [score(record) for record in records]
    # The names as the club writes them, each new one a member, in the order they come.
    first: dict[str, str] = {}
    for record in records:
        for name in record.players:
            first.setdefault(name_key(name), name)
    clubbed = _club_names(club, list(first.values()), Member.Role.MEMBER)
    shown = dict(zip(first, clubbed, strict=True))
    players = {player.key: player for player in _players(list(shown.values()))}
    used = _record_ids(Game.objects.all(), ids)
    games: list[Game] = []
    for record, result in zip(records, results, strict=True):
        game = _imported_game(record, result, club, owner_id)
        if record.about.id and record.about.id not in used:
            game.record_id = record.about.id
        used.add(game.record_id)
        games.append(game)
    Game.objects.bulk_create(games, batch_size=_BATCH)
    seats: list[Seat] = []
    hands: list[Hand] = []
    summaries: list[Summary] = []
    for game, record, result in zip(games, records, results, strict=True):
        names = tuple(shown[name_key(name)] for name in record.players)
        seats += (
            Seat(game=game, position=position, player=players[name_key(name)])
            for position, name in enumerate(names)
        )
        rows = _imported_hands(game, record, result)
        hands += rows
        state = GameState(game, names, rows, replace(record, players=names), result)
        changed = rows[-1].recorded_at if rows else game.created_at
        summaries.append(Summary(game=game, changed_at=changed, **summary_of(state)))
    Seat.objects.bulk_create(seats, batch_size=_BATCH)
    Hand.objects.bulk_create(hands, batch_size=_BATCH)
    Change.objects.bulk_create(
        (
            Change(
                game=game,
                action=Change.Action.IMPORTED,
                by_user_id=by.user_id,
                by_device=by.device,
            )
            for game in games
        ),
        batch_size=_BATCH,
    )
    Summary.objects.bulk_create(summaries, batch_size=_BATCH)
    league.rebuild(club)
    return len(records)


_BATCH = 1000
"""Rows per INSERT, and ids per ``IN (...)``, of a bulk import: within SQLite's limit on
the parameters of a statement."""


def _record_ids(games: QuerySet[Game], ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` these games already have, asked a batch at a time."""
    found: set[str] = set()
    for start in range(0, len(ids), _BATCH):
        batch = ids[start : start + _BATCH]
        found.update(games.filter(record_id__in=batch).values_list("record_id", flat=True))
    return found


def _imported_game(record: Record, result: GameResult, club: Club, owner_id: int | None) -> Game:
    """A club game's row as :func:`import_record` writes it, its record id not yet chosen."""
    about = record.about
    started = _aware(about.started_at) or timezone.now()
    abandoned = about.abandoned and not result.finished
    return Game(
        first_dealer=record.first_dealer,
        target=record.rules.target,
        failed_taker=record.rules.failed_taker.value,
        stake=record.rules.stake,
        currency=record.rules.currency,
        place=about.place or "",
        created_at=started,
        club_label=club.name,
        season_label=about.season or "",
        owner_id=owner_id,
        club=club,
        abandoned_at=(_aware(about.finished_at) or started) if abandoned else None,
    )


def _imported_hands(game: Game, record: Record, result: GameResult) -> tuple[Hand, ...]:
    """A record's hands as rows, as :func:`import_record` writes them: each recorded when
    the game started, but the last hand of a won game, recorded when it finished."""
    started = game.created_at
    ended = _aware(record.about.finished_at) if result.finished else None
    last = len(record.hands)
    return tuple(
        Hand(
            game=game,
            number=number,
            recorded_at=ended if number == last and ended else started,
            **columns(hand),
        )
        for number, hand in enumerate(record.hands, start=1)
    )


# Club nights: check-in, draws, rounds.


class RoundPlaying(Exception):
    """Tables of the night's last round are still playing: the round is not over."""

    def __init__(self, round: Round, playing: int) -> None:
        self.round, self.playing = round, playing
        super().__init__(round.number, playing)


class NightOver(Exception):
    """The night has played its rounds, or was ended."""


class TooFewPlayers(Exception):
    """Fewer than four players are present: no table can be drawn."""

    def __init__(self, present: int) -> None:
        self.present = present
        super().__init__(present)


@transaction.atomic
def create_night(*, club: Club, date: date, place: str, rounds: int | None) -> Night:
    """A club night: its date and place, and the rounds planned (none: until it stops)."""
    return Night.objects.create(club=club, date=date, place=place, rounds=rounds)


@transaction.atomic
def check_in(*, night_id: int, member_ids: Sequence[int], guests: Sequence[str]) -> Night:
    """Who is present now: the members tapped and the guests named; the others checked in
    before have left. Between rounds, so that arrivals and departures count at the next
    draw."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is not None:
        raise NightOver(night)
    known = set(
        Member.objects.filter(club=night.club, pk__in=member_ids).values_list("pk", flat=True)
    )
    named = _club_names(night.club, guests, Member.Role.GUEST) if guests else []
    known |= set(
        Member.objects.filter(club=night.club, key__in=[name_key(n) for n in named]).values_list(
            "pk", flat=True
        )
    )
    seen = set()
    for attendance in Attendance.objects.filter(night=night):
        seen.add(attendance.member_id)
        present = attendance.member_id in known
        if attendance.present != present:
            attendance.present = present
            attendance.save(update_fields=["present"])
    Attendance.objects.bulk_create(
        Attendance(night=night, member_id=member_id) for member_id in sorted(known - seen)
    )
    return night


def drawn_rounds(night: Night) -> list[DrawnRound]:
    """The night's rounds as drawn, for the next draw to spread meetings over the night."""
    return [
        DrawnRound(tuple(tuple(table) for table in row.tables), tuple(row.sitting_out))
        for row in night.round_set.all()
    ]


def _close_if_over(night: Night) -> Round | None:
    """The night's last round, closed if every table has finished; RoundPlaying if not."""
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last
    playing = Summary.objects.filter(game__round=last, status=Summary.Status.PLAYING).count()
    if playing:
        raise RoundPlaying(last, playing)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last


@transaction.atomic
def draw_round(*, night_id: int, owner_id: int | None, by: Actor = NOBODY) -> Round:
    """The next round: the players present drawn to tables of four (the engine's draw, over
    the rounds played that night), and each table's game started with its players seated
    in the drawn order, the club's rules, and a scorer link for the table's card."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is not None:
        raise NightOver(night)
    last = _close_if_over(night)
    played = last.number if last else 0
    if night.rounds is not None and played >= night.rounds:
        raise NightOver(night)
    present = sorted(
        Attendance.objects.filter(night=night, present=True).values_list("member_id", flat=True)
    )
    if len(present) < SEATS:
        raise TooFewPlayers(len(present))
    # Planning the rounds still to come spreads meetings over the whole night.
    ahead = min(night.rounds - played, MAX_ROUNDS) if night.rounds is not None else 1
    planned = draw(present, ahead, seed=night.seed, history=drawn_rounds(night))[0]
    row = Round.objects.create(
        night=night,
        number=played + 1,
        tables=[list(table) for table in planned.tables],
        sitting_out=list(planned.sitting_out),
    )
    names = dict(Member.objects.filter(pk__in=present).values_list("pk", "name"))
    for number, table in enumerate(planned.tables, start=1):
        state = start_club_game(
            club=night.club,
            names=[names[member_id] for member_id in table],
            first_dealer=0,  # the first drawn deals first, as the table sheet says
            owner_id=owner_id,
            by=by,
        )
        Game.objects.filter(pk=state.game.pk).update(round=row, table=number)
        ScorerLink.objects.create(game=state.game)
    return row


@transaction.atomic
def close_round(*, night_id: int, by: Actor = NOBODY) -> Round | None:
    """The organiser closes the last round now: tables still playing are recorded as
    abandoned (settled as they stand, counting in no standings)."""
    night = Night.objects.select_for_update().get(pk=night_id)
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last
    playing = Game.objects.filter(round=last, summary__status=Summary.Status.PLAYING)
    for public_id in playing.values_list("public_id", flat=True):
        abandon_game(public_id=public_id, by=by)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last


@transaction.atomic
def end_night(*, night_id: int, by: Actor = NOBODY) -> Night:
    """The night is over: its last round closed (tables still playing abandoned)."""
    close_round(night_id=night_id, by=by)
    night = Night.objects.select_for_update().get(pk=night_id)
    if night.ended_at is None:
        night.ended_at = timezone.now()
        night.save(update_fields=["ended_at"])
    return night
