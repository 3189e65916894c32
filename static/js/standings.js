// Live standings: fetch the table again every data-refresh seconds (30) and swap it in (no reload, keeps the
// sort). The server answers a request marked X-Live: 1 with the table alone.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !window.fetch) return;
  var seconds = parseInt(box.dataset.refresh, 10) || 30;
  function refresh() {
    fetch(window.location.href, {credentials: "same-origin", headers: {"X-Live": "1"}, cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) box.innerHTML = html; })
      .catch(function () {});
  }
  setInterval(refresh, seconds * 1000);
})();
