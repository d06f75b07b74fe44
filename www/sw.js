// ptxlab's service worker: keeps every file of one build in a cache, so that after one visit the
// playground, the embed, the docs pages and the JavaScript module (api/ptxlab.js) work with the
// network off. This is a template: scripts/offline.sh writes the build's file list and a hash of
// its contents in place of the two markers below, as dist/sw.js. A new deploy has another hash,
// so the browser installs the new worker, which fills a new cache and deletes the old ones.
// Every path is relative to this file, so dist/ works from any folder of a static server.
'use strict';

const BUILD = '__PTXLAB_BUILD__';
const FILES = __PTXLAB_FILES__;
const PREFIX = 'ptxlab-';
const CACHE = PREFIX + BUILD;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // 'reload': fill the cache from the server, never from the browser's HTTP cache, which may
      // still hold the previous deploy's files under the same names.
      await cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

async function cached(request) {
  const cache = await caches.open(CACHE);
  // The playground keeps its state in the query string (?i=...&a=...), so pages match without it.
  return (await cache.match(request)) || (await cache.match(request, { ignoreSearch: true }));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  if (request.mode === 'navigate') {
    // Pages: the network first, so a new deploy shows at once; the cache when offline.
    event.respondWith(
      fetch(request).catch(async () => (await cached(request)) || Response.error()),
    );
  } else {
    // Files: the cache first (this build's files never change under one hash).
    event.respondWith((async () => (await cached(request)) || fetch(request))());
  }
});
