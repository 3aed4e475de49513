"""Data for the site tests."""

from scoring.accounts import services as account_services

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
