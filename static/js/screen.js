// The projector screen: show one panel at a time (every data-cycle seconds, 12), and fetch the panels again every
// data-refresh seconds (15). New panels are swapped in only when the fetch succeeds, with the panel on show kept
// on show, so the screen never flickers and keeps the last good data while the server is out of reach. Loaded
// in <head>: it marks the page before its first paint, so the panels never show stacked first.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var index = 0;
  function start() {
    var box = document.getElementById("screen-live");
    var state = document.getElementById("screen-state");
    if (!box) return;
    var cycle = parseInt(box.dataset.cycle, 10) || 12;
    var refresh = parseInt(box.dataset.refresh, 10) || 15;
    function panels() { return box.querySelectorAll(".panel"); }
    function show(i) {
      var list = panels();
      if (!list.length) return;
      index = (i + list.length) % list.length;
      for (var k = 0; k < list.length; k++) list[k].classList.toggle("active", k === index);
    }
    function offline(lost) {
      if (!state) return;
      state.textContent = lost ? state.dataset.offline : "";
      state.classList.toggle("lost", lost);
    }
    function swap(html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = holder.querySelector("[data-screen-panels]");
      if (!fresh) return false;
      var current = box.querySelector(".panel.active");
      var key = current ? current.dataset.key : null;
      var list = fresh.querySelectorAll(".panel");
      var at = 0;
      for (var k = 0; k < list.length; k++) {
        list[k].classList.remove("active");
        if (list[k].dataset.key === key) at = k;
      }
      if (list.length) list[at].classList.add("active");
      index = at;
      box.replaceChildren(fresh);
      return true;
    }
    function fetchPanels() {
      if (!window.fetch) return;
      fetch(box.dataset.url, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { offline(!(html && swap(html))); })
        .catch(function () { offline(true); });
    }
    setInterval(function () { show(index + 1); }, cycle * 1000);
    setInterval(fetchPanels, refresh * 1000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
