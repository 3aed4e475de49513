// A hand entered card by card, followed in the browser: every tap is handled here,
// without a request, so that the page keeps working once it is loaded, offline too.
//
// Without JavaScript each key is a link to the play with one card more, and the server
// (scoring/engine) follows it. Here the same rules are followed on the same query string,
// which is kept in the address bar: a reload shows the server's page for the same play.
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

  const SEATS = 4;
  const TRICKS = 6;
  const SUITS = ["S", "H", "D", "C"];
  const RANKS = ["9", "T", "J", "Q", "K", "A"]; // lowest first
  const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const PARTNERS = { S: "C", C: "S", H: "D", D: "H" };
  const RED = new Set(["H", "D"]);
  const QUERY = ["taker", "bid", "trump", "cards"];
  const PLAY_PATH = /\/hands\/(\d+)\/play$/;
  const mod = (n) => ((n % SEATS) + SEATS) % SEATS;

  // A new one-time token for the save form: the server records a hand once per token.
  function newToken() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // --- The rules (scoring/engine/cards.py, play.py, referee.py) ---------------------------

  const rankOf = (code) => code[0];
  const suitOf = (code) => code[1];

  // A card's suit in play and its power within that suit: with a trump, its jack is the
  // highest card and the other jack of its colour the second, a trump for every purpose.
  function table(trump) {
    const entries = {};
    for (const suit of SUITS) {
      RANKS.forEach((rank, power) => { entries[rank + suit] = [suit, power]; });
    }
    if (trump !== "NT") {
      entries["J" + trump] = [trump, 11];
      entries["J" + PARTNERS[trump]] = [trump, 10];
    }
    return entries;
  }

  // The index, in play order, of the card that wins these cards.
  function trickWinner(cards, powers, trump) {
    const led = powers[cards[0]][0];
    let best = 0;
    let bestKey = [1, 0];
    cards.forEach((card, index) => {
      const [suit, power] = powers[card];
      const key = suit === trump ? [2, power] : suit === led ? [1, power] : null;
      if (key && (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1]))) {
        best = index;
        bestKey = key;
      }
    });
    return best;
  }

  // The cards played so far: the taker leads, each trick's winner leads the next.
  function follow(taker, trump, cards) {
    const powers = table(trump);
    const tricks = [];
    let leader = taker;
    for (let start = 0; start + SEATS <= cards.length; start += SEATS) {
      const trick = cards.slice(start, start + SEATS);
      const index = trickWinner(trick, powers, trump);
      const winner = (leader + index) % SEATS;
      tricks.push({ leader, cards: trick, index, winner });
      leader = winner;
    }
    const current = cards.slice(tricks.length * SEATS);
    const complete = tricks.length === TRICKS;
    return {
      powers,
      tricks,
      current,
      leader,
      complete,
      toPlay: complete ? null : (leader + current.length) % SEATS,
    };
  }

  // Each player's hand is the six cards he played: one who did not follow the suit led
  // and played a card of that suit later held it, and revoked.
  function revokes(play) {
    const cardOf = (trick, seat) => trick.cards[(seat - trick.leader + SEATS) % SEATS];
    const found = [];
    play.tricks.forEach((trick, number) => {
      const led = play.powers[trick.cards[0]][0];
      for (let index = 1; index < SEATS; index += 1) {
        const seat = (trick.leader + index) % SEATS;
        const card = trick.cards[index];
        if (play.powers[card][0] === led) continue;
        const held = play.tricks
          .slice(number + 1)
          .map((later) => cardOf(later, seat))
          .filter((later) => play.powers[later][0] === led);
        if (held.length) found.push({ trick: number + 1, seat, card, led, held });
      }
    });
    return found;
  }

  // --- Words --------------------------------------------------------------------------

  // The engine's phrases are str.format templates ({card}); the page's are %(name)s.
  const phrase = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  const say = (template, values) =>
    template.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? values[name] : whole));
  const capfirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // Why a card wins a trick: scoring/engine/referee.py explain_trick, word for word.
  function reason(data, play, trick) {
    const { reasons, suits } = data;
    const trump = data.trump;
    const card = trick.cards[trick.index];
    const led = play.powers[trick.cards[0]][0];
    const name = (code) => data.names_of[code];
    const isTrump = (code) => trump !== "NT" && play.powers[code][0] === trump;
    let text;
    if (trump === "NT") {
      text = phrase(reasons.notrump, { card: name(card), suit: suits[led] });
    } else if (!isTrump(card)) {
      text = phrase(reasons.plain, { card: name(card), suit: suits[led] });
    } else if (rankOf(card) === "J") {
      const template = suitOf(card) === trump ? reasons.jack : reasons.jack2;
      text = phrase(template, { card: name(card), trump: suits[trump] });
    } else {
      const trumps = trick.cards.filter(isTrump).length;
      const template = trumps > 1 || led === trump ? reasons.trumps : reasons.trump;
      text = phrase(template, { card: name(card), trump: suits[trump] });
    }
    const phrases = [text];
    if (trump !== "NT" && led !== suitOf(trick.cards[0])) {
      phrases.push(phrase(reasons.belongs, { card: name(trick.cards[0]), suit: suits[led] }));
    }
    return phrases.map(capfirst).join(" ");
  }

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

  const cardClass = (code, more = "") => `card${RED.has(suitOf(code)) ? " red" : ""}${more}`;

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
    const play = follow(data.taker, data.trump, cards);
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
        const led = play.powers[play.current[0]][0];
        heading.append(" ", element("small", { class: "muted" }, say(words.led, { suit: SYMBOLS[led] })));
      }
      const table = element("ol", { class: "table-cards" }, ...play.current.map((code, index) =>
        element("li", {},
          element("span", { class: "who" }, data.names[(play.leader + index) % SEATS]),
          element("span", { class: cardClass(code) }, data.labels[code]))));
      parts.push(element("section", { class: "current" }, heading, table));

      const played = new Set(cards);
      const deck = element("section", { class: "deck", "aria-label": words.deck });
      for (const suit of SUITS) {
        const row = element("div", { class: "deck-row" });
        for (const code of data.order.filter((card) => suitOf(card) === suit)) {
          const red = RED.has(suit) ? " red" : "";
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
      const why = reason(data, play, last);
      slot.append(element("section", { class: "verdict", "aria-live": "polite" },
        element("p", {}, element("strong", {}, title), " ", why)));
      said = `${title} ${why}`;
    }
    parts.push(slot);

    if (play.complete) {
      const won = Array(SEATS).fill(0);
      play.tricks.forEach((trick) => { won[trick.winner] += 1; });
      const found = revokes(play).map((revoke) => capfirst(phrase(data.reasons.revoke, {
        player: data.names[revoke.seat],
        suit: data.suits[revoke.led],
        trick: revoke.trick,
        card: data.names_of[revoke.card],
        held: revoke.held.map((code) => data.labels[code]).join(" "),
      })));
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
          element("small", { class: "muted" }, reason(data, play, trick))));
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
  function parse(text) {
    const codes = text.replace(/,/g, " ").split(/\s+/).filter(Boolean)
      .map((code) => code.toUpperCase().replace("10", "T"));
    const known = codes.every((code) => code in data.labels);
    return known && new Set(codes).size === codes.length ? codes : null;
  }

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
    data.dealer = mod(data.dealer + number - data.number);
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
      token: newToken(),
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
