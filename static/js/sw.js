// The service worker (issue 13), served at /sw.js by scoring/views/app.py after a
// preamble that defines VERSION (this deploy's), SHELL (the hashed static files every
// page links) and OFFLINE_PAGE (the page a navigation gets offline when no copy is kept).
//
// It keeps the app's shell, and the pages of the games this phone scores as they are
// visited, network first: online, every page comes from the server as before; offline,
// the copy last seen. It never touches a POST (the hand queue is offline.js's, in
// IndexedDB), an htmx request (but one, below), or another site's address.
//
// A game's card-by-card page is kept too, once per hand, whatever its query (the
// contract and the cards played): offline, any address of that hand gets its copy, and
// a hand never visited the newest copy of the game's, which static/js/play.js sets up
// again for the hand and contract its address names. The game page's "Or record the
// play card by card" is a navigation to that address; the play page's contract form asks
// htmx for it, and offline, htmx is told to go there.
/* global VERSION, SHELL, OFFLINE_PAGE */

const SHELL_CACHE = `boulmous-shell-${VERSION}`;
const PAGES_CACHE = "boulmous-pages-1";
const KEPT = [SHELL_CACHE, PAGES_CACHE];

// The pages kept as they are visited: a game's page (only when its page says this phone
// scores it), its card-by-card pages, and the rules.
const GAME_PAGE = /^\/games\/[^/]+\/$/;
const RULES_PAGE = /^\/rules$/;
// A hand's card-by-card page (scoring/views/referee.py play_hand): the game, the hand.
const PLAY_PAGE = /^\/games\/([^/]+)\/hands\/\d+\/play$/;
// What a card-by-card page is kept for: the play's data for static/js/play.js. Only a
// phone that scores the game is shown the page (others get a 403), and only a page with a
// play is kept (not the contract's form alone, nor a page of errors).
const PLAY_MARK = 'id="play-data"';
// Its query, as the server reads it: the hand form's other fields are dropped on the way.
const PLAY_QUERY = ["taker", "bid", "trump", "cards"];
// When a copy was kept, to find a game's newest card-by-card page.
const KEPT_AT = "X-Boulmous-Kept-At";
// The page it marks a game this phone scores with (base.html's #offline-strings).
const SCORER_MARK = "data-offline-scorer";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("boulmous-") && !KEPT.includes(name))
          .map((name) => caches.delete(name)),
      ))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SHELL.includes(url.pathname)) {
    event.respondWith(fromShell(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (PLAY_PAGE.test(url.pathname) && request.headers.get("HX-Request")
    && !request.headers.get("HX-History-Restore-Request")) {
    event.respondWith(playByHtmx(request, url));
  }
});

// A hashed static file never changes: the cached copy, else the network.
async function fromShell(request) {
  const cached = await caches.match(request, { cacheName: SHELL_CACHE });
  return cached || fetch(request);
}

// A page: the network's answer, kept if it is a page to keep; offline, the kept copy
// (a game's, a hand's card-by-card page, the rules'), else the offline page.
async function page(event, url) {
  const play = PLAY_PAGE.test(url.pathname);
  const keep = play || GAME_PAGE.test(url.pathname) || RULES_PAGE.test(url.pathname);
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const cached = keep && await (play ? keptPlay(url) : kept(url));
    // As the server does, the hand form's address is sent on to the play's own.
    const address = play && playAddress(url);
    if (cached && address && address !== url.pathname + url.search) {
      return Response.redirect(address, 302);
    }
    return cached || offlinePage();
  }
  // The hand form's address for the play is sent on to the play's own (same page).
  const here = !response.redirected || (play && new URL(response.url).pathname === url.pathname);
  if (keep && response.ok && here) {
    // The page is answered at once; its copy is written meanwhile.
    event.waitUntil(response.clone().text().then((text) => store(url, response, text)));
  }
  return response;
}

// A page asks for its game's copy to be renewed after a change made in place (a save
// swapped in, a live update): a reload offline then shows the game as it was last seen.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "refresh") return;
  const url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !GAME_PAGE.test(url.pathname)) return;
  event.waitUntil(
    fetch(url.pathname, { credentials: "same-origin" })
      .then((response) => (response.ok && !response.redirected
        ? response.text().then((text) => store(url, response, text))
        : null))
      .catch(() => {}),
  );
});

async function store(url, response, text) {
  const cache = await caches.open(PAGES_CACHE);
  if (GAME_PAGE.test(url.pathname) && !text.includes(SCORER_MARK)) {
    // A game this phone only watches is not kept, nor its card-by-card pages.
    await cache.delete(keyOf(url));
    for (const request of await playsOf(cache, url.pathname.split("/")[2])) {
      await cache.delete(request);
    }
    return;
  }
  if (PLAY_PAGE.test(url.pathname) && !text.includes(PLAY_MARK)) return;
  const headers = new Headers(response.headers);
  headers.delete("Set-Cookie");
  headers.set(KEPT_AT, String(Date.now()));
  await cache.put(keyOf(url), new Response(text, { status: 200, headers }));
}

// A page is kept under its address without the query (the rules' ?game= included).
function keyOf(url) {
  return new Request(url.origin + url.pathname);
}

async function kept(url) {
  const cache = await caches.open(PAGES_CACHE);
  return cache.match(keyOf(url), { ignoreVary: true });
}

// The game's card-by-card pages kept on this phone.
async function playsOf(cache, game) {
  return (await cache.keys()).filter((request) => {
    const match = PLAY_PAGE.exec(new URL(request.url).pathname);
    return match && match[1] === game;
  });
}

// A card-by-card page offline: this hand's copy, else the game's newest (play.js sets it
// up for the hand and contract of the address).
async function keptPlay(url) {
  const own = await kept(url);
  if (own) return own;
  const cache = await caches.open(PAGES_CACHE);
  let newest = null;
  let newestAt = -1;
  for (const request of await playsOf(cache, PLAY_PAGE.exec(url.pathname)[1])) {
    const response = await cache.match(request, { ignoreVary: true });
    const at = Number(response && response.headers.get(KEPT_AT)) || 0;
    if (response && at > newestAt) {
      newest = response;
      newestAt = at;
    }
  }
  return newest;
}

// htmx asks for a card-by-card page from the play page's contract form. Offline, with a
// copy to show, htmx is told to go to the address itself: the navigation gets the copy
// (page() above).
async function playByHtmx(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    if (!await keptPlay(url)) return Response.error();
    return new Response("", { status: 200, headers: { "HX-Redirect": playAddress(url) } });
  }
}

// A card-by-card page's own address: its path, and the query the play is read from
// (scoring/views/referee.py play_hand redirects there too).
function playAddress(url) {
  const query = new URLSearchParams();
  for (const name of PLAY_QUERY) {
    const values = url.searchParams.getAll(name);
    if (values.length) query.set(name, values[values.length - 1]);
  }
  const search = query.toString();
  return url.pathname + (search ? `?${search}` : "");
}

// The offline page, listing the games kept on this phone (their pages' titles).
async function offlinePage() {
  const cache = await caches.open(PAGES_CACHE);
  const items = [];
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (!GAME_PAGE.test(url.pathname)) continue;
    const text = await (await cache.match(request)).text();
    const title = (/<title>([^<]*)<\/title>/.exec(text) || [null, url.pathname])[1];
    items.push(`<li><a href="${url.pathname}">${title}</a></li>`);
  }
  let html = OFFLINE_PAGE;
  if (items.length) {
    html = html.replace("<h2 hidden>", "<h2>")
      .replace('<ul class="offline-kept"></ul>', `<ul class="offline-kept">${items.join("")}</ul>`);
  }
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; base-uri 'none'; object-src 'none'",
    },
  });
}
