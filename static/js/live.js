// A featured table followed live. On its own page (#live-table) and in the projector's panel ([data-live-src]):
// ask again every data-refresh seconds (5) with the last ETag, so a poll that finds nothing new is a 304 and
// changes nothing; a 200 brings the fragment alone (X-Live: 1), swapped in. The projector replaces its panels
// now and then (static/js/screen.js): a new panel box is filled from the last fragment within a second.
(function () {
  "use strict";
  if (!window.fetch) return;
  var seconds = 5;
  var own = document.getElementById("live-table");
  if (own) {
    seconds = parseInt(own.dataset.refresh, 10) || seconds;
    own.dataset.liveSrc = window.location.pathname;
    own.dataset.stamp = "0";
  }
  var known = {};  // address → {etag, html, stamp}
  function boxes() { return document.querySelectorAll("[data-live-src]"); }
  function fill() {
    var list = boxes();
    for (var i = 0; i < list.length; i++) {
      var got = known[list[i].dataset.liveSrc];
      if (got && list[i].dataset.stamp !== String(got.stamp)) {
        list[i].innerHTML = got.html;
        list[i].dataset.stamp = String(got.stamp);
      }
    }
  }
  function ask(src) {
    var got = known[src] || (known[src] = {etag: null, html: "", stamp: 0});
    var headers = {"X-Live": "1"};
    if (got.etag) headers["If-None-Match"] = got.etag;
    fetch(src, {credentials: "same-origin", headers: headers, cache: "no-store"})
      .then(function (r) {
        if (r.status !== 200) return null;
        got.etag = r.headers.get("ETag");
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        got.html = html;
        got.stamp += 1;
        fill();
      })
      .catch(function () {});
  }
  function poll() {
    var list = boxes(), seen = {};
    for (var i = 0; i < list.length; i++) {
      var src = list[i].dataset.liveSrc;
      if (!seen[src]) { seen[src] = true; ask(src); }
    }
  }
  if (!own) poll();  // the projector's panel starts empty
  setInterval(poll, seconds * 1000);
  setInterval(fill, 1000);
})();
