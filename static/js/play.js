// A hand entered card by card, followed in the browser: every tap is handled here,
// without a request, so that the page keeps working once it is loaded, offline too.
//
// Without JavaScript each key is a link to the play with one card more, and the server
// (scoring/engine) follows it. Here the same rules (static/js/rules.js, checked against the
// engine by `node --test tests/js/`) are followed on the same query string, which is kept
// in the address bar: a reload shows the server's page for the same play.
// The words come from the server, in the user's language (#play-data, see
// scoring/pages/play.py play_script), and the save form too (#play-save-form). The
// server stays the judge when the hand is saved. tests/browser/test_play_offline.py
// plays random deals here and checks every verdict against the engine's.
//
// Offline, the service worker (sw.js) answers for this page with the copy it kept of
// the game's play page, which may be another hand's or another contract's: the address
// says which hand and contract are meant, and the page is set up again from it (the
// heading, the contract, the outcomes, the save form's fields and a new token), or, with
// no contract in the address, it asks for one (#play-choice, the server's own form).
(() => {
  "use strict";

  // The rules (scoring/engine/cards.py, play.py, referee.py), in static/js/rules.js.
  const Rules = globalThis.BoulmousRules;
  const { SEATS, TRICKS, SUITS, SYMBOLS, capfirst, mod, suitOf } = Rules;
  const QUERY = ["taker", "bid", "trump", "cards"];
  const PLAY_PATH = /\/hands\/(\d+)\/play$/;

  // --- Words --------------------------------------------------------------------------

  // The page's sentences are %(name)s templates; the referee's phrases are said by
  // Rules.say in the words the page was given (#play-data).
  const say = (template, values) =>
    template.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? values[name] : whole));
  const refereeWords = () => ({
    reasons: data.reasons,
    suits: data.suits,
    cards: data.names_of,
    labels: data.labels,
    names: data.names,
  });

  // Why a card wins a trick: scoring/engine/referee.py explain_trick, word for word.
  const reason = (trick) => Rules.sayVerdict(Rules.explainTrick(trick.cards, data.trump), refereeWords());

  // --- The page -----------------------------------------------------------------------

  let data = null;
  let cards = [];

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }

  const cardClass = (code, more = "") => `card${Rules.isRed(suitOf(code)) ? " red" : ""}${more}`;

  function query(played) {
    const values = { taker: data.taker, bid: data.bid, trump: data.trump, cards: played.join(",") };
    const params = new URLSearchParams();
    for (const name of QUERY) params.append(name, values[name]);
    return `?${params}`;
  }

  function headline(trick, number) {
    return say(data.words.wins, { number, name: data.names[trick.winner] });
  }

  function render(announce) {
    const root = document.getElementById("play");
    const anchor = document.getElementById("play-save-form");
    if (!root || !anchor) return;
    const words = data.words;
    const play = Rules.follow(data.taker, data.trump, cards);
    const parts = [];

    const status = element("p", { class: "status play-status" }, element("strong", {}, data.contract));
    if (play.toPlay !== null) {
      status.append("\n    ", element("span", { class: "to-play" },
        capfirst(say(words.to_play, { name: data.names[play.toPlay] }))));
    }
    parts.push(status);

    if (!play.complete) {
      const heading = element("h2", {}, say(words.trick, { number: play.tricks.length + 1 }));
      if (play.current.length) {
        const led = Rules.effectiveSuit(play.current[0], data.trump);
        heading.append(" ", element("small", { class: "muted" }, say(words.led, { suit: SYMBOLS[led] })));
      }
      const table = element("ol", { class: "table-cards" }, ...play.current.map((code, index) =>
        element("li", {},
          element("span", { class: "who" }, data.names[mod(play.leader + index)]),
          element("span", { class: cardClass(code) }, data.labels[code]))));
      parts.push(element("section", { class: "current" }, heading, table));

      const played = new Set(cards);
      const deck = element("section", { class: "deck", "aria-label": words.deck });
      for (const suit of SUITS) {
        const row = element("div", { class: "deck-row" });
        for (const code of data.order.filter((card) => suitOf(card) === suit)) {
          const red = Rules.isRed(suit) ? " red" : "";
          row.append(played.has(code)
            ? element("span", { class: "key played", "aria-disabled": "true" }, data.labels[code])
            : element("a", {
              class: `key${red}`,
              href: query([...cards, code]),
              "data-card": code,
              "aria-label": say(words.plays, { name: data.names[play.toPlay], card: data.names_of[code] }),
            }, data.labels[code]));
        }
        deck.append(row);
      }
      parts.push(deck);
    }

    const slot = element("div", { class: "verdict-slot" });
    let said = "";
    if (play.tricks.length && !play.current.length) {
      const last = play.tricks[play.tricks.length - 1];
      const title = headline(last, play.tricks.length);
      const why = reason(last);
      slot.append(element("section", { class: "verdict", "aria-live": "polite" },
        element("p", {}, element("strong", {}, title), " ", why)));
      said = `${title} ${why}`;
    }
    parts.push(slot);

    if (play.complete) {
      const won = Rules.tricksWon(play.tricks);
      const found = Rules.revokes(play.tricks, data.trump)
        .map((revoke) => capfirst(Rules.say(Rules.explainRevoke(revoke), refereeWords())));
      const result = element("section", { class: "result", "aria-live": "polite" },
        element("h2", {}, words.complete),
        element("p", {}, element("strong", {}, data.outcomes[won[data.taker]])),
        element("ul", { class: "won" }, ...data.names.map((name, seat) =>
          element("li", {}, name, " ", element("b", {}, String(won[seat]))))));
      if (found.length) {
        result.append(element("div", { class: "errors", role: "alert" },
          element("p", {}, element("strong", {}, words.revoke_found)),
          element("ul", {}, ...found.map((text) => element("li", {}, text))),
          element("p", {}, words.table_decides)));
      }
      const form = anchor.content.querySelector("form").cloneNode(true);
      form.querySelector('input[name="plays"]').value = cards.join(",");
      form.querySelector("button").textContent = found.length ? words.keep : words.save;
      result.append(form);
      parts.push(result);
    }

    const actions = element("p", { class: "actions" });
    if (cards.length) {
      actions.append(element("a", { class: "button", href: query(cards.slice(0, -1)), "data-take-back": "" },
        words.take_back), "\n    ");
    }
    actions.append(element("a", { class: "button", href: data.game }, words.back));
    parts.push(actions);

    if (play.tricks.length) {
      const list = element("ol");
      play.tricks.forEach((trick, index) => {
        list.prepend(element("li", {},
          element("strong", {}, headline(trick, index + 1)), "\n        ",
          element("span", { class: "trick-cards" }, ...trick.cards.map((code, at) =>
            element("span", { class: cardClass(code, at === trick.index ? " wins" : ""), title: data.names_of[code] },
              data.labels[code]))), "\n        ",
          element("small", { class: "muted" }, reason(trick))));
      });
      parts.push(element("section", { class: "tricks-done" }, element("h2", {}, words.tricks_played), list));
    }

    // Everything after the save form's template is the play's: it is drawn again.
    while (anchor.nextSibling) anchor.nextSibling.remove();
    root.append(...parts);
    if (announce) {
      const live = document.getElementById("play-announce");
      if (live) live.textContent = said;
    }
  }

  // --- Taps ---------------------------------------------------------------------------

  // The cards of a query string, if they are a play of this deck (as the server reads them).
  const parse = (text) => Rules.parseCards(text);

  // --- A page kept offline, opened for another hand or contract -----------------------

  // The contract the address names, as far as it names one the page knows (as the server
  // reads it): each of the three, or null.
  function addressContract(params) {
    const taker = params.get("taker") || "";
    const bid = params.get("bid") || "";
    const trump = params.get("trump") || "";
    const trumps = new Set(Object.keys(data.contracts).map((key) => key.slice(1)));
    return {
      taker: /^\d$/.test(taker) && Number(taker) < data.names.length ? Number(taker) : null,
      bid: /^\d$/.test(bid) && bid in data.outcomes_by_bid ? Number(bid) : null,
      trump: trumps.has(trump) ? trump : null,
    };
  }

  // The page's hand becomes ``number``: its heading, the dealer (the deal passes left).
  function renumber(number) {
    if (number === data.number) return;
    const title = say(data.title, { number });
    const heading = document.querySelector("#play h1");
    if (heading) heading.textContent = title;
    document.title = title;
    data.dealer = Rules.dealerOf(number - data.number, data.dealer);
    data.number = number;
    data.renumbered = true;
  }

  // The page's contract becomes this one: its words, its outcomes, the save form's fields.
  function recontract(contract) {
    const name = data.names[contract.taker];
    Object.assign(data, contract);
    data.contract = say(data.contracts[`${contract.bid}${contract.trump}`], { name });
    data.outcomes = data.outcomes_by_bid[String(contract.bid)].map((line) => say(line, { name }));
    const form = document.getElementById("play-save-form").content.querySelector("form");
    const values = {
      number: data.number,
      dealer: data.dealer,
      taker: data.taker,
      bid: data.bid,
      trump: data.trump,
      token: Rules.newToken(),
    };
    for (const [field, value] of Object.entries(values)) {
      const input = form.querySelector(`input[name="${field}"]`);
      if (input) input.value = String(value);
    }
    // Another hand than the page's is a new one: added to the game.
    if (data.renumbered) form.setAttribute("action", data.add);
  }

  // No contract in the address: the server's form asks for it, sent to this same address
  // (offline, the service worker answers it with this page again).
  function choose(chosen, played) {
    const root = document.getElementById("play");
    const anchor = document.getElementById("play-save-form");
    const template = document.getElementById("play-choice");
    if (!root || !anchor || !template) return;
    const part = template.content.cloneNode(true);
    const form = part.querySelector("form");
    form.setAttribute("action", window.location.pathname);
    for (const name of ["hx-get", "hx-target", "hx-replace-url"]) form.removeAttribute(name);
    for (const [name, value] of Object.entries(chosen)) {
      if (value === null) continue;
      const input = form.querySelector(`input[name="${name}"][value="${CSS.escape(String(value))}"]`);
      if (input) input.checked = true;
    }
    if (played && played.length) {
      form.querySelector("button[type=submit]").before(
        element("input", { type: "hidden", name: "cards", value: played.join(",") }));
    }
    while (anchor.nextSibling) anchor.nextSibling.remove();
    root.append(part);
  }

  function start(fromAddress) {
    const source = document.getElementById("play-data");
    if (!source) {
      data = null;
      return;
    }
    data = JSON.parse(source.textContent);
    data.labels = {};
    data.names_of = {};
    data.order = data.deck.map(([code, label, name]) => {
      data.labels[code] = label;
      data.names_of[code] = name;
      return code;
    });
    cards = data.cards;
    if (!fromAddress) {
      render(false);
      return;
    }
    // Back in history, or a page kept by the service worker: the address tells the play.
    const params = new URLSearchParams(window.location.search);
    const path = PLAY_PATH.exec(window.location.pathname);
    const number = path ? Number(path[1]) : data.number;
    const contract = addressContract(params);
    const played = parse(params.get("cards") || "");
    renumber(number);
    if (Object.values(contract).some((value) => value === null)) {
      data = null; // nothing to tap until the contract is chosen
      choose(contract, played);
      return;
    }
    const same = ["taker", "bid", "trump"].every((name) => contract[name] === data[name]);
    if (same && !data.renumbered) {
      cards = played || cards;
    } else {
      recontract(contract);
      cards = played || [];
    }
    // The hand form's other fields (sent to the server, which would go to this address).
    if ([...params.keys()].some((name) => !QUERY.includes(name))) {
      history.replaceState(history.state, "", query(cards));
    }
    render(false);
  }

  // A key tapped from the keyboard leaves the focus on the deck, on the next key still
  // to play (or on the take-back link again), not lost with the key redrawn.
  function go(played, focused) {
    const keys = [...document.querySelectorAll("#play .deck .key")];
    const at = focused && focused.matches(".key") ? keys.indexOf(focused) : -1;
    const wasBack = focused && focused.matches("[data-take-back]");
    cards = played;
    history.replaceState(history.state, "", query(cards));
    render(true);
    let next = null;
    if (at >= 0) {
      const redrawn = [...document.querySelectorAll("#play .deck .key")];
      next = redrawn.slice(at).find((key) => key.matches("a")) || redrawn.find((key) => key.matches("a"));
    } else if (wasBack) {
      next = document.querySelector("#play [data-take-back]");
    }
    if (next) next.focus({ preventScroll: true });
  }

  document.addEventListener("click", (event) => {
    if (!data || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const key = target && target.closest("#play a.key[data-card]");
    const back = target && target.closest("#play a[data-take-back]");
    if (!key && !back) return;
    // Before htmx, which would ask the server: the capture phase runs first.
    event.preventDefault();
    event.stopPropagation();
    const focused = document.activeElement === (key || back) ? key || back : null;
    if (key && !cards.includes(key.dataset.card) && cards.length < SEATS * TRICKS) {
      go([...cards, key.dataset.card], focused);
    } else if (back && cards.length) {
      go(cards.slice(0, -1), focused);
    }
  }, true);

  // The play swapped in by htmx once its contract is chosen, or restored from history.
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.target && event.detail.target.id === "play") start(false);
  });
  document.addEventListener("htmx:historyRestore", () => start(true));

  start(true);
})();
