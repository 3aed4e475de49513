"""Every form of the site, as a browser renders it at 360 px, sent back as it came:
accepted, with nothing changed that the person did not change (a French date control given
04/12/2026 showed nothing and sent the field empty: « Ce champ est obligatoire »). Every
form in Arabic; in English and French those of one page per template (EVERY_FORM). The
forms are found on the pages of the URL conf (tests/form_pages.py): each posting form of a
page that comes filled in (an edit form) is sent with only its name changed, if it has one;
the forms that make something are sent with the least a person types.

Screenshots of a refusal go to /tmp/round-trip-*.png.
"""

from datetime import date
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.forms.models import model_to_dict
from django.test import Client
from django.utils import timezone

from scoring.clubs.models import Club, Member, Night, Season
from scoring.table import services
from scoring.table.models import Game, Hand
from tests.browser.phone import PASSWORD, log_in
from tests.form_pages import club_with_a_night, page_addresses

pytestmark = pytest.mark.browser

EVERY_FORM = {"ar"}
"""The languages whose every form is sent; the others send the forms of the first page of
each template (drawn empty or filled in): a template's other pages draw the same fields
with other data, which Arabic, right to left with the most to break, sends on every page."""
KEPT = (Club, Season, Night, Member, Hand)
"""What the forms of a club edit: each row of these is compared before and after a form."""
FILLED_IN_FORMS = """() => [...document.querySelectorAll("main form")]
  .filter((form) => (form.getAttribute("method") || "").toLowerCase() === "post")
  .filter((form) => !/\\/new$/.test(new URL(form.action).pathname))
  .filter((form) => {
    const fields = [...form.elements].filter((field) => field.name && field.type !== "hidden"
      && !["submit", "button", "reset"].includes(field.type));
    const filled = (field) => ["checkbox", "radio"].includes(field.type) ? field.checked
      : field.type === "file" ? field.files.length > 0 : field.value !== "";
    const missing = fields.filter((field) => field.required && !filled(field)
      && !(field.type === "radio" && form.querySelector(`[name="${field.name}"]:checked`)));
    return fields.some(filled) && !missing.length;
  })
  .map((form) => {
    // The button that sends the form as it is: the primary one, else one that adds no value.
    const buttons = [...form.querySelectorAll("button")]
      .filter((button) => button.type === "submit");
    const send = [buttons.findIndex((button) => button.classList.contains("primary")),
      buttons.findIndex((button) => !button.name), 0].find((found) => found >= 0);
    return {send, action: form.getAttribute("action"),
      name: form.querySelector("input[name=name]")?.value ?? null};
  })"""
"""Each posting form of the page that comes filled in and needs nothing typed (a form that
makes something, its address ending in /new, is sent below with what a person types):
the submit button that sends it, its address, and its name field's value, if it has one."""


def rows():
    """Every row of :data:`KEPT`, by model and key, as its fields."""
    return {
        (model.__name__, row.pk): model_to_dict(row)
        for model in KEPT
        for row in model.objects.order_by("pk")
    }


def changes(before, after):
    """(row, field, before, after) for each value that changed; a row made or removed whole."""
    found = []
    for key in sorted(before.keys() | after.keys(), key=str):
        if key not in before or key not in after:
            found.append((key, None, before.get(key), after.get(key)))
            continue
        for field, value in before[key].items():
            if after[key].get(field) != value:
                found.append((key, field, value, after[key].get(field)))
    return found


def refusal(page):
    """What the page says is wrong, if anything."""
    errors = page.locator(".errors, .field-errors")
    return [text.strip() for text in errors.all_inner_texts()]


@pytest.fixture
def club(transactional_db):
    amina = User.objects.create_user("amina", "", PASSWORD)
    return club_with_a_night(amina)


@cache
def drawn_pages(lang):
    """Which of the club's addresses (by their place in ``page_addresses``) :func:`pages`
    keeps in ``lang``: the same for every club of :func:`club_with_a_night`, found once."""
    client = Client()
    client.force_login(User.objects.get(username="amina"))
    club = Club.objects.get()
    kept, drawn = [], set()
    for index, address in enumerate(page_addresses(club)):
        response = client.get(address)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        template = (response.templates[0].name, address.endswith("/new"))
        if lang in EVERY_FORM or template not in drawn:
            kept.append(index)
        drawn.add(template)
    return tuple(kept)


def pages(club, lang):
    """The addresses of the URL conf that answer the club's admin a page: all of them in
    Arabic (EVERY_FORM), else the first of each template, as empty (an address ending in
    /new) or filled in."""
    addresses = page_addresses(club)
    return [addresses[index] for index in drawn_pages(lang)]


def send_filled_in_forms(page, addresses, lang):
    """Each filled-in form of each page, sent as rendered (its name, if any, changed): by
    form, its address, the fields it should change, the fields it changed, and what the
    answer refused."""
    sent = []
    for address in addresses:
        page.goto(address)
        for number, form in enumerate(page.evaluate(FILLED_IN_FORMS)):
            if number:
                page.goto(address)
            element = page.locator(f'main form[action="{form["action"]}"]')
            before = rows()
            if form["name"] is not None:
                element.locator("input[name=name]").fill(form["name"] + " bis")
            with page.expect_navigation():
                element.locator("button[type=submit], button:not([type])").nth(form["send"]).click()
            refused = refusal(page)
            if refused:
                page.screenshot(path=f"/tmp/round-trip-{lang}-{len(sent)}.png")
            # A member's key follows his name.
            changed = {field for _, field, _, _ in changes(before, rows())} - {"key"}
            typed = {"name"} if form["name"] is not None else set()
            sent.append((form["action"], sorted(typed), sorted(changed), refused))
    return sent


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
def test_filled_in_forms_sent_as_rendered_change_only_what_was_typed(phone, club, lang):
    page = phone(lang)
    log_in(page, "amina")
    sent = send_filled_in_forms(page, pages(club, lang), lang)
    night = club.nights.get().pk
    essential = {
        f"/clubs/{club.slug}/settings",
        f"/clubs/{club.slug}/seasons/now/edit",
        f"/clubs/{club.slug}/nights/{night}/edit",
    }

    assert [(action, changed, refused) for action, _, changed, refused in sent] == [
        (action, typed, []) for action, typed, _, _ in sent
    ]
    assert essential - {action for action, _, _, _ in sent} == set()


EMPTY_FORMS = """() => [...document.querySelectorAll("main form")]
  .filter((form) => (form.getAttribute("method") || "").toLowerCase() === "post")
  .filter((form) => {
    const fields = [...form.elements].filter((field) => field.name && field.type !== "hidden");
    const empty = fields.filter((field) => field.required && field.value === ""
      && !["checkbox", "radio", "file"].includes(field.type));
    return empty.length && !fields.some((field) => field.type === "password");
  })
  .map((form) => form.getAttribute("action"))"""
"""Each posting form of the page that asks for something typed, but a password: a form that
makes something (a night, a season, a member, a game, a token), by its address."""
TYPED = {"date": "2031-03-01", "number": "{n}", "email": "elodie{n}@example.com"}
"""What a person types in an empty required field of each type (a name in any other)."""


def fill_the_least(form, seat_code):
    """Each empty required field of ``form`` filled as a person would: a name (another in
    each field; the one the page asks for, where it asks one typed to confirm), a day far
    from the club's season (the same in each: a one-day season), the code of a seat the
    scorer gave him."""
    fields = form.locator("input[required], textarea[required]")
    for index in range(fields.count()):
        field = fields.nth(index)
        kind = field.get_attribute("type") or "text"
        if field.input_value() or kind in ("checkbox", "radio", "file", "hidden"):
            continue
        if field.get_attribute("name") == "code":
            field.fill(seat_code)
            continue
        asked = field.get_attribute("data-expected")
        field.fill(asked or TYPED.get(kind, "Élodie Ouali {n}").format(n=index + 1))


def row_counts():
    return {model.__name__: model.objects.count() for model in apps.get_models()}


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
def test_forms_that_make_something_sent_with_the_least_typed_are_accepted(phone, club, lang):
    page = phone(lang)
    log_in(page, "amina")
    game = Game.objects.get(club_game__club=club)
    seat_code = services.make_seat_links(public_id=game.public_id)[1].code
    made = []
    for address in pages(club, lang):
        page.goto(address)
        for number, action in enumerate(page.evaluate(EMPTY_FORMS)):
            if number:
                page.goto(address)
            element = page.locator(f'main form[action="{action}"]')
            fill_the_least(element, seat_code)
            before = row_counts()
            with page.expect_navigation():
                element.locator("button[type=submit], button:not([type])").first.click()
            refused = refusal(page)
            if refused:
                page.screenshot(path=f"/tmp/round-trip-made-{lang}-{len(made)}.png")
            after = row_counts()
            more = sorted(name for name, count in after.items() if count > before[name])
            made.append((action, refused, bool(more)))
    # A form may make a row (a night) or not (a password reset mails a link): those that
    # make the club's things must.
    # The new night form, sent as it came: the night is on the club's today.
    page.goto(f"/clubs/{club.slug}/nights/new")
    with page.expect_navigation():
        page.locator("main form button.primary").click()
    today = timezone.localdate(timezone=ZoneInfo(club.time_zone))
    making = {action for action, _, more in made if more}

    assert [(action, refused) for action, refused, _ in made] == [
        (action, []) for action, _, _ in made
    ]
    assert {
        f"/clubs/{club.slug}/seasons/new",
        f"/clubs/{club.slug}/members",
        f"/clubs/{club.slug}/games/new",
        f"/clubs/{club.slug}/events/new",
        "/accounts/tokens/new",
    } - making == set()
    assert club.seasons.filter(first_day=date(2031, 3, 1)).count() == 1
    # The nights of the club's own (an event made above brings its first night).
    nights = club.nights.filter(event__isnull=True).order_by("pk")
    assert list(nights.values_list("date", flat=True))[1:] == [today]
