// static/js/agree.js's queue (issue 40.5): a seat holder's confirmations and disputes made
// offline, replayed once back online, in order, each exactly once (`node --test tests/js/`).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, test } from "node:test";

const require = createRequire(import.meta.url);
const agree = require("../../static/js/agree.js");

const ORIGIN = "https://boulmous.example";
const entry = (id, number, state = "queued") => ({
  id,
  kind: agree.KIND,
  game: "g1",
  action: `/games/g1/hands/${number}/confirm`,
  number,
  fields: [["version", "1"], ["token", `t${id}`]],
  state,
});

// A store that remembers what was dropped and kept, and a server that answers by entry.
function fakes(answers) {
  const sent = [];
  const dropped = [];
  const kept = [];
  const send = async (one) => {
    sent.push(one.id);
    const answer = answers[one.id] ?? { status: 200, answer: { status: "confirmed" } };
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const store = { drop: async (one) => dropped.push(one.id), keep: async (one) => kept.push(one) };
  return { sent, dropped, kept, send, store };
}

describe("the forms it takes", () => {
  test("a confirmation's address gives its game and hand", () => {
    assert.deepEqual(agree.agreementOf("/games/g1/hands/3/confirm", ORIGIN, [["version", "2"]]), {
      game: "g1",
      action: "/games/g1/hands/3/confirm",
      number: 3,
    });
  });

  test("a correction's confirmation gives its game and hand", () => {
    assert.deepEqual(agree.agreementOf("/games/g1/hands/2/proposal/confirm", ORIGIN, []), {
      game: "g1",
      action: "/games/g1/hands/2/proposal/confirm",
      number: 2,
    });
  });

  test("a dispute's hand is its typed number; a signature has none", () => {
    assert.equal(agree.agreementOf("/games/g1/dispute", ORIGIN, [["number", "4"]]).number, 4);
    assert.equal(agree.agreementOf("/games/g1/sign", ORIGIN, []).number, null);
  });

  test("a hand's form, another site, another page are not its own", () => {
    assert.equal(agree.agreementOf("/games/g1/hands", ORIGIN, []), null);
    assert.equal(agree.agreementOf("https://elsewhere.example/games/g1/sign", ORIGIN, []), null);
    assert.equal(agree.agreementOf("/games/g1/hands/3/edit", ORIGIN, []), null);
  });
});

describe("the replay", () => {
  test("each queued entry is sent once, in order, and dropped once written", async () => {
    const { sent, dropped, kept, send, store } = fakes({});

    const changed = await agree.replay([entry(1, 1), entry(2, 2)], send, store);

    assert.deepEqual([changed, sent, dropped, kept], [true, [1, 2], [1, 2], []]);
  });

  test("a hand changed since is kept refused, with the server's words, and the next is sent", async () => {
    const refused = { status: 409, answer: { status: "refused", message: "Hand 1 was changed" } };
    const { sent, dropped, kept, send, store } = fakes({ 1: refused });

    await agree.replay([entry(1, 1), entry(2, 2)], send, store);

    assert.deepEqual([sent, dropped], [[1, 2], [2]]);
    assert.deepEqual(kept.map((one) => [one.id, one.state, one.message]), [[1, "refused", "Hand 1 was changed"]]);
  });

  test("with no network, or the server's trouble, nothing is dropped and the rest waits", async () => {
    for (const trouble of [new TypeError("Failed to fetch"), { status: 502, answer: null }]) {
      const { sent, dropped, kept, send, store } = fakes({ 1: trouble });

      const changed = await agree.replay([entry(1, 1), entry(2, 2)], send, store);

      assert.deepEqual([changed, sent, dropped, kept], [false, [1], [], []]);
    }
  });

  test("a replay sends the same token: what the server wrote before is not written again", async () => {
    const tokens = [];
    const written = new Set();
    const send = async (one) => {
      const token = one.fields.find(([name]) => name === "token")[1];
      tokens.push(token);
      written.add(token);
      if (tokens.length === 1) throw new TypeError("the answer was lost");
      return { status: 200, answer: { status: "confirmed" } };
    };
    const queue = [entry(1, 1)];
    const store = { drop: async () => queue.pop(), keep: async () => {} };

    await agree.replay(queue, send, store);
    await agree.replay(queue, send, store);

    assert.deepEqual([tokens, written.size, queue.length], [["t1", "t1"], 1, 0]);
  });

  test("drafts, entries refused and a hand's entries are not sent", async () => {
    const { sent, send, store } = fakes({});
    const hand = { ...entry(3, 3), kind: undefined };

    await agree.replay([entry(1, 1, "refused"), hand], send, store);

    assert.deepEqual(sent, []);
  });

  test("every token is new and a UUID", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => agree.newToken()));
    assert.equal(tokens.size, 50);
    for (const token of tokens) assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
