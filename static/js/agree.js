// A seat holder's confirmations (of a hand, or of a correction proposed), signatures and
// disputes made offline (issue 40.5): kept in the phone's queue, the IndexedDB store
// where static/js/offline.js keeps the hands saved offline (entries of kind "agreement",
// in the same order; offline.js leaves them to this script), shown as waiting on the
// game's page, and sent once back online, each exactly once: every entry carries its
// own token, which the server keeps with what it wrote (Confirmation.token,
// Dispute.token), so that a replay whose first answer was lost writes nothing more,
// whatever changed since (a correction's confirmation replayed finds it done). Refused
// (a hand changed since: 409 with the reason), the entry is kept as a notice with the
// server's words, and the page is drawn again, showing the hand as it now stands to
// confirm again.
//
// A classic script: in a page it runs; under Node (tests/js/agree.test.mjs) it gives its
// pure part, module.exports.
((root, queue) => {
  if (typeof module === "object" && module && module.exports) {
    module.exports = queue;
    return;
  }
  root.BoulmousAgree = queue;
  queue.run(root);
})(globalThis, (() => {
  "use strict";

  const KIND = "agreement";
  const AGREE = /^\/games\/([^/]+)\/(?:hands\/(\d+)\/(?:confirm|proposal\/confirm)|dispute|sign)$/;

  // The game and hand a form's address writes to, or null for another address.
  function agreementOf(action, origin, fields) {
    const address = new URL(action, origin);
    const match = AGREE.exec(address.pathname);
    if (!match || address.origin !== origin) return null;
    const typed = fields.find(([name]) => name === "number");
    const number = match[2] ? Number(match[2]) : typed ? Number(typed[1]) || null : null;
    return { game: match[1], action: address.pathname, number };
  }

  // What became of an entry sent: "sent" (written, or found written: a replay), "refused"
  // (the server will never take it as it is: a hand changed, a seat lost, a form it cannot
  // read), or "later" (no answer, the server's trouble: sent again later).
  function outcome(status) {
    if (status >= 200 && status < 300) return "sent";
    if ([400, 403, 404, 409, 422].includes(status)) return "refused";
    return "later";
  }

  // The queued entries sent in order, each once: ``send`` posts one and gives {status,
  // answer} (it throws with no network); ``store`` drops one sent, or keeps one refused
  // with the server's words. Stops at the first that must wait. Whether any changed.
  async function replay(entries, send, store) {
    let changed = false;
    for (const entry of entries.filter((each) => each.kind === KIND && each.state === "queued")) {
      let answered;
      try {
        answered = await send(entry);
      } catch (error) {
        break; // no network after all
      }
      const became = outcome(answered.status);
      if (became === "later") break;
      if (became === "sent") await store.drop(entry);
      else await store.keep({ ...entry, state: "refused", message: answered.answer?.message || "" });
      changed = true;
    }
    return changed;
  }

  function newToken() {
    if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // --- In a page ---------------------------------------------------------------------

  function run(window) {
    const { document, navigator, indexedDB, location } = window;
    const DB_NAME = "boulmous-offline"; // offline.js's
    const STORE = "hands";
    let opened = null;
    let entries = [];
    let flushing = false;

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
    async function read() {
      const all = await transact("readonly", (store) => store.getAll());
      entries = (all || []).filter((entry) => entry.kind === KIND).sort((a, b) => a.id - b.id);
      return entries;
    }
    const store = {
      drop: (entry) => transact("readwrite", (each) => each.delete(entry.id)),
      keep: (entry) => transact("readwrite", (each) => each.put(entry)),
    };

    const pageGame = () => (/^\/games\/([^/]+)\/$/.exec(location.pathname) || [])[1] || null;
    const words = () => document.querySelector("section.agreement")?.dataset ?? {};
    const csrf = () => {
      try {
        return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
      } catch (error) {
        return "";
      }
    };

    function render() {
      document.querySelectorAll(".agree-queued, .agree-refused").forEach((element) => element.remove());
      const game = pageGame();
      const place = document.querySelector("section.agreement");
      if (!game || !place) return;
      for (const entry of entries.filter((each) => each.game === game)) {
        const line = document.createElement("p");
        line.dataset.agreeId = String(entry.id);
        if (entry.state === "queued") {
          line.className = "agree-queued notice";
          line.setAttribute("role", "status");
          line.textContent = (words().agreeQueued || "{what}").replace("{what}", entry.what);
        } else {
          line.className = "agree-refused notice";
          line.setAttribute("role", "alert");
          line.textContent = `${entry.what}: ${entry.message} `;
          const button = document.createElement("button");
          button.type = "button";
          button.className = "button small";
          button.dataset.agreeDrop = String(entry.id);
          button.textContent = words().agreeDismiss || "OK";
          line.append(button);
        }
        place.prepend(line);
      }
    }

    async function send(entry) {
      const response = await fetch(entry.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrf() },
        body: new URLSearchParams(entry.fields),
      });
      const json = /json/.test(response.headers.get("Content-Type"));
      return { status: response.status, answer: json ? await response.json() : null };
    }

    async function flush() {
      if (flushing || !navigator.onLine) return;
      flushing = true;
      try {
        const changed = await replay(await read(), send, store);
        await read();
        render();
        // The game as it now stands: a confirmation gone through, or a hand changed since.
        if (changed && pageGame()) location.reload();
      } catch (error) {
        // The queue could not be read: tried again later.
      } finally {
        flushing = false;
      }
    }

    // Offline, or while this game's earlier ones wait: kept in the queue, not sent.
    document.addEventListener("submit", async (event) => {
      const form = event.target;
      if (!(form instanceof window.HTMLFormElement) || (form.method || "").toLowerCase() !== "post") return;
      const fields = [...new FormData(form, event.submitter)]
        .filter(([name, value]) => name !== "csrfmiddlewaretoken" && typeof value === "string");
      const where = agreementOf(form.getAttribute("action") || location.href, location.origin, fields);
      if (!where) return;
      const waiting = entries.some((entry) => entry.game === where.game && entry.state === "queued");
      if (navigator.onLine && !waiting) return;
      event.preventDefault();
      if (!form.reportValidity()) return;
      const what = (event.submitter || form.querySelector("[type=submit]"))?.textContent.trim() || "";
      const summary = form.closest("details")?.querySelector("summary")?.textContent.trim();
      await store.keep({
        ...where,
        kind: KIND,
        what: summary || what,
        fields: [...fields, ["token", newToken()]],
        queuedAt: new Date().toISOString(),
        state: "queued",
      });
      form.closest("details")?.removeAttribute("open");
      form.querySelector("button[type=submit]")?.setAttribute("disabled", "");
      await read();
      render();
      flush();
    }, true);

    document.addEventListener("click", async (event) => {
      const button = event.target.closest?.("[data-agree-drop]");
      if (!button) return;
      await store.drop({ id: Number(button.dataset.agreeDrop) });
      await read();
      render();
    });

    document.addEventListener("boulmous:swapped", render);
    document.addEventListener("boulmous:live", render);
    window.addEventListener("online", flush);
    window.setInterval(flush, 15000);
    read().then(render).then(flush).catch(() => {});
  }

  return { KIND, agreementOf, outcome, replay, newToken, run };
})());
