// Offline (issue 13): the service worker that keeps the app and the games this phone
// scores (static/js/sw.js), and the queue of hands saved without a connection.
//
// A hand saved offline (or whose request fails for want of a network) is kept in
// IndexedDB with its form's fields and token, shown in the sheet as "waiting to send",
// and the form moves on to the next hand. When the connection returns (the online event,
// a page load, every 15 s), the hands are sent in order, each with its own token: the
// server records a hand once per token, and says in JSON what happened. If another phone
// recorded that hand number meanwhile (409), the game's queue stops and the hand is kept
// as a draft: added as the next hand, or thrown away. A hand refused because this phone
// may no longer score the game (a 403 that says why: its scorer link was revoked), online
// or from the queue, is kept as a draft at once, never sent again: copied as text, or
// thrown away; the game is drawn as the phone may now see it (no form, and why). While
// hands wait, the phone tells the server how many (games/<gid>/waiting), so that the
// other phones say so. The words said are the page's (#offline-strings in base.html);
// the rules, static/js/rules.js's (on a scorer's pages).
(() => {
  "use strict";

  const RETRY_MS = 15000;
  const REPORT_MS = 60000; // hands still waiting are told again after this (the server forgets them after 2 min)
  const REFUSED = "X-Boulmous-Refused"; // the 403 of a game write says why (scoring/table/access.py)
  const REFRESH_MS = 400;
  const HANDS = /^\/games\/([^/]+)\/hands$/;
  const GAME_PAGE = /^\/games\/([^/]+)\/$/;

  const Rules = () => globalThis.BoulmousRules;
  const words = () => document.getElementById("offline-strings")?.dataset ?? {};
  const say = (template, values) =>
    (template || "").replace(/\{(\w+)\}/g, (whole, name) => String(values[name] ?? whole));

  // --- The service worker ---------------------------------------------------------

  function register() {
    const worker = words().worker;
    if (!worker || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
    // The first visit's page came before the worker: it is kept once the worker runs.
    navigator.serviceWorker.addEventListener("controllerchange", refreshKeptPage);
  }

  // After the game changed in place, the worker renews its copy of the page.
  let refreshTimer = null;
  function refreshKeptPage() {
    if (!GAME_PAGE.test(location.pathname) || !navigator.onLine) return;
    const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!controller) return;
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      controller.postMessage({ type: "refresh", url: location.pathname });
    }, REFRESH_MS);
  }

  // --- The queue, in IndexedDB ----------------------------------------------------
  // An entry: {id, game, action, number, dealer, fields: [[name, value]...], queuedAt,
  // state: "queued" | "taken" | "refused" | "forbidden", next (the server's next hand, for
  // a draft)}. A "forbidden" draft is never sent: this phone lost the right to score.

  const DB_NAME = "boulmous-offline";
  const STORE = "hands";
  let opened = null;
  let entries = []; // the queue as last read or written, in order

  function database() {
    opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  }

  async function transact(mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const result = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }

  async function readQueue() {
    const all = await transact("readonly", (store) => store.getAll());
    // A seat holder's confirmations and disputes wait here too: static/js/agree.js's.
    entries = (all || []).filter((entry) => !entry.kind).sort((a, b) => a.id - b.id);
    return entries;
  }
  const save = (...changed) => transact("readwrite", (store) => {
    changed.forEach((entry) => store.put(entry));
  }).then(readQueue);
  const drop = (entry) => transact("readwrite", (store) => store.delete(entry.id)).then(readQueue);

  const gameOf = (entry) => entry.game;
  const waiting = (game) => entries.filter((entry) => entry.game === game && entry.state === "queued");
  const drafts = (game) => entries.filter((entry) => entry.game === game && entry.state !== "queued");
  // The drafts that hold the game's queue: all but those this phone may no longer send.
  const holding = (game) => drafts(game).filter((entry) => entry.state !== "forbidden");
  // The hands this phone holds that may still be sent: what it tells the other phones.
  const held = (game) => entries.filter((entry) => entry.game === game && entry.state !== "forbidden");
  const field = (fields, name) => (fields.find(([key]) => key === name) || [])[1];
  function setField(fields, name, value) {
    const kept = fields.filter(([key]) => key !== name);
    return value === null ? kept : [...kept, [name, String(value)]];
  }

  // --- Forms this queue takes: the hand form, and forms marked data-offline-queue ------

  function handsAction(form, submitter) {
    const method = (submitter && submitter.getAttribute("formmethod")) || form.getAttribute("method") || "get";
    if (method.toLowerCase() !== "post") return null;
    const action = new URL(
      (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || location.href,
      location.href,
    );
    const match = HANDS.exec(action.pathname);
    return match && action.origin === location.origin ? { game: match[1], action: action.pathname } : null;
  }
  const queueable = (form) => form instanceof HTMLFormElement
    && (form.matches("form.hand#hand-form") || form.hasAttribute("data-offline-queue"));

  // What the server would refuse at once is not kept: the hand must be complete.
  function complete(fields) {
    if (field(fields, "void")) return true;
    if (!field(fields, "trump") || !(field(fields, "taker") || field(fields, "call_0"))) return false;
    if (field(fields, "plays")) return true;
    const counts = [0, 1, 2, 3].map((seat) => {
      const value = field(fields, `tricks_${seat}`);
      return value === undefined || value === "" ? null : Number(value);
    });
    return Rules().tricksDecided(counts);
  }

  async function keep(form, data, where) {
    const fields = [...data]
      .filter(([name, value]) => name !== "csrfmiddlewaretoken" && typeof value === "string")
      .map(([name, value]) => [name, value]);
    const failed = form.querySelector(".save-failed");
    if (!complete(fields)) {
      if (failed) {
        failed.textContent = words().incomplete;
        failed.hidden = false;
      }
      return;
    }
    const number = Number(field(fields, "number"));
    // The play page's form names no dealer: the game page's form tells it when shown.
    const given = field(fields, "dealer");
    const dealer = given === undefined || given === "" ? null : Number(given);
    const entry = {
      game: where.game,
      action: where.action,
      number,
      dealer,
      fields: setField(fields, "token", field(fields, "token") || Rules().newToken()),
      queuedAt: new Date().toISOString(),
      state: "queued",
    };
    await save(entry);
    if (failed) failed.hidden = true;
    if (navigator.onLine) flush();
    if (form.id === "hand-form") {
      advance(form, number + 1);
      form.querySelector("#entry input[name=taker], input[name=taker]")?.focus({ preventScroll: true });
      window.scrollTo(0, 0);
      render();
    } else {
      location.assign(`/games/${where.game}/`); // the game's page, kept by the worker
    }
  }

  // Offline, or while this game's earlier hands wait: the hand joins the queue.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!queueable(form)) return;
    const where = handsAction(form, event.submitter);
    if (!where) return;
    const label = form.querySelector("button.save");
    if (label && !form.dataset.saveLabel) form.dataset.saveLabel = label.textContent;
    if (navigator.onLine && !waiting(where.game).length && !holding(where.game).length) return;
    event.preventDefault();
    event.stopPropagation(); // table.js does not send it
    keep(form, new FormData(form, event.submitter), where);
  }, true);

  // Online, but this phone may no longer score the game (a 403 that says why): what was
  // sent is kept as a draft, never sent again, and the game is drawn as it may now see it.
  function forbiddenDraft(form, data, where) {
    const fields = data
      .filter(([name, value]) => name !== "csrfmiddlewaretoken" && typeof value === "string")
      .map(([name, value]) => [name, value]);
    const given = field(fields, "dealer");
    return save({
      game: where.game,
      action: where.action,
      number: Number(field(fields, "number")),
      dealer: given === undefined || given === "" ? null : Number(given),
      fields,
      queuedAt: new Date().toISOString(),
      state: "forbidden",
      next: null,
    });
  }
  // A save sent in place that failed (static/js/table.js): with no network (but a timeout,
  // which may have reached the server), the hand is kept too, instead of "try again"; a 403
  // that says why, online, makes what was sent a draft.
  document.addEventListener("boulmous:save-failed", async ({ detail: { form, data, response, timeout } }) => {
    const where = queueable(form) && handsAction(form, null);
    if (!response) {
      if (!where || timeout) return;
      const label = form.querySelector("button.save");
      if (label && form.dataset.saveLabel) label.textContent = form.dataset.saveLabel;
      keep(form, data, where);
      return;
    }
    if (response.status !== 403 || !response.headers.get(REFUSED)) return;
    if (where) await forbiddenDraft(form, data, where);
    const game = pageGame();
    if (game) await showGame(game);
  });
  // The live view found that this phone may no longer score (static/js/live.js, before it
  // takes the form away): what was tapped is kept as such a draft.
  document.addEventListener("boulmous:lost-right", (event) => {
    const form = event.detail && event.detail.form;
    const where = form && handsAction(form, null);
    if (!where || !taps(form)) return;
    forbiddenDraft(form, [...new FormData(form)], where).then(render);
  });

  // --- The hand form, moved on to the next hand -----------------------------------

  function seatNames() {
    const form = document.getElementById("hand-form");
    const fromForm = [0, 1, 2, 3].map((seat) =>
      form?.querySelector(`input[name="taker"][value="${seat}"] + span`)?.textContent.trim());
    if (fromForm.every(Boolean)) return fromForm;
    const heads = [...document.querySelectorAll("table.sheet-table thead th.num")];
    return [0, 1, 2, 3].map((seat) => heads[seat]?.getAttribute("title") || String(seat + 1));
  }

  function advance(form, number) {
    const numberInput = form.querySelector('input[name="number"]');
    const dealerInput = form.querySelector('input[name="dealer"]');
    const tokenInput = form.querySelector('input[name="token"]');
    const was = Number(numberInput.value);
    const dealer = Rules().dealerOf(number - was, Number(dealerInput?.value || 0));
    const speakers = Rules().speakingOrder(dealer);
    numberInput.value = String(number);
    if (dealerInput) dealerInput.value = String(dealer);
    if (tokenInput) tokenInput.value = Rules().newToken();
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach((input) => {
      input.checked = false;
    });
    form.querySelectorAll("select").forEach((select) => { select.selectedIndex = 0; });
    form.querySelectorAll(".trick-row").forEach((row) => { delete row.dataset.auto; });
    form.querySelectorAll(".errors, .field-errors").forEach((error) => error.remove());
    const failed = form.querySelector(".save-failed");
    if (failed) failed.hidden = true;
    const label = form.querySelector("button.save");
    if (label && form.dataset.saveLabel) label.textContent = form.dataset.saveLabel;
    const names = seatNames();
    const strong = form.querySelector(".status strong");
    if (strong) strong.textContent = say(words().hand, { number });
    const line = form.querySelector(".status span");
    if (line) {
      line.textContent = `${say(words().deals, { name: names[dealer] })} · ${say(words().speaks, { name: names[speakers[0]] })}`;
    }
    // The auction's rows are in speaking order: the dealer's left first.
    form.querySelectorAll("label.call").forEach((call, position) => {
      const text = [...call.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
      if (text) text.textContent = `${names[speakers[position]]} `;
    });
    form.querySelectorAll("[formaction]").forEach((button) => {
      const action = button.getAttribute("formaction");
      button.setAttribute("formaction", action.replace(/\/hands\/\d+\/play/, `/hands/${number}/play`));
    });
  }

  // What was tapped in the form, to be tapped again in the form that replaces it.
  function taps(form) {
    if (!form) return null;
    const checked = [...form.querySelectorAll("input[type=radio]:checked, input[type=checkbox]:checked")]
      .map((input) => [input.name, input.value, input.closest(".trick-row")?.dataset.auto || ""]);
    const selects = [...form.querySelectorAll("select")].map((select) => [select.name, select.value]);
    return checked.length || selects.some(([, value]) => value) ? { checked, selects } : null;
  }
  function tapAgain(form, tapped) {
    if (!form || !tapped) return;
    tapped.checked.forEach(([name, value, auto]) => {
      const input = form.querySelector(`input[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
      if (!input) return;
      input.checked = true;
      const row = input.closest(".trick-row");
      if (row && auto) row.dataset.auto = auto;
    });
    tapped.selects.forEach(([name, value]) => {
      const select = form.querySelector(`select[name="${CSS.escape(name)}"]`);
      if (select) select.value = value;
    });
  }

  // --- Showing the queue: rows in the sheet, drafts above the game --------------------

  function pageGame() {
    const match = GAME_PAGE.exec(location.pathname);
    return match ? match[1] : null;
  }

  function contractCell(entry, names) {
    const cell = document.createElement("td");
    cell.className = "contract";
    const fields = entry.fields;
    if (field(fields, "void")) {
      const passed = document.createElement("span");
      passed.className = "muted";
      passed.textContent = words().allPassed;
      cell.append(passed, " ");
    } else {
      const trump = field(fields, "trump");
      const taker = field(fields, "taker");
      const symbol = document.createElement("span");
      if (Rules()?.isRed(trump)) symbol.className = "red";
      symbol.textContent = Rules()?.SYMBOLS[trump] || (trump === "NT" ? words().noTrump : trump);
      cell.append(`${taker ? names[Number(taker)] : ""} ${field(fields, "bid") || ""}`, symbol, " ");
    }
    const mark = document.createElement("span");
    mark.className = "mark waiting";
    mark.textContent = words().waiting;
    const dealt = document.createElement("small");
    dealt.className = "muted dealer";
    const dealer = dealerOf(entry);
    dealt.textContent = dealer === null ? "" : say(words().dealtBy, { name: names[dealer] });
    cell.append(mark, " ", dealt);
    return cell;
  }

  // A hand's dealer: as its form said, or by the rotation from the hand form's.
  function dealerOf(entry) {
    if (entry.dealer !== null && entry.dealer !== undefined) return entry.dealer;
    const form = document.getElementById("hand-form");
    const number = form?.querySelector('input[name="number"]')?.value;
    const dealer = form?.querySelector('input[name="dealer"]')?.value;
    if (!number || dealer === undefined || dealer === "" || !Rules()) return null;
    return Rules().dealerOf(entry.number - Number(number), Number(dealer));
  }

  function pendingRow(entry, names) {
    const row = document.createElement("tr");
    row.className = "pending";
    row.dataset.offlineId = String(entry.id);
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = String(entry.number);
    row.append(head, contractCell(entry, names));
    for (let seat = 0; seat < 4; seat += 1) {
      const cell = document.createElement("td");
      cell.className = "num";
      const tricks = field(entry.fields, `tricks_${seat}`);
      if (!field(entry.fields, "void") && tricks !== undefined && tricks !== "") {
        const small = document.createElement("small");
        small.className = "tricks";
        small.textContent = tricks;
        cell.append(small);
      }
      row.append(cell);
    }
    return row;
  }

  // The sheet's body; a sheet made for the queue when the game has no hand yet.
  function sheetBody(names) {
    const body = document.querySelector("section.sheet table.sheet-table tbody");
    if (body) return body;
    const section = document.querySelector("section.sheet");
    if (!section) return null;
    const wrap = document.createElement("div");
    wrap.className = "table-wrap offline-made";
    const table = document.createElement("table");
    table.className = "sheet-table";
    const head = table.createTHead().insertRow();
    for (const text of ["#", words().contract, ...names]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      if (names.includes(text)) th.className = "num";
      head.append(th);
    }
    table.append(document.createElement("tbody"));
    wrap.append(table);
    (section.querySelector("h2") || section.firstChild)?.after(wrap);
    section.querySelector(":scope > p.muted")?.setAttribute("hidden", "");
    return table.tBodies[0];
  }

  // A draft in one line, to be copied: "Hand 3 · Chafik 3♠ · Amina 1, Bilal 1, Chafik 3,
  // Dalila 1 · dealt by Chafik".
  function draftText(entry, names) {
    const fields = entry.fields;
    const parts = [say(words().hand, { number: entry.number })];
    if (field(fields, "void")) {
      parts.push(words().allPassed);
    } else {
      const trump = field(fields, "trump") || "";
      const taker = field(fields, "taker");
      const symbol = Rules()?.SYMBOLS[trump] || (trump === "NT" ? words().noTrump : trump);
      parts.push(`${taker ? names[Number(taker)] : ""} ${field(fields, "bid") || ""}${symbol}`.trim());
      const tricks = [0, 1, 2, 3]
        .map((seat) => [names[seat], field(fields, `tricks_${seat}`)])
        .filter(([, count]) => count !== undefined && count !== "");
      if (tricks.length) parts.push(tricks.map(([name, count]) => `${name} ${count}`).join(", "));
    }
    const dealer = dealerOf(entry);
    if (dealer !== null) parts.push(say(words().dealtBy, { name: names[dealer] }));
    return parts.join(" · ");
  }

  function draftBox(entry, names) {
    const box = document.createElement("section");
    box.className = "offline-draft notice";
    const forbidden = entry.state === "forbidden";
    // Why this phone may no longer score is the page's one alert (#board's .lost-right).
    box.setAttribute("role", forbidden ? "status" : "alert");
    box.dataset.offlineId = String(entry.id);
    const message = document.createElement("p");
    const taken = entry.state === "taken";
    const said = forbidden ? words().kept : taken ? words().taken : words().refused;
    message.textContent = say(said, { number: entry.number });
    const table = document.createElement("table");
    table.className = "sheet-table";
    const row = pendingRow(entry, names);
    row.className = "draft";
    row.querySelector(".mark.waiting")?.remove();
    table.createTBody().append(row);
    const buttons = document.createElement("p");
    buttons.className = "draft-actions";
    const button = (text, action, primary) => {
      const element = document.createElement("button");
      element.type = "button";
      element.className = primary ? "primary" : "button";
      element.dataset.draft = action;
      element.textContent = text;
      buttons.append(element);
    };
    if (forbidden) button(words().copy, "copy", true);
    else if (taken) button(say(words().addAs, { number: entry.next }), "add", true);
    else if (document.getElementById("hand-form")) button(words().putBack, "put-back", true);
    button(words().throwAway, "throw", false);
    box.append(message, table);
    if (forbidden) {
      const text = document.createElement("p");
      text.className = "draft-text";
      text.textContent = draftText(entry, names);
      box.append(text);
    }
    box.append(buttons);
    return box;
  }

  function banner() {
    const element = document.getElementById("offline-banner");
    if (!element) return;
    const text = !navigator.onLine ? words().offline
      : flushing && entries.some((entry) => entry.state === "queued") ? words().sending : "";
    element.textContent = text;
    element.hidden = !text;
  }

  function render() {
    banner();
    document.querySelectorAll("tr.pending, .offline-draft").forEach((element) => element.remove());
    const game = pageGame();
    if (!game) return;
    const names = seatNames();
    const queued = waiting(game);
    const form = document.getElementById("hand-form");
    const last = Math.max(0, ...queued.map((entry) => entry.number));
    if (form && last && Number(form.querySelector('input[name="number"]').value) <= last) {
      advance(form, last + 1);
    }
    if (queued.length) {
      const body = sheetBody(names);
      queued.forEach((entry) => body?.append(pendingRow(entry, names)));
    } else {
      document.querySelectorAll(".offline-made").forEach((made) => made.remove());
      document.querySelector("section.sheet > p.muted[hidden]")?.removeAttribute("hidden");
    }
    const place = document.getElementById("game");
    drafts(game).forEach((entry) => place?.before(draftBox(entry, names)));
    // One notice per event: a draft says what the live view's notice would say again.
    if (drafts(game).length) document.querySelectorAll(".live-notice").forEach((notice) => notice.remove());
  }

  // --- Sending the queue ------------------------------------------------------------

  function csrfToken(doc) {
    try {
      return JSON.parse(doc.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  let csrf = null;
  // A hand sent, and the server's answer: {status, hand, next_hand, version} (views/table.py).
  async function post(entry) {
    const attempt = () => fetch(entry.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf ?? csrfToken(document) },
      body: new URLSearchParams(entry.fields),
    });
    let response = await attempt();
    if (response.status === 403 && !json(response)) {
      // The page's CSRF token may be a kept page's, older than this phone's cookie: a fresh one.
      const page = await fetch(`/games/${entry.game}/`, { credentials: "same-origin" });
      csrf = csrfToken(new DOMParser().parseFromString(await page.text(), "text/html"));
      response = await attempt();
    }
    return { status: response.status, answer: json(response) ? await response.json() : null };
  }
  const json = (response) => /json/.test(response.headers.get("Content-Type"));

  // The game as the server has it, in place; what is being tapped stays tapped.
  async function showGame(game) {
    const target = document.getElementById("game");
    if (!target || !globalThis.BoulmousSwap) {
      location.reload();
      return;
    }
    const response = await fetch(`/games/${game}/`, {
      credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Target": "game" },
    });
    const html = await response.text();
    if (!response.ok || pageGame() !== game) return;
    const tapped = taps(document.getElementById("hand-form"));
    globalThis.BoulmousSwap(target, html);
    tapAgain(document.getElementById("hand-form"), tapped);
    render();
    refreshKeptPage();
  }

  // How many hands this phone holds for the game, told to the server when it changed, and
  // again while they wait: the other phones' pages say so (scoring/table/waiting.py).
  const reported = new Map(); // game -> {count, at}
  async function tell(game) {
    const count = held(game).length;
    const last = reported.get(game);
    if (last ? last.count === count && (!count || Date.now() - last.at < REPORT_MS) : !count) return;
    const response = await fetch(`/games/${game}/waiting`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf ?? csrfToken(document) },
      body: new URLSearchParams({ count: String(count) }),
    });
    // Refused (no right, or too often): not asked again until the count changes.
    reported.set(game, { count, at: response.ok ? Date.now() : Infinity });
  }

  let flushing = false;
  async function flush() {
    if (flushing || !navigator.onLine) return;
    await readQueue();
    const told = [...new Set([...entries.map(gameOf), ...reported.keys()])];
    if (!entries.some((entry) => entry.state === "queued")) {
      for (const game of told) await tell(game).catch(() => {});
      return;
    }
    flushing = true;
    banner();
    try {
      for (const game of told) {
        let version = null; // the game's, after the last answer
        if (waiting(game).length && !holding(game).length) await tell(game);
        for (const entry of waiting(game)) {
          if (holding(game).length) break; // a draft holds the game's queue
          const { status, answer } = await post(entry);
          if (status >= 200 && status < 300) {
            await drop(entry);
            version = answer?.version || "";
          } else if (status === 409) {
            const next = answer?.status === "conflict" ? answer.next_hand : null;
            const taken = next !== null && next > entry.number;
            await save({ ...entry, state: taken ? "taken" : "refused", next: taken ? next : null });
            version = answer?.version || "";
            break;
          } else if (status === 400 || status === 422) {
            await save({ ...entry, state: "refused", next: null });
            break;
          } else if (status === 403 && answer?.status === "forbidden") {
            // This phone may no longer score the game: its hands are drafts, never sent.
            await save(...waiting(game).map((each) => ({ ...each, state: "forbidden", next: null })));
            version = ""; // drawn again, as this phone may now see it
            break;
          } else {
            break; // the server's trouble: tried again later
          }
        }
        await tell(game);
        // Drawn again, unless the page shows that version already (the live view drew it).
        const shown = document.getElementById("board")?.dataset.version;
        if (version !== null && pageGame() === game && (!version || version !== shown)) await showGame(game);
      }
    } catch (error) {
      // No network after all: tried again later.
    } finally {
      flushing = false;
      render();
    }
  }

  // --- A draft: added as the next hand, thrown away, or put back in the form -------------

  // The game's hands waiting after ``from``, numbered on from ``number``.
  function renumbered(game, after, number) {
    return waiting(game).filter((entry) => entry.id > after.id).map((entry, index) => moved(entry, number + index));
  }
  function moved(entry, number) {
    if (entry.number === number) return entry;
    const was = dealerOf(entry);
    const dealer = was === null ? null : Rules().dealerOf(number - entry.number, was);
    let fields = setField(entry.fields, "number", number);
    if (dealer !== null) fields = setField(fields, "dealer", dealer);
    // The auction was called in the old dealer's order: it does not hold for the new one.
    fields = fields.filter(([name]) => !/^call_\d$/.test(name));
    return { ...entry, number, dealer, fields };
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-draft]");
    const box = button && button.closest(".offline-draft");
    const entry = box && entries.find((each) => String(each.id) === box.dataset.offlineId);
    if (!entry) return;
    const action = button.dataset.draft;
    if (action === "copy") {
      const text = box.querySelector(".draft-text");
      try {
        await navigator.clipboard.writeText(text.textContent);
        button.textContent = words().copied;
      } catch (error) {
        window.getSelection()?.selectAllChildren(text); // to be copied by hand
      }
      return;
    }
    button.disabled = true;
    if (action === "add") {
      const number = entry.next ?? entry.number + 1;
      const added = moved(entry, number);
      added.fields = setField(added.fields, "token", Rules().newToken());
      added.state = "queued";
      added.next = null;
      await save(added, ...renumbered(entry.game, entry, number + 1));
      await flush();
    } else if (action === "throw") {
      await drop(entry);
      if (entry.next) await save(...renumbered(entry.game, entry, entry.next));
      await flush();
      await tell(entry.game).catch(() => {});
    } else if (action === "put-back") {
      const form = document.getElementById("hand-form");
      if (form) {
        advance(form, Number(form.querySelector('input[name="number"]').value));
        tapAgain(form, {
          checked: entry.fields.filter(([name]) => /^(taker|bid|trump|tricks_\d)$/.test(name)).map(([name, value]) => [name, value, ""]),
          selects: entry.fields.filter(([name]) => /^call_\d$/.test(name)),
        });
      }
      await drop(entry);
    }
    render();
  });

  // --- When ------------------------------------------------------------------------

  document.addEventListener("boulmous:swapped", (event) => {
    render();
    if (event.detail.target.id === "game") refreshKeptPage();
  });
  document.addEventListener("boulmous:live", () => {
    render();
    refreshKeptPage();
  });
  window.addEventListener("online", () => {
    banner();
    flush();
  });
  window.addEventListener("offline", banner);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) readQueue().then(render).then(flush);
  });
  setInterval(flush, RETRY_MS);

  register();
  readQueue().then(render).then(flush).catch(() => {});
})();
