{% load static %}// The service worker of the trick-entry page (referee/table/offline.py): deal pages and static files are
// cached as they are fetched and served from the cache only when the network fails or takes over 5 s. Writes
// are never touched: the page's journal (static/js/journal.js) keeps them until the server has answered.
"use strict";
var CACHE = "referee-offline-1";
var STATIC = "{% get_static_prefix %}";
var FILES = [{% for f in files %}"{% static f %}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var DEAL_PAGE = /^\/deal\/\d+\/$/;
var LOGOUT = "{% url 'logout' %}";
var PATIENCE = 5000; // a network this slow to answer is as good as down: the kept copy is served meanwhile

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(FILES.map(function (url) { return cache.add(url).catch(function () {}); }));
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// The page asks for itself to be kept (it was loaded before the worker ran): answered on the port it sends.
self.addEventListener("message", function (event) {
  var path = event.data && event.data.keep;
  var port = event.ports[0];
  if (!path || !DEAL_PAGE.test(path) || !port) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.add(new Request(path, { credentials: "same-origin" }));
  }).then(function () { port.postMessage("kept"); }, function () { port.postMessage("failed"); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method === "POST" && url.pathname === LOGOUT) event.waitUntil(caches.delete(CACHE)); // the judge's pages
  if (request.method !== "GET") return;
  if (url.origin !== self.location.origin) return;
  var page = request.mode === "navigate" && DEAL_PAGE.test(url.pathname);
  if (!page && url.pathname.indexOf(STATIC) !== 0) return;
  event.respondWith(networkFirst(request));
});

// The network's answer (kept for next time); the kept copy when the network fails, or is slower than PATIENCE.
function networkFirst(request) {
  return new Promise(function (resolve) {
    var done = false;
    function give(response) { if (!done && response) { done = true; resolve(response); } }
    function kept() { return caches.match(request, { ignoreVary: true }); }
    var clock = setTimeout(function () { kept().then(give); }, PATIENCE);
    fetch(request).then(function (response) {
      clearTimeout(clock);
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      give(response);
    }, function () {
      clearTimeout(clock);
      kept().then(function (found) { give(found || Response.error()); });
    });
  });
}
