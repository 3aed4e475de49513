// The rules the browser follows on its own, offline too: the engine's (scoring/engine),
// in one module that play.js, offline.js, live.js and table.js share. Pure functions of
// cards, seats and counts, no DOM and no words: a phrase is a template's key and its
// values (cards, suits, seats), said in the page's own words by say().
//
// tests/js/make_vectors.py writes what the engine answers into tests/data/js-vectors.json;
// tests/js/rules.test.mjs (node --test, `make jstest`) checks every answer here against it.
//
// A classic script: in a page it is globalThis.BoulmousRules; under Node, module.exports.
// Cards are written as the engine writes them: a rank 9 T J Q K A, then a suit S H D C.
((root, rules) => {
  root.BoulmousRules = rules;
  if (typeof module === "object" && module && module.exports) module.exports = rules;
})(globalThis, (() => {
  "use strict";

  const SEATS = 4;
  const TRICKS = 6;
  const SUITS = ["S", "H", "D", "C"];
  const RANKS = ["9", "T", "J", "Q", "K", "A"]; // lowest first
  const NO_TRUMP = "NT";
  const TRUMPS = [...SUITS, NO_TRUMP];
  const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const PARTNERS = { S: "C", C: "S", H: "D", D: "H" };
  const RED = new Set(["H", "D"]);
  const DECK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  const KNOWN = new Set(DECK);

  const mod = (n) => ((n % SEATS) + SEATS) % SEATS;
  const rankOf = (code) => code[0];
  const suitOf = (code) => code[1];
  const isRed = (suit) => RED.has(suit);

  // --- Cards (cards.py) ---------------------------------------------------------------

  // Each card's suit in play and its power within that suit: with a trump, its jack is
  // the highest card and the other jack of its colour the second, a trump for every purpose.
  const tables = {};
  function powers(trump) {
    if (tables[trump]) return tables[trump];
    const table = {};
    for (const suit of SUITS) {
      RANKS.forEach((rank, power) => { table[rank + suit] = [suit, power]; });
    }
    if (trump !== NO_TRUMP) {
      table[`J${trump}`] = [trump, 11];
      table[`J${PARTNERS[trump]}`] = [trump, 10];
    }
    tables[trump] = table;
    return table;
  }

  const effectiveSuit = (code, trump) => powers(trump)[code][0];
  const isTrump = (code, trump) => trump !== NO_TRUMP && effectiveSuit(code, trump) === trump;

  // The cards playing as ``suit``, strongest first.
  function suitOrder(suit, trump) {
    const table = powers(trump);
    return DECK.filter((code) => table[code][0] === suit).sort((a, b) => table[b][1] - table[a][1]);
  }

  // The index, in play order, of the card that wins these (one to four) cards: a trump
  // beats the suit led, which beats the rest; then the higher power.
  function trickWinner(cards, trump) {
    const table = powers(trump);
    const led = table[cards[0]][0];
    let best = 0;
    let bestKey = 16; // the suit led, power 0
    cards.forEach((card, index) => {
      const [suit, power] = table[card];
      const key = suit === trump ? 32 + power : suit === led ? 16 + power : -1;
      if (key > bestKey) {
        best = index;
        bestKey = key;
      }
    });
    return best;
  }

  // The cards of ``hand`` that may be played to a trick whose led suit is ``led`` (null for
  // the lead): the suit led when he holds any, else any card.
  function legalCards(hand, led, trump) {
    if (led === null || led === undefined) return [...hand];
    const following = hand.filter((code) => effectiveSuit(code, trump) === led);
    return following.length ? following : [...hand];
  }

  // Cards written one after another, separated by commas or spaces ("JD,AD 10S"), as the
  // server reads a play: null unless every one is a card, and none is there twice.
  function parseCards(text) {
    const codes = String(text).replace(/,/g, " ").split(/\s+/).filter(Boolean)
      .map((code) => code.toUpperCase().replace("10", "T"));
    const known = codes.every((code) => KNOWN.has(code));
    return known && new Set(codes).size === codes.length ? codes : null;
  }

  // --- A hand played card by card (play.py, referee.py) -------------------------------

  // The cards played so far: the taker leads, each trick's winner leads the next.
  function follow(taker, trump, cards) {
    const tricks = [];
    let leader = taker;
    for (let start = 0; start + SEATS <= cards.length; start += SEATS) {
      const trick = cards.slice(start, start + SEATS);
      const index = trickWinner(trick, trump);
      const winner = mod(leader + index);
      tricks.push({ leader, cards: trick, index, winner });
      leader = winner;
    }
    const current = cards.slice(tricks.length * SEATS);
    const complete = tricks.length === TRICKS;
    return {
      tricks,
      current,
      leader,
      complete,
      toPlay: complete ? null : mod(leader + current.length),
    };
  }

  // The tricks each seat won.
  function tricksWon(tricks) {
    const won = Array(SEATS).fill(0);
    tricks.forEach((trick) => { won[trick.winner] += 1; });
    return won;
  }

  // Each player's hand is the six cards he played: one who did not follow the suit led
  // and played a card of that suit later held it, and revoked.
  function revokes(tricks, trump) {
    const cardOf = (trick, seat) => trick.cards[mod(seat - trick.leader)];
    const found = [];
    tricks.forEach((trick, number) => {
      const led = effectiveSuit(trick.cards[0], trump);
      for (let index = 1; index < SEATS; index += 1) {
        const seat = mod(trick.leader + index);
        const card = trick.cards[index];
        if (effectiveSuit(card, trump) === led) continue;
        const held = tricks.slice(number + 1)
          .map((later) => cardOf(later, seat))
          .filter((later) => effectiveSuit(later, trump) === led);
        if (held.length) found.push({ trick: number + 1, seat, card, led, held });
      }
    });
    return found;
  }

  // --- Why, as phrases (referee.py) ---------------------------------------------------

  // Which card wins these cards, and why: explain_trick. The reason's key is one of
  // notrump, plain, jack, jack2, trumps, trump; a note's, belongs.
  function explainTrick(cards, trump) {
    const winner = trickWinner(cards, trump);
    const card = cards[winner];
    const led = effectiveSuit(cards[0], trump);
    const notes = [];
    if (trump !== NO_TRUMP && led !== suitOf(cards[0])) {
      notes.push({ key: "belongs", card: cards[0], suit: led });
    }
    let reason;
    if (trump === NO_TRUMP) {
      reason = { key: "notrump", card, suit: led };
    } else if (!isTrump(card, trump)) {
      reason = { key: "plain", card, suit: led };
    } else if (rankOf(card) === "J") {
      reason = { key: suitOf(card) === trump ? "jack" : "jack2", card, trump };
    } else {
      const trumps = cards.filter((other) => isTrump(other, trump)).length;
      reason = { key: trumps > 1 || led === trump ? "trumps" : "trump", card, trump };
    }
    return { winner, reason, notes };
  }

  // A revoke in words: explain_revoke.
  const explainRevoke = (revoke) => ({
    key: "revoke",
    player: revoke.seat,
    suit: revoke.led,
    trick: revoke.trick,
    card: revoke.card,
    held: revoke.held,
  });

  // The engine's phrases are str.format templates: {card}.
  const format = (template, values) =>
    String(template).replace(/\{(\w+)\}/g, (whole, name) => (values[name] ?? whole));
  const capfirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // A phrase in the page's words: ``words.reasons`` (the templates, by key), ``suits`` (the
  // suits' names), ``cards`` (each card's name), ``labels`` (each card's label: J♦),
  // ``names`` (the players', by seat).
  function say(phrase, words) {
    const values = {};
    if (phrase.card !== undefined) values.card = words.cards[phrase.card];
    if (phrase.suit !== undefined) values.suit = words.suits[phrase.suit];
    if (phrase.trump !== undefined) values.trump = words.suits[phrase.trump];
    if (phrase.player !== undefined) values.player = words.names[phrase.player];
    if (phrase.trick !== undefined) values.trick = String(phrase.trick);
    if (phrase.held !== undefined) values.held = phrase.held.map((code) => words.labels[code]).join(" ");
    return format(words.reasons[phrase.key], values);
  }

  // A trick's verdict as the page says it: the reason, then the notes, each a sentence.
  const sayVerdict = (verdict, words) =>
    [verdict.reason, ...verdict.notes].map((phrase) => capfirst(say(phrase, words))).join(" ");

  // --- The deal (game.py, auction.py) -------------------------------------------------

  // The dealer of hand ``index`` (0-based, void deals counted): the deal passes left. So
  // hand ``n`` is dealt by dealerOf(n - k, d) when hand ``k`` is dealt by ``d``.
  const dealerOf = (index, firstDealer) => mod(firstDealer + index);
  // The seats from ``first``, round the table.
  const seatsFrom = (first) => [0, 1, 2, 3].map((offset) => mod(first + offset));
  // The order they speak in: the dealer's left first, the dealer last.
  const speakingOrder = (dealer) => seatsFrom(mod(dealer + 1));

  // --- Tricks won (hand.py) -----------------------------------------------------------

  // The tricks by seat (null for a row not tapped) with the blanks filled where the six
  // tricks decide them: once the tricks given make six (or more), every blank is 0; with
  // one blank left, it is what the others leave. fill_tricks.
  function fillTricks(counts, total = TRICKS) {
    const given = counts.reduce((sum, count) => sum + (count ?? 0), 0);
    const blanks = counts.filter((count) => count === null).length;
    if (given >= total) return counts.map((count) => count ?? 0);
    if (blanks === 1) return counts.map((count) => count ?? total - given);
    return [...counts];
  }

  // Whether these are tricks won by seat: four whole numbers from 0 to 6 adding up to 6.
  // check_tricks.
  const checkTricks = (counts) => counts.length === SEATS
    && counts.every((count) => Number.isInteger(count) && count >= 0)
    && counts.reduce((sum, count) => sum + count, 0) === TRICKS;

  // The six-tricks rule on a form's rows: what is tapped decides every seat's tricks, as
  // the server fills and checks them.
  const tricksDecided = (counts) => checkTricks(fillTricks(counts));

  // --- Tokens -------------------------------------------------------------------------

  // A new one-time token for a hand's form: the server records a hand once per token.
  function newToken(source = globalThis.crypto) {
    if (source.randomUUID) return source.randomUUID();
    const bytes = source.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  return Object.freeze({
    SEATS,
    TRICKS,
    SUITS,
    RANKS,
    NO_TRUMP,
    TRUMPS,
    SYMBOLS,
    PARTNERS,
    DECK,
    mod,
    rankOf,
    suitOf,
    isRed,
    powers,
    effectiveSuit,
    isTrump,
    suitOrder,
    trickWinner,
    legalCards,
    parseCards,
    follow,
    tricksWon,
    revokes,
    explainTrick,
    explainRevoke,
    format,
    capfirst,
    say,
    sayVerdict,
    dealerOf,
    seatsFrom,
    speakingOrder,
    fillTricks,
    checkTricks,
    tricksDecided,
    newToken,
  });
})());
