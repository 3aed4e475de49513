// static/js/rules.js against the engine's answers, tests/data/js-vectors.json (written by
// tests/js/make_vectors.py): `node --test tests/js/`, which `make test` runs (`make jstest`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, test } from "node:test";

const require = createRequire(import.meta.url);
const rules = require("../../static/js/rules.js");
const vectors = JSON.parse(readFileSync(new URL("../data/js-vectors.json", import.meta.url), "utf8"));
const { words } = vectors;

// Each case's name, for a failure to say which it is.
const named = (list, name) => list.map((item, index) => [`${index}: ${name(item)}`, item]);

describe("cards", () => {
  test("the deck, in the engine's order, and its suits", () => {
    assert.deepEqual(rules.DECK, Object.keys(words.cards));
    for (const { suit, partner, red, symbol } of vectors.suits) {
      assert.deepEqual([rules.PARTNERS[suit], rules.isRed(suit), rules.SYMBOLS[suit]], [partner, red, symbol]);
    }
  });

  for (const [name, { trump, orders }] of named(vectors.orders, (item) => item.trump)) {
    test(`card order, ${name}`, () => {
      for (const [suit, order] of Object.entries(orders)) {
        assert.deepEqual(rules.suitOrder(suit, trump), order, suit);
        for (const code of order) assert.equal(rules.effectiveSuit(code, trump), suit, code);
        for (const code of order) assert.equal(rules.isTrump(code, trump), suit === trump, code);
      }
    });
  }

  test("the trick's winner and why, under every trump", () => {
    assert.ok(vectors.tricks.length >= 100);
    for (const [name, { trump, cards, winner, keys, said }] of named(vectors.tricks, (item) => `${item.trump} ${item.cards}`)) {
      assert.equal(rules.trickWinner(cards, trump), winner, name);
      const verdict = rules.explainTrick(cards, trump);
      assert.equal(verdict.winner, winner, name);
      assert.deepEqual([verdict.reason, ...verdict.notes].map((phrase) => phrase.key), keys, name);
      assert.equal(rules.sayVerdict(verdict, words), said, name);
    }
  });

  test("the cards that may be played", () => {
    for (const [name, { trump, hand, led, legal }] of named(vectors.legal, (item) => `${item.trump} ${item.hand} ${item.led}`)) {
      assert.deepEqual(rules.legalCards(hand, led, trump), legal, name);
    }
  });

  test("the cards of a play's address", () => {
    for (const [name, { text, cards }] of named(vectors.parse, (item) => JSON.stringify(item.text))) {
      assert.deepEqual(rules.parseCards(text), cards, name);
    }
  });
});

describe("a hand played card by card", () => {
  test("each trick's winner, who leads, who plays next", () => {
    for (const [name, play] of named(vectors.plays, (item) => `${item.taker} ${item.trump} ${item.cards}`)) {
      const followed = rules.follow(play.taker, play.trump, play.cards);
      assert.deepEqual(followed.tricks.map((trick) => trick.winner), play.winners, name);
      // The taker leads the first trick, each trick's winner the next.
      assert.deepEqual(
        followed.tricks.map((trick) => trick.leader),
        [play.taker, ...play.winners].slice(0, play.winners.length),
        name,
      );
      followed.tricks.forEach((trick, index) => {
        assert.deepEqual(trick.cards, play.cards.slice(index * 4, index * 4 + 4), name);
        assert.equal(rules.mod(trick.leader + trick.index), trick.winner, name);
      });
      assert.deepEqual(
        [followed.current, followed.leader, followed.toPlay, followed.complete],
        [play.current, play.leader, play.to_play, play.complete],
        name,
      );
    }
  });

  test("the tricks won, and the revokes in words", () => {
    const complete = vectors.plays.filter((play) => play.complete);
    assert.ok(complete.filter((play) => play.revokes.length).length >= 8);
    for (const [name, play] of named(complete, (item) => `${item.taker} ${item.trump} ${item.cards}`)) {
      const { tricks } = rules.follow(play.taker, play.trump, play.cards);
      assert.deepEqual(rules.tricksWon(tricks), play.won, name);
      const found = rules.revokes(tricks, play.trump);
      assert.deepEqual(found, play.revokes.map(({ said, ...revoke }) => revoke), name);
      assert.deepEqual(
        found.map((revoke) => rules.capfirst(rules.say(rules.explainRevoke(revoke), words))),
        play.revokes.map((revoke) => revoke.said),
        name,
      );
    }
  });
});

describe("the deal", () => {
  test("the dealer of each hand: the deal passes left", () => {
    for (const { first, index, dealer } of vectors.dealers) {
      assert.equal(rules.dealerOf(index, first), dealer, `${first} ${index}`);
    }
  });

  test("the speaking order: the dealer's left first, the dealer last", () => {
    for (const { dealer, order } of vectors.speaking) {
      assert.deepEqual(rules.speakingOrder(dealer), order);
      assert.deepEqual(rules.seatsFrom(order[0]), order);
    }
  });

  test("a game's dealers, void deals counted, its next dealer and first to speak", () => {
    for (const game of vectors.games) {
      assert.deepEqual(game.void.map((_, index) => rules.dealerOf(index, game.first)), game.dealers);
      const next = rules.dealerOf(game.void.length, game.first);
      assert.deepEqual([next, rules.speakingOrder(next)[0]], [game.next_dealer, game.next_speaker]);
    }
  });
});

describe("tricks won", () => {
  test("the last rows fill in, and the six-tricks rule", () => {
    for (const { counts, filled, decided } of vectors.fill) {
      assert.deepEqual(rules.fillTricks(counts), filled, JSON.stringify(counts));
      assert.equal(rules.tricksDecided(counts), decided, JSON.stringify(counts));
    }
  });

  test("the fill-in never changes a row tapped", () => {
    for (const { counts } of vectors.fill) {
      rules.fillTricks(counts).forEach((count, seat) => {
        if (counts[seat] !== null) assert.equal(count, counts[seat]);
      });
    }
  });
});

describe("tokens", () => {
  const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  test("a new token is a random UUID", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => rules.newToken()));
    assert.equal(tokens.size, 50);
    for (const token of tokens) assert.match(token, UUID4);
  });

  test("without crypto.randomUUID (plain http), from random bytes", () => {
    const bytes = (fill) => ({ getRandomValues: (array) => array.fill(fill) });
    assert.equal(rules.newToken(bytes(0xff)), "ffffffff-ffff-4fff-bfff-ffffffffffff");
    assert.equal(rules.newToken(bytes(0)), "00000000-0000-4000-8000-000000000000");
    assert.match(rules.newToken({ getRandomValues: (array) => globalThis.crypto.getRandomValues(array) }), UUID4);
  });
});

test("in a page, the same module is globalThis.BoulmousRules", () => {
  assert.equal(globalThis.BoulmousRules, rules);
  assert.ok(Object.isFrozen(rules));
});
