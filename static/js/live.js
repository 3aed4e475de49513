// The live view (issue 13): the game page follows changes made on other phones.
//
// It asks #game's data-live every 1.5 s while the page is seen (every 15 s while hidden,
// at once when it is seen again), sending the version it shows (#board's data-version) as
// If-None-Match. Unchanged, the server answers 304 with no body. Changed, it sends the
// fresh #board and #scores, which replace the page's; the hand form being filled (#entry)
// is never replaced: when the game now has another next hand (saved, or undone, on
// another phone), the form is renumbered, its taps kept, and a notice says so. Polling
// stops once the game is over (#board's data-over) or the page is left; failures (no
// connection) are retried later, less and less often, silently. Fresh fragments with no
// next hand's form for a game still playing say that this phone may no longer score it:
// the form is taken away ("boulmous:lost-right" first, {detail: {form}}, for offline.js
// to keep what was tapped).
//
// After drawing fresh fragments it sets #game's data-version and dispatches
// "boulmous:live" on document, {detail: {version}}, for whatever draws into the sheet.
//
// Some changes are written by nobody: a hand, the result's signatures or the settlement
// confirmed by itself when its minutes run out (scoring/engine/confirmation.py). #board's
// data-due says when the next one is (epoch ms); once the phone's clock has passed it (and
// MARGIN more, for a server's clock a little behind), the next ask sends no If-None-Match,
// once for that moment, and draws the fragments as they now are. A game over asks only then.
(() => {
  const game = document.getElementById("game");
  if (!game || !game.dataset.live) return;

  const SEEN = 1500;
  const HIDDEN = 15000;
  const LONGEST = 60000;
  const MARGIN = 2000;
  let timer = null;
  let asking = null;
  let failures = 0;
  let busy = false; // a request of the page's own (a save, static/js/table.js) is on its way
  let left = false;
  let freshFor = 0; // the due moment already asked for anew

  const board = () => document.getElementById("board");
  const version = () => (board() ? board().dataset.version || "" : "");
  const over = () => !board() || board().hasAttribute("data-over");
  const due = () => Number(board() ? board().dataset.due || 0 : 0);
  const pending = () => due() > 0 && due() !== freshFor;
  const stale = () => pending() && Date.now() >= due() + MARGIN;

  function delay() {
    const base = document.hidden ? HIDDEN : SEEN;
    return failures ? Math.min(LONGEST, base * 2 ** failures) : base;
  }

  function schedule(wait) {
    clearTimeout(timer);
    timer = null;
    if (left) return;
    if (!over()) {
      timer = setTimeout(ask, wait);
    } else if (pending()) {
      // A game over asks nothing until its due moment (a minute at most between looks).
      timer = setTimeout(ask, Math.min(LONGEST, Math.max(wait, due() + MARGIN - Date.now())));
    }
  }

  async function ask() {
    timer = null;
    if (left || asking) return;
    if (busy || (over() && !stale())) {
      schedule(delay());
      return;
    }
    const sent = version();
    const dueAsked = stale() ? due() : 0;
    const headers = sent && !dueAsked ? { "If-None-Match": `"${sent}"` } : {};
    asking = new AbortController();
    try {
      const response = await fetch(game.dataset.live, {
        headers,
        cache: "no-store",
        credentials: "same-origin",
        signal: asking.signal,
      });
      if (response.status === 200) {
        const html = await response.text();
        // A save swapped the game in meanwhile: what it drew is as new; ask again.
        if (!busy && version() === sent) draw(html);
      } else if (response.status !== 304) {
        throw new Error(`live: ${response.status}`);
      }
      if (dueAsked) freshFor = dueAsked;
      failures = 0;
    } catch (error) {
      if (left) return;
      failures += 1;
    } finally {
      asking = null;
    }
    schedule(delay());
  }

  function draw(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    const fresh = template.content;
    const newBoard = fresh.getElementById("board");
    const newScores = fresh.getElementById("scores");
    const oldBoard = board();
    const oldScores = document.getElementById("scores");
    if (!newBoard || !newScores || !oldBoard || !oldScores) return;
    const hands = oldBoard.dataset.hands;
    // Hands saved offline, waiting to be sent (offline.js draws them in the sheet, and
    // numbers the form after them): the last one's number.
    const waiting = Math.max(
      0,
      ...[...document.querySelectorAll("tr.pending th")].map((th) => Number(th.textContent) || 0),
    );
    oldBoard.replaceWith(newBoard);
    oldScores.replaceWith(newScores);
    const entry = document.getElementById("entry");
    if (entry && newBoard.hasAttribute("data-over")) {
      entry.remove(); // the game was won or abandoned on another phone: no next hand
    } else if (entry && !fresh.getElementById("next-hand")) {
      // This phone may no longer score the game (its scorer link was revoked): the board
      // says why; offline.js keeps what was tapped as a draft, and the form goes.
      const form = entry.querySelector("form.hand");
      document.dispatchEvent(new CustomEvent("boulmous:lost-right", { detail: { form } }));
      entry.remove();
    } else if (entry) {
      renumber(entry, fresh.getElementById("next-hand"), waiting);
    }
    if (newBoard.dataset.hands !== hands) {
      const last = newBoard.querySelector(".last-hand span");
      const announce = document.getElementById("announce");
      if (last && announce) announce.textContent = last.textContent;
    }
    published(newBoard.dataset.version || "");
  }

  // The form being filled now records the game's next hand: its number, dealer, heading,
  // and auction order follow the fresh form's; every tap stays, each call with its player.
  // While hands saved offline wait to be sent, offline.js numbers the form after them.
  function renumber(entry, next, waiting) {
    const form = entry.querySelector("form.hand");
    const model = next && next.content.querySelector("form.hand");
    if (!form || !model) return;
    const was = Number(form.elements.number.value);
    const now = Number(model.elements.number.value);
    if (was === now || waiting >= now) return;
    const tapped = [...form.elements].some(
      (field) =>
        (field.type === "radio" && field.checked) ||
        (field.tagName === "SELECT" && field.value !== ""),
    );
    const { speakingOrder } = globalThis.BoulmousRules; // the calls' order follows the dealer
    const calls = {};
    speakingOrder(Number(form.elements.dealer.value)).forEach((seat, position) => {
      const field = form.elements[`call_${position}`];
      if (field) calls[seat] = field.value;
    });
    form.elements.number.value = model.elements.number.value;
    form.elements.dealer.value = model.elements.dealer.value;
    const speakers = speakingOrder(Number(form.elements.dealer.value));
    const heading = form.querySelector(".hand-head h1.status");
    const newHeading = model.querySelector(".hand-head h1.status");
    if (heading && newHeading) heading.replaceWith(document.importNode(newHeading, true));
    const auction = form.querySelector("details.calls");
    const newAuction = model.querySelector("details.calls");
    if (auction && newAuction) {
      const copy = document.importNode(newAuction, true);
      copy.open = auction.open;
      auction.replaceWith(copy);
      speakers.forEach((seat, position) => {
        const field = form.elements[`call_${position}`];
        if (field && seat in calls) field.value = calls[seat];
      });
    }
    const play = form.querySelector("button[formaction]");
    const newPlay = model.querySelector("button[formaction]");
    if (play && newPlay) play.setAttribute("formaction", newPlay.getAttribute("formaction"));
    let notice = entry.querySelector(".live-notice");
    const text = now > was ? next.dataset.saved : next.dataset.undone;
    if (!tapped || !text) {
      if (notice) notice.remove();
      return;
    }
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "notice live-notice";
      notice.setAttribute("role", "status");
      entry.prepend(notice);
    }
    notice.textContent = text;
  }

  function published(shown) {
    game.dataset.version = shown;
    document.dispatchEvent(new CustomEvent("boulmous:live", { detail: { version: shown } }));
  }

  // A save (or undo) sent in place (static/js/table.js) swaps the whole game in, with its
  // version: the asks go on from it, and stop if it ended the game.
  document.addEventListener("boulmous:before-save", (event) => {
    if (game.contains(event.detail.form)) busy = true;
  });
  document.addEventListener("boulmous:after-save", () => {
    busy = false;
  });
  document.addEventListener("boulmous:swapped", (event) => {
    if (event.detail.target !== game) return;
    game.dataset.version = version();
    schedule(delay());
  });

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      schedule(delay());
    } else {
      failures = 0;
      schedule(0);
    }
  });
  window.addEventListener("online", () => {
    failures = 0;
    schedule(0);
  });
  window.addEventListener("pagehide", () => {
    left = true;
    clearTimeout(timer);
    if (asking) asking.abort();
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return; // back from the back-forward cache: ask at once
    left = false;
    failures = 0;
    schedule(0);
  });

  game.dataset.version = version();
  schedule(delay());
})();
