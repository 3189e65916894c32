// The table board: fetch the live part (counts and rows) every data-refresh seconds and swap it in, so the
// director sees each table change without a reload or a flash. Paused while the tab is hidden; a click on a
// row opens its match. Without JavaScript the page is a normal page (reload it, or use the filter links).
(function () {
  "use strict";
  var box = document.getElementById("board");
  if (!box || !window.fetch) return;
  var seconds = parseInt(box.dataset.refresh, 10) || 5;
  var timer = null;
  var busy = false;
  function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(box.dataset.rowsUrl, {credentials: "same-origin", cache: "no-store", headers: {Accept: "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) box.innerHTML = html; })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  function start() { if (!timer) timer = setInterval(refresh, seconds * 1000); }
  function stop() { if (timer) { clearInterval(timer); timer = null; } }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { stop(); } else { refresh(); start(); }
  });
  box.addEventListener("click", function (event) {
    if (event.target.closest("a, button")) return;
    var row = event.target.closest("tr[data-href]");
    if (row) window.location.href = row.dataset.href;
  });
  start();
})();
