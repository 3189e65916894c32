{% load static %}// The service worker of the trick-entry page (referee/table/offline.py): deal pages and static files are
// cached as they are fetched and served from the cache only when the network fails. Writes are never touched:
// the page's journal (static/js/journal.js) keeps them until the server has answered.
"use strict";
var CACHE = "referee-offline-1";
var STATIC = "{% get_static_prefix %}";
var FILES = [{% for f in files %}"{% static f %}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var DEAL_PAGE = /^\/deal\/\d+\/$/;
var LOGOUT = "{% url 'logout' %}";

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
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreVary: true }).then(function (found) { return found || Response.error(); });
  }));
});
