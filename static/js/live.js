// A featured table followed live: ask again every data-refresh seconds (5) with the last ETag; a 304 changes
// nothing, a 200 swaps the fragment in (the server answers X-Live: 1 with the fragment alone).
(function () {
  "use strict";
  var box = document.getElementById("live-table");
  if (!box || !window.fetch) return;
  var seconds = parseInt(box.dataset.refresh, 10) || 5;
  var etag = null;
  function refresh() {
    var headers = {"X-Live": "1"};
    if (etag) headers["If-None-Match"] = etag;
    fetch(window.location.href, {credentials: "same-origin", headers: headers, cache: "no-store"})
      .then(function (r) {
        if (r.status !== 200) return null;
        etag = r.headers.get("ETag");
        return r.text();
      })
      .then(function (html) { if (html) box.innerHTML = html; })
      .catch(function () {});
  }
  setInterval(refresh, seconds * 1000);
})();
