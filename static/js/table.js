// Progressive enhancement for the hand form: the tricks add up to the hand's six
// (data-tricks), so the rows that sum decides are filled in as the others are tapped,
// exactly as the engine's fill_tricks does on the server when the form is sent without
// JavaScript: once the tapped rows make six, the others are 0; with one row left, it is
// what the others leave. The rule is static/js/rules.js's (fillTricks), which the pages
// with a hand form load (the game page once loaded: a tap before leaves the filling to the
// server); tests/js checks it against the engine, and a browser test the form.
// The rows filled in are marked (data-auto) and sent in the form's "auto" field, so that a
// form the server refused comes back with the same marks: it fills on from the taps alone.
document.addEventListener("change", (event) => {
  const fieldset = event.target.closest("fieldset.tricks");
  if (!fieldset || !globalThis.BoulmousRules) return;
  const rows = [...fieldset.querySelectorAll(".trick-row")];
  event.target.closest(".trick-row").dataset.auto = "";
  const tapped = (row) => !row.dataset.auto && row.querySelector("input:checked");
  const counts = rows.map((row) => (tapped(row) ? Number(tapped(row).value) : null));
  const filled = globalThis.BoulmousRules.fillTricks(counts, Number(fieldset.dataset.tricks));
  rows.forEach((row, seat) => {
    if (counts[seat] !== null) return;
    row.querySelectorAll("input").forEach((input) => { input.checked = false; });
    const input = filled[seat] === null ? null : row.querySelector(`input[value="${filled[seat]}"]`);
    if (input) input.checked = true;
    row.dataset.auto = input ? "1" : "";
  });
  const auto = fieldset.form && fieldset.form.elements.namedItem("auto");
  if (auto instanceof HTMLInputElement) {
    auto.value = rows.map((row, seat) => (row.dataset.auto ? seat : "")).join("");
  }
});

// A night's check-in: its count follows the players ticked, tap after tap (the server drew
// it, and its words for each count it may reach in the page's language: data-present-counts).
document.addEventListener("change", (event) => {
  const list = event.target.closest("#check-in .check-list");
  const counter = list && document.querySelector("[data-present-counts]");
  if (!counter) return;
  const words = JSON.parse(counter.dataset.presentCounts);
  const ticked = list.querySelectorAll("input:checked").length;
  counter.textContent = words[Math.min(ticked, words.length - 1)];
});

// New game: the first-dealer choices take the names as they are typed.
document.addEventListener("input", (event) => {
  const match = /^id_player_(\d)$/.exec(event.target.id);
  const choice = match && document.querySelector(`input[name="first_dealer"][value="${match[1]}"] + span`);
  if (!choice) return;
  choice.dataset.seat ??= choice.textContent;
  choice.textContent = event.target.value.trim() || choice.dataset.seat;
});

// The settlement sheet's Print button.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});

// A result's Share button (issue 22.3, templates/share_button.html), shown once this runs
// (:root[data-can-share]): the Web Share API where the phone has it, else the text and its
// link copied, and said so (or shown, to copy by hand, where copying is refused).
document.documentElement.dataset.canShare = "";
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-share]");
  if (!button) return;
  const text = button.dataset.share;
  const url = location.origin + location.pathname; // the page's own address, as og:url
  let said = button.nextElementSibling;
  if (!said?.matches("output")) button.after((said = document.createElement("output")));
  if (navigator.share) {
    try {
      await navigator.share({ text, url });
      return;
    } catch (error) {
      if (error.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(`${text} ${url}`);
    said.textContent = button.dataset.copied;
  } catch {
    said.textContent = `${text} ${url}`;
  }
});

// The game page's forms (data-swap: the id of the part they redraw) are sent in place: one
// request, whose answer is swapped in; without JavaScript, a plain POST the server
// redirects. Our own code, not htmx: 0.5 KB where htmx was 14.6 KB of a scorer's 38.9 KB first
// visit (issue 20's aim: 30 KB). The request says so as htmx did (HX-Request, which
// django-htmx reads); the server may redraw another part (HX-Retarget: a refused hand form
// redraws #entry alone). 2xx, 409 and 422 are swapped in; another answer, no connection or
// none in 15 s is a failure. A GET (card by card) is a plain navigation. Events, on document:
// "boulmous:before-save", "boulmous:save-failed" {data sent, response (null with none),
// timeout}, "boulmous:after-save", each with {form}; "boulmous:swapped" {target}.
(() => {
  const tell = (name, detail) => document.dispatchEvent(new CustomEvent(`boulmous:${name}`, { detail }));
  const sending = new WeakSet();
  globalThis.BoulmousSwap = (target, html) => {
    target.innerHTML = html;
    // What screen readers say: in #announce, which stays in place.
    const said = target.querySelector("template[data-announce]");
    const announce = document.getElementById("announce");
    if (said && announce) announce.textContent = said.content.textContent;
    said?.remove();
    tell("swapped", { target });
  };
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    const submitter = event.submitter;
    const target = document.getElementById(form.dataset.swap);
    const method = submitter?.getAttribute("formmethod") || form.getAttribute("method") || "";
    if (!target || event.defaultPrevented || method.toLowerCase() !== "post") return;
    event.preventDefault();
    if (sending.has(form)) return;
    const data = [...new FormData(form, submitter)];
    const save = form.querySelector("button.save");
    sending.add(form);
    if (save) save.disabled = true;
    tell("before-save", { form });
    let response = null;
    let html = null;
    let timeout = false;
    try {
      response = await fetch(submitter?.getAttribute("formaction") || form.getAttribute("action"), {
        method: "POST",
        body: new URLSearchParams(data),
        headers: { "HX-Request": "true", "HX-Target": target.id, "HX-Current-URL": location.href },
        credentials: "same-origin",
        signal: AbortSignal.timeout(15000),
      });
      const status = response.status;
      if (status !== 204 && (status < 400 || status === 409 || status === 422)) html = await response.text();
    } catch (error) {
      response = null;
      timeout = error.name === "TimeoutError";
    }
    sending.delete(form);
    if (save) save.disabled = false;
    if (html !== null) {
      const retarget = response.headers.get("HX-Retarget");
      const into = (retarget && document.querySelector(retarget)) || target;
      globalThis.BoulmousSwap(into, html);
      settled(into);
    } else if (response?.status !== 204) {
      tell("save-failed", { form, data, response, timeout });
    }
    tell("after-save", { form });
  });

  // After the game is swapped in place: what needs reading first (an error, a notice) is
  // brought into view and focused; otherwise the page is back at the top, the new totals
  // in view, and focus is on the new hand's first control (or the winner).
  function settled(target) {
    const message = target.querySelector("[data-focus]");
    if (message) {
      // The form stays on one screen: from the top, scrolled only as far as the message
      // needs to be seen whole.
      window.scrollTo(0, 0);
      message.scrollIntoView({ block: "nearest" });
      message.focus({ preventScroll: true });
      return;
    }
    window.scrollTo(0, 0);
    const first = target.querySelector("#entry input[name=taker], .winner h1");
    if (first && first.matches("h1")) first.tabIndex = -1;
    if (first) first.focus({ preventScroll: true });
  }
})();

// A save that fails (the server's error, no connection, a timeout) keeps everything
// tapped, says so, and offers to send the same form again: its token records it once.
// A 403 that says why (the phone may no longer score the game) is offline.js's to answer:
// no "try again", which could never work.
document.addEventListener("boulmous:save-failed", ({ detail: { form, response } }) => {
  if (!form.matches("form.hand") || response?.headers.get("X-Boulmous-Refused")) return;
  const box = form.querySelector(".save-failed");
  box.textContent = form.dataset[response ? "failedServer" : "failedNetwork"];
  box.hidden = false;
  form.querySelector("button.save").textContent = form.dataset.retry;
  box.scrollIntoView({ block: "center" });
});

// The phone's time zone, for the server to show the times of a game outside a club in
// (scoring/common/clock.py): kept in the "tz" cookie, written again only when it changed.
(() => {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return;
  }
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone)) return;
  if (document.cookie.split("; ").includes(`tz=${zone}`)) return;
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax${secure}`;
})();

// Code with nothing to do while the page loads (static/js/offline.js: the service worker
// and the queue of hands saved offline; static/js/live.js, whose first ask waits 1.5 s; on
// the game page, the rules they and the tricks' filling use): fetched once the page has
// loaded, from its <meta name="later-script"> (base.html), and run in their order. A first
// visit downloads first what draws the page and sends a hand; the service worker keeps
// these for offline as the rest.
function loadLater() {
  document.querySelectorAll('meta[name="later-script"]').forEach((meta) => {
    const script = document.createElement("script");
    script.src = meta.content;
    script.async = false;
    document.head.append(script);
  });
}
if (document.readyState === "complete") loadLater();
else window.addEventListener("load", loadLater, { once: true });

// The screen stays on while this phone scores a game in play (a hand form, #entry, on a
// game not over), through the Screen Wake Lock API where the browser has it: asked again
// when the page is seen again (the browser lets it go when hidden), let go when the game
// ends, the form goes, or the page is hidden. The toggle beside the form (.keep-awake,
// shown where the API is) turns it off, remembered on this phone in localStorage.
(() => {
  if (!("wakeLock" in navigator)) return;
  const KEY = "boulmous-keep-awake";
  let lock = null;
  let asking = false;
  let chosen = null; // as ticked on this page, should localStorage refuse to keep it
  const remembered = () => {
    try {
      return (chosen ?? localStorage.getItem(KEY)) !== "off";
    } catch {
      return chosen !== "off";
    }
  };
  const wanted = () =>
    !document.hidden && remembered() && document.getElementById("entry")
    && document.getElementById("board") && !document.getElementById("board").hasAttribute("data-over");

  function release() {
    const held = lock;
    lock = null;
    if (held) held.release().catch(() => {});
  }

  async function update() {
    const scoring = Boolean(document.getElementById("entry"));
    document.querySelectorAll(".keep-awake").forEach((toggle) => {
      toggle.hidden = !scoring;
      const box = toggle.querySelector("[data-wake-lock]");
      if (box) box.checked = remembered();
    });
    if (!wanted()) {
      release();
      return;
    }
    if (lock || asking) return;
    asking = true;
    try {
      const got = await navigator.wakeLock.request("screen");
      got.addEventListener("release", () => {
        if (lock === got) lock = null;
      });
      lock = got;
    } catch {
      lock = null; // refused (no battery to spare, a policy): the screen does as it would
    } finally {
      asking = false;
    }
    if (!wanted()) release();
  }

  document.addEventListener("change", (event) => {
    if (!event.target.matches("[data-wake-lock]")) return;
    chosen = event.target.checked ? "on" : "off";
    try {
      localStorage.setItem(KEY, chosen);
    } catch {
      // Not remembered: this page still does as ticked.
    }
    update();
  });
  document.addEventListener("visibilitychange", update);
  document.addEventListener("boulmous:swapped", update);
  document.addEventListener("boulmous:live", update);
  window.addEventListener("pagehide", release);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();

// A page drawn again with a refused form (a plain post's answer) puts each error beside
// its field, which may be far down a phone's screen (the members page's "Add a player"):
// the first error is brought into view, and its field (or a message marked data-focus)
// focused. A page that already placed the focus, or whose address names a part (#…), is
// left as it is.
(() => {
  function showFirstError() {
    if (location.hash || (document.activeElement && document.activeElement !== document.body)) return;
    const error = document.querySelector(
      'main [data-focus], main [aria-invalid="true"], main [role="alert"]:is(.errors, .field-errors, .error)',
    );
    if (!error) return;
    const field = error.matches("input, select, textarea, [data-focus]")
      ? error
      : error.closest(".field")?.querySelector("input:not([type=hidden]), select, textarea");
    const box = error.closest(".field") || error;
    const { top, bottom } = box.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) box.scrollIntoView({ block: "center" });
    if (field) field.focus({ preventScroll: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showFirstError);
  else showFirstError();
})();

// A form that makes something carries a one-time token (scoring/common/once.py), so that
// sent again it makes nothing more. A phone that comes Back to such a form may draw it
// anew, with a new token, rather than restore it: the token sent is kept for the page's
// address, and put back when the page is reached by Back or Forward (never when it is
// opened anew, which is for making another).
(() => {
  const key = () => `once:${location.pathname}`;
  document.addEventListener(
    "submit",
    (event) => {
      const once = event.target.querySelector('input[name="once"]');
      try {
        if (once) sessionStorage.setItem(key(), once.value);
      } catch {} // storage refused (private mode): the form is sent as it is
    },
    true,
  );
  function restore() {
    const reached = performance.getEntriesByType("navigation")[0]?.type;
    const once = document.querySelectorAll('input[name="once"]');
    if (reached !== "back_forward" || once.length !== 1) return;
    try {
      const sent = sessionStorage.getItem(key());
      if (sent) once[0].value = sent;
    } catch {}
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();
