// The match clock: minutes left before the time limit (no new deal may start after it). Every clock on the page is
// ticked once a second, found afresh each time, so a panel the screen draws anew keeps counting.
(function () {
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      var left = Math.round((new Date(el.dataset.deadline) - new Date()) / 1000);
      if (left <= 0) { el.textContent = "(" + el.dataset.over + ")"; el.classList.add("over"); return; }
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = "(" + m + ":" + (s < 10 ? "0" : "") + s + ")";
      el.classList.remove("over");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
