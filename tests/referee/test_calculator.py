"""The trick calculator: a trump and four cards by links in the query string, the winner and why."""

from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import DECK

URL = "/referee/trick"
VOID_TAGS = {"meta", "link", "input", "br", "img", "hr", "source", "line", "polyline"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children: list[Node | str] = []

    @property
    def text(self):
        parts = [child if isinstance(child, str) else child.text for child in self.children]
        return " ".join("".join(parts).split())

    @property
    def label(self):
        """The text a screen reader reads: what is aria-hidden left out."""
        parts = [
            child if isinstance(child, str) else child.label
            for child in self.children
            if isinstance(child, str) or child.attrs.get("aria-hidden") != "true"
        ]
        return " ".join("".join(parts).split())

    @property
    def classes(self):
        return (self.attrs.get("class") or "").split()

    def find_all(self, tag=None, cls=None, **attrs):
        found = []
        for child in self.children:
            if isinstance(child, str):
                continue
            if (
                (tag is None or child.tag == tag)
                and (cls is None or cls in child.classes)
                and all(child.attrs.get(name.replace("_", "-")) == v for name, v in attrs.items())
            ):
                found.append(child)
            found.extend(child.find_all(tag, cls, **attrs))
        return found

    def find(self, tag=None, cls=None, **attrs):
        found = self.find_all(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, [node.text for node in found])
        return found[0]


class Tree(HTMLParser):
    """Just enough of a DOM to read the page as a person would: texts, links, marks."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.root = self.node = Node("#document", {})
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.node)
        self.node.children.append(node)
        if tag not in VOID_TAGS:
            self.node = node

    def handle_endtag(self, tag):
        node = self.node
        while node.parent is not None and node.tag != tag:
            node = node.parent
        if node.parent is not None:
            self.node = node.parent

    def handle_data(self, data):
        self.node.children.append(data)


def page(response):
    return Tree(response.content.decode()).root


def ask(client, query="", language="en", **headers):
    return client.get(f"{URL}{query}", HTTP_ACCEPT_LANGUAGE=language, **headers)


def query_of(href):
    """The question a link asks, as {"trump": ..., "cards": ...}."""
    return {name: values[0] for name, values in parse_qs(urlsplit(href).query).items()}


def winner(root):
    """(position, card) of the card marked as the winner in the played row."""
    slot = root.find("li", "winner")
    return slot.find("span", "position").text, slot.find("span", "card").text


def verdict(root):
    box = root.find("div", "verdict")
    return [box.find("h2").text] + [paragraph.text for paragraph in box.find_all("p")]


def card_links(root):
    return root.find_all("a", "card-key")


def disabled_keys(root):
    return {key.text for key in root.find_all("span", "card-key", aria_disabled="true")}


# --- The three cases of the other jack -------------------------------------------------

LEFT_BOWER_LED = {
    "en": [
        "The jack of diamonds wins",
        "The jack of diamonds is the second-highest trump when hearts are trump.",
        "The jack of diamonds belongs to the trump suit: hearts were led.",
    ],
    "fr": [
        "Le valet de carreau gagne",
        "Le valet de carreau est le deuxième atout quand cœur est atout.",
        "Le valet de carreau compte comme un atout : la couleur demandée est cœur.",
    ],
}
LEFT_BOWER_TRUMPS = {
    "en": [
        "The jack of diamonds wins",
        "The jack of diamonds is the second-highest trump when hearts are trump.",
    ],
    "fr": [
        "Le valet de carreau gagne",
        "Le valet de carreau est le deuxième atout quand cœur est atout.",
    ],
}
NO_TRUMP_JACK_IS_PLAIN = {
    "en": [
        "The ace of diamonds wins",
        "The ace of diamonds is the highest card of the suit led, diamonds: "
        "at no trump, each suit runs from the ace down to the nine.",
    ],
    "fr": [
        "L’as de carreau gagne",
        "L’as de carreau est la plus forte carte de la couleur demandée, carreau : "
        "sans atout, chaque couleur va de l’as au neuf.",
    ],
}
POSITIONS = {"en": ("1st", "2nd"), "fr": ("1re", "2e")}
JACK_OF_DIAMONDS = {"en": "J♦", "fr": "V♦"}  # French cards read V, D, R: valet, dame, roi


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_other_jack_led_wins_as_the_second_trump(client, language):
    root = page(ask(client, "?trump=H&cards=JD,AD,KD,QD", language))

    assert winner(root) == (POSITIONS[language][0], JACK_OF_DIAMONDS[language])
    assert verdict(root) == LEFT_BOWER_LED[language]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_other_jack_played_second_trumps_the_ace_led(client, language):
    root = page(ask(client, "?trump=H&cards=AS,JD,KS,QS", language))

    assert winner(root) == (POSITIONS[language][1], JACK_OF_DIAMONDS[language])
    assert verdict(root) == LEFT_BOWER_TRUMPS[language]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_at_no_trump_the_jacks_are_plain_cards(client, language):
    root = page(ask(client, "?trump=NT&cards=JD,AD,KD,QD", language))

    assert winner(root) == (POSITIONS[language][1], "A♦")
    assert verdict(root) == NO_TRUMP_JACK_IS_PLAIN[language]


# --- The keys ---------------------------------------------------------------------------


def test_empty_page_offers_five_trumps_in_words_and_the_24_cards(client):
    response = ask(client)
    root = page(response)

    assert response.status_code == 200
    trumps = root.find("nav", "calc-trumps").find_all("a")
    assert [link.label for link in trumps] == ["spades", "hearts", "diamonds", "clubs", "no trump"]
    assert not [link for link in trumps if "aria-current" in link.attrs]
    assert [link.text for link in card_links(root)] == [card.label for card in DECK]
    assert [len(row.find_all("li")) for row in root.find_all("ul", "calc-suit")] == [6] * 4
    assert not root.find_all("div", "verdict")


def test_trump_keys_keep_the_cards_and_mark_the_chosen_one(client):
    root = page(ask(client, "?trump=D&cards=JD,AD"))

    trumps = root.find("nav", "calc-trumps").find_all("a")
    assert [query_of(link.attrs["href"]) for link in trumps] == [
        {"trump": trump, "cards": "JD,AD"} for trump in ("S", "H", "D", "C", "NT")
    ]
    assert [link.label for link in trumps if link.attrs.get("aria-current") == "true"] == [
        "diamonds"
    ]


def test_played_cards_are_disabled_and_the_others_append_to_the_question(client):
    root = page(ask(client, "?trump=S&cards=JD,AD"))

    assert disabled_keys(root) == {"J♦", "A♦"}
    links = card_links(root)
    assert len(links) == 22
    assert {link.attrs["href"] for link in links} == {
        f"{URL}?trump=S&cards=JD,AD,{card}" for card in DECK if str(card) not in ("JD", "AD")
    }
    assert all(link.attrs["hx-get"] == link.attrs["href"] for link in links)
    played = root.find("ol", "calc-played").find_all("li", "slot")
    assert [slot.text for slot in played] == ["1st J♦", "2nd A♦", "3rd", "4th"]


def test_four_cards_disable_every_card_key(client):
    root = page(ask(client, "?trump=S&cards=9S,TS,QS,KS"))

    assert card_links(root) == []
    assert len(disabled_keys(root)) == 24


def test_new_question_keeps_the_trump_and_take_back_drops_the_last_card(client):
    root = page(ask(client, "?trump=C&cards=9S,TS,QS,KS"))

    actions = {
        link.text: link.attrs["href"] for link in root.find("p", "calc-actions").find_all("a")
    }
    assert actions == {
        "New question": f"{URL}?trump=C",
        "Take back the last card": f"{URL}?trump=C&cards=9S,TS,QS",
    }


def test_four_cards_without_a_trump_wait_for_one(client):
    root = page(ask(client, "?cards=JD,AD,KD,QD"))

    assert not root.find_all("div", "verdict")
    assert "choose the trump" in root.find("p", "notice").text
    assert root.find_all("li", "winner") == []


def test_five_taps_from_an_empty_page_give_the_verdict(client):
    root = page(ask(client))
    taps = [("nav", "hearts"), ("a", "J♦"), ("a", "A♦"), ("a", "K♦"), ("a", "Q♦")]
    for where, text in taps:
        links = (
            root.find("nav", "calc-trumps").find_all("a") if where == "nav" else card_links(root)
        )
        (link,) = [link for link in links if link.label == text]
        response = client.get(link.attrs["href"])
        assert response.status_code == 200
        root = page(response)

    assert query_of(response.wsgi_request.get_full_path()) == {"trump": "H", "cards": "JD,AD,KD,QD"}
    assert verdict(root)[0] == "The jack of diamonds wins"


def test_a_card_first_then_the_trump_also_gives_the_verdict(client):
    root = page(ask(client, "?cards=AS,JD,KS,QS"))
    (hearts,) = [link for link in root.find_all("a") if link.label == "hearts"]

    assert winner(page(client.get(hearts.attrs["href"]))) == ("2nd", "J♦")


# --- htmx -------------------------------------------------------------------------------


def test_htmx_tap_gets_only_the_calculator_area(client):
    response = ask(client, "?trump=H&cards=JD", HTTP_HX_REQUEST="true")
    html = response.content.decode()

    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="calc"' not in html  # the area's content, swapped into it
    assert len(card_links(page(response))) == 23
    assert "HX-Request" in response.headers["Vary"]


def test_full_page_names_the_area_htmx_swaps(client):
    root = page(ask(client, "?trump=H"))

    area = root.find("div", id="calc")
    assert (area.attrs["hx-target"], area.attrs["hx-replace-url"]) == ("#calc", "true")
    assert len(card_links(area)) == 24


def test_htmx_history_restore_gets_the_whole_page(client):
    response = ask(
        client, "?trump=H", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )

    assert "<html" in response.content.decode()


# --- Bad questions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "trump", "cards", "problems"),
    [
        ("?trump=xx&cards=JD", None, ["J♦"], 1),
        ("?trump=nt&cards=jd,%2010d", "NT", ["J♦", "10♦"], 0),
        ("?trump=H&cards=JD,ZZ,AD", "H", ["J♦", "A♦"], 1),
        ("?trump=H&cards=JD,JD,AD", "H", ["J♦", "A♦"], 1),
        ("?trump=H&cards=9H,TH,JH,QH,KH", "H", ["9♥", "10♥", "J♥", "Q♥"], 1),
        ("?trump=H&cards=,,JD,,", "H", ["J♦"], 0),
        ("?trump=H&cards=JD%00", "H", [], 1),
        ("?trump=H&trump=S&cards=JD&cards=AD", "S", ["A♦"], 0),
        ("?trump=🂡&cards=🂡", None, [], 2),
        ("?trump=<b>&cards=<script>", None, [], 2),
    ],
)
def test_bad_parts_of_a_question_are_left_out_with_a_message(client, query, trump, cards, problems):
    response = ask(client, query)
    root = page(response)

    assert response.status_code == (400 if "%00" in query else 200)
    current = root.find("nav", "calc-trumps").find_all("a", aria_current="true")
    assert [query_of(link.attrs["href"])["trump"] for link in current] == ([trump] if trump else [])
    assert [slot.find("span", "card").text for slot in root.find_all("li", "slot")][
        : len(cards)
    ] == cards
    shown = root.find_all("div", "errors")
    assert len(shown[0].find_all("li") if shown else []) == problems
    assert "<script>" not in response.content.decode()


def test_duplicate_card_message_is_the_engine_s(client):
    root = page(ask(client, "?trump=H&cards=JD,JD"))

    assert root.find("div", "errors").find("li").text == "A trick cannot hold the same card twice"


def test_unknown_trump_message_in_french(client):
    root = page(ask(client, "?trump=X", "fr"))

    assert root.find("div", "errors").find("li").text == 'L’atout "X" n’est pas l’un de S H D C NT'


def test_text_too_long_to_be_a_question_is_a_bad_request(client):
    response = ask(client, "?trump=H&cards=" + "JD," * 100)

    assert response.status_code == 400
    assert len(card_links(page(response))) == 24


def test_the_calculator_only_answers_get(client):
    assert client.post(URL, {"trump": "H"}).status_code == 405


@settings(max_examples=80, deadline=None)
@given(
    trump=st.one_of(st.sampled_from(["S", "h", " nt ", "", "X"]), st.text(max_size=12)),
    cards=st.one_of(
        st.lists(st.sampled_from([str(card) for card in DECK] + ["10S", "zz", ""]), max_size=7).map(
            ",".join
        ),
        st.text(max_size=80),
    ),
)
def test_any_question_is_answered_with_a_sane_page(trump, cards):
    response = Client().get(URL, {"trump": trump, "cards": cards})

    assert response.status_code in (200, 400)
    root = page(response)
    played = [slot for slot in root.find_all("li", "slot") if "empty" not in slot.classes]
    assert len(played) <= 4
    assert len(root.find_all("div", "verdict")) <= 1


# --- One tap away -----------------------------------------------------------------------


@pytest.mark.parametrize("phone", ["client", "watcher"])
def test_game_page_links_to_the_calculator(request, game, phone):
    root = page(request.getfixturevalue(phone).get(f"/games/{game.public_id}/"))

    # Once: beside the hand form for a phone that scores, among the page's links otherwise.
    links = root.find_all("a")
    (link,) = [link for link in links if link.attrs.get("href") == f"{URL}?game={game.public_id}"]
    assert link.text == "Who wins the trick?"


@pytest.mark.django_db
def test_home_page_links_to_the_calculator(client):
    root = page(client.get("/"))

    (link,) = [
        link for link in root.find("p", "actions").find_all("a") if link.attrs["href"] == URL
    ]
    assert link.text == "Who wins the trick?"


def test_calculator_with_htmx_announces_the_verdict_outside_the_swapped_area(client):
    response = client.get(
        "/referee/trick", {"trump": "H", "cards": "JD,AD,KD,QD"}, HTTP_HX_REQUEST="true"
    )

    assert (
        '<p id="calc-announce" class="visually-hidden" aria-live="polite" hx-swap-oob="true">'
        "The jack of diamonds wins. The jack of diamonds is the second-highest trump"
    ) in response.content.decode()


# --- French cards -------------------------------------------------------------------------


def test_french_card_keys_read_v_d_r(client):
    root = page(ask(client, language="fr"))

    assert [link.text for link in card_links(root)][:6] == ["9♠", "10♠", "V♠", "D♠", "R♠", "A♠"]


# --- The way back to the game ---------------------------------------------------------------


def question_links(root):
    """The links that ask a question: trumps, cards, take back, new question."""
    area = root.find("div", id="calc")
    return [link for link in area.find_all("a") if "calc-leave" not in link.parent.classes]


def test_calculator_opened_from_a_game_links_back_to_it(client, game):
    root = page(ask(client, f"?game={game.public_id}"))

    (back,) = root.find("p", "calc-leave").find_all("a")
    assert (back.text, back.attrs["href"]) == ("Back to the game", f"/games/{game.public_id}/")


def test_calculator_links_keep_the_game(client, game):
    root = page(ask(client, f"?trump=H&cards=JD,AD&game={game.public_id}"))

    hrefs = [link.attrs["href"] for link in question_links(root)]
    assert len(hrefs) == 5 + 22 + 2
    assert [query_of(href).get("game") for href in hrefs] == [str(game.public_id)] * len(hrefs)
    assert f"{URL}?trump=H&cards=JD&game={game.public_id}" in hrefs  # take back the last card


def test_calculator_with_htmx_keeps_the_game_and_the_way_back(client, game):
    root = page(ask(client, f"?trump=H&game={game.public_id}", HTTP_HX_REQUEST="true"))

    assert root.find("p", "calc-leave").find("a").attrs["href"] == f"/games/{game.public_id}/"
    assert card_links(root)[0].attrs["href"] == f"{URL}?trump=H&cards=9S&game={game.public_id}"


@pytest.mark.parametrize(
    "value", ["abc", "", "-1", "0", "1.5", "²", "9" * 30, "999999", "1%00", "%3Cb%3E"]
)
def test_calculator_bad_game_is_ignored(client, game, value):
    response = ask(client, f"?trump=H&cards=JD&game={value}")
    root = page(response)

    assert response.status_code == 200
    assert root.find_all("p", "calc-leave") == []
    assert [link for link in question_links(root) if "game" in query_of(link.attrs["href"])] == []
