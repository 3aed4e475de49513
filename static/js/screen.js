// The room's screen of an event (templates/clubs/event_screen.html; issue 41, item 6).
//
// It turns the panels by itself, one every data-turn ms, and follows the event as a game
// page follows its game (static/js/live.js): it asks #screen's data-live every 1.5 s with
// the version it shows as If-None-Match, gets a 304 while nothing changed, and otherwise
// the panels drawn anew, which replace its own. It stays on the panel it showed when that
// panel is still there; a round newly published goes straight to its seats. Failures (no
// connection, a server restarting) are retried, less and less often (30 s at most), with a
// notice on the screen until it is back: it reconnects by itself.
(() => {
  const room = document.getElementById("screen");
  if (!room || !room.dataset.live) return;

  const ASK = 1500;
  const LONGEST = 30000;
  const TURN = Number(room.dataset.turn) || 10000;
  const status = document.getElementById("screen-status");
  let failures = 0;
  let turner = null;

  const panelsBox = () => document.getElementById("screen-panels");
  const panels = () => Array.from(room.querySelectorAll(".screen-panel"));
  const version = () => (panelsBox() ? panelsBox().dataset.version || "" : "");
  const shownIndex = () => Math.max(0, panels().findIndex((panel) => !panel.hidden));

  function show(index) {
    const all = panels();
    if (!all.length) return;
    const chosen = ((index % all.length) + all.length) % all.length;
    all.forEach((panel, at) => {
      panel.hidden = at !== chosen;
    });
  }

  function restartTurns() {
    clearInterval(turner);
    turner = setInterval(() => show(shownIndex() + 1), TURN);
  }

  function draw(text) {
    const fresh = new DOMParser().parseFromString(text, "text/html").getElementById("screen-panels");
    const old = panelsBox();
    if (!fresh || !old) return;
    const wasRound = old.dataset.round;
    const wasShown = panels()[shownIndex()];
    const wasKey = wasShown ? wasShown.dataset.panel : "";
    old.replaceWith(document.adoptNode(fresh));
    const all = panels();
    let index = 0;
    if (fresh.dataset.round && fresh.dataset.round !== wasRound) {
      index = Math.max(0, all.findIndex((panel) => panel.dataset.kind === "seats"));
      restartTurns();
    } else {
      index = Math.max(0, all.findIndex((panel) => panel.dataset.panel === wasKey));
    }
    show(index);
    room.dataset.version = fresh.dataset.version || "";
  }

  function lost(yes) {
    if (!status) return;
    status.textContent = yes ? status.dataset.lost || "" : "";
    status.hidden = !yes;
  }

  async function ask() {
    const sent = version();
    try {
      const response = await fetch(room.dataset.live, {
        headers: sent ? { "If-None-Match": `"${sent}"` } : {},
        cache: "no-store",
        credentials: "same-origin",
      });
      if (response.status === 200) {
        draw(await response.text());
      } else if (response.status !== 304) {
        throw new Error(`status ${response.status}`);
      }
      failures = 0;
      lost(false);
    } catch {
      failures += 1;
      if (failures > 1) lost(true);
    }
    const wait = failures ? Math.min(LONGEST, ASK * 2 ** failures) : ASK;
    setTimeout(ask, wait);
  }

  restartTurns();
  setTimeout(ask, ASK);
})();
