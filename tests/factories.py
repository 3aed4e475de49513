"""Data for the site tests."""

from scoring.accounts import services as account_services
from scoring.table.state import load_game

NAMES = ("Amina", "Bilal", "Chafik", "Dalila")


def hand_data(number, taker=1, bid=4, trump="H", tricks=(1, 4, 0), **extra):
    """The hand form's POST data: tricks for the first three seats, the fourth left blank.

    The dealer is the one of a game whose first dealer is Amina (seat 0).
    """
    data = {"number": number, "dealer": (number - 1) % 4, "taker": taker, "bid": bid}
    data["trump"] = trump
    data.update({f"tricks_{seat}": count for seat, count in enumerate(tricks)})
    data.update(extra)
    return data


def new_game_data(**changes):
    """The new-game form's POST data: four players, Amina deals, 21 points, no money."""
    data = {
        "player_0": "Amina",
        "player_1": "Bilal",
        "player_2": "Chafik",
        "player_3": "Dalila",
        "first_dealer": "0",
        "target": "21",
        "failed_taker": "tricks_minus_bid",
        "stake": "",
        "currency": "EUR",
    }
    data.update(changes)
    return data


def account(username, email="", password="felt-and-trumps-21", *, verified=True):
    """An account made as signing up makes it; its address verified unless told otherwise."""
    user = account_services.create_account(username=username, email=email, password=password)
    if email and verified:
        account_services.verify_email(user_id=user.pk, address=email)
    return user


def url_names(patterns=None, namespace=""):
    """The names of every URL pattern the site has, included ones too."""
    from django.urls import URLPattern, URLResolver, get_resolver

    names = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names += url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.append(namespace + pattern.name)
    return sorted(set(names))


POST_ONLY = {
    "club_rebuild_league",
    "abandon",
    "add_hand",
    "agree_settlement",
    "agree_settlement_with_code",
    "api:hand",
    "api:record_hand",
    "api_token_revoke",
    "club_federation_answer",
    "club_new_invite",
    "confirm_hand",
    "confirm_proposal",
    "dispute_hand",
    "email_change",
    "email_resend",
    "event_checkin",
    "event_draw",
    "event_end",
    "event_enter",
    "event_final",
    "event_night",
    "event_pair",
    "event_pair_remove",
    "event_publish",
    "event_settle",
    "event_swap",
    "event_withdraw",
    "federation_invite",
    "logout",
    "member_claim",
    "member_public_name",
    "member_return",
    "member_role",
    "new_link",
    "new_seat_links",
    "night_checkin",
    "night_draw",
    "night_reopen",
    "redo_hand",
    "rematch",
    "resume",
    "revoke_link",
    "revoke_seat",
    "sign_game",
    "undo_hand",
}
"""The addresses that take a POST alone: a GET gets a 405 there, and so does a HEAD."""


def address(name, arguments, secrets):
    """The address of the URL pattern ``name``, its arguments taken by their names from
    ``arguments`` (a ``secret`` from ``secrets``, by the pattern's name)."""
    from django.urls import get_resolver, reverse

    namespace, _, short = name.rpartition(":")
    resolver = get_resolver()
    if namespace:
        resolver = resolver.namespace_dict[namespace][1]
    route = resolver.reverse_dict.getlist(short)[0][0][0][1]
    kwargs = {key: arguments[key] for key in route if key in arguments}
    if "secret" in route:
        kwargs["secret"] = secrets[name]
    return reverse(name, kwargs=kwargs)


LONG_MEMBERS = (
    "Mohamed Amine Ben Abdelkader Zerhouni",
    "Mohamed Amine Ben Abdelkader Zitouni-Ali",
    "Yasmina Benali-Ouahrani",
    "Yasmine Belkacem Ould Abderrahmane",
    "Abdallah Ben Youssef El Khaldi Ouertani",
    "Abdallah Ben Youssef El Khaldi Bouzid",
    "Élodie Marchand-Dubois de la Fontaine",
    "عبد الله بن يوسف الخالدي",
)
"""Eight members' names up to the limit (40 characters), pairs alike for their first 7 to
36 characters, one in Arabic script."""


def game_url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def play(client, game, hands):
    """Post these hands by the hand form, after the game's last hand; each must be saved."""
    for number, data in enumerate(hands, start=len(load_game(game).hands) + 1):
        response = client.post(game_url(game, "hands"), {**data, "number": number})
        assert response.status_code == 302, response.context["form"].errors


# Bilal (seat 1) makes 5 tricks a hand; he reaches 21 at the fifth hand.
BILAL_FIVE = {"taker": 1, "bid": 5, "trump": "S", "tricks_0": 0, "tricks_1": 5, "tricks_2": 1}


def run_jobs() -> int:
    """The jobs queued (django-tasks' database backend) run as the worker runs them, one
    after another until none is ready: each task's function called and its row marked.
    Returns how many ran."""
    from django_tasks_db.models import DBTaskResult

    ran = 0
    while (row := DBTaskResult.objects.ready().order_by("enqueued_at", "id").first()) is not None:
        row.claim("tests")
        result = row.task_result
        try:
            value = row.task.call(*result.args, **result.kwargs)
        except Exception as error:
            row.set_failed(error)
            raise
        row.set_successful(value)
        ran += 1
    return ran
