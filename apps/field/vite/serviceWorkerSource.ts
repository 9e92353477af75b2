/**
 * The text of `/field/sw.js`: precaches the app shell (every file of the build, listed at build
 * time), serves pages network-first with the cached shell as the offline answer, and hashed assets
 * cache-first. `version` changes with the build, so a new build replaces the old cache.
 */
export function serviceWorkerSource(files: readonly string[], version: string): string {
  return `'use strict';
const CACHE = 'intercom-field-${version}';
const SHELL = '/field/';
const PRECACHE = ${JSON.stringify([...new Set(['/field/', ...files])])};

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('intercom-field-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function fromNetwork(request, fallback) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(CACHE);
      await cache.put(request.mode === 'navigate' ? SHELL : request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(fallback);
    if (cached) return cached;
    throw error;
  }
}

async function fromCache(request) {
  const cached = await caches.match(request);
  return cached || fromNetwork(request, request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname !== '/field' && !url.pathname.startsWith('/field/')) return;
  if (request.mode === 'navigate') event.respondWith(fromNetwork(request, SHELL));
  else if (url.pathname.startsWith('/field/assets/')) event.respondWith(fromCache(request));
  else event.respondWith(fromNetwork(request, request));
});
`;
}
