// The match clock: minutes left before the time limit (no new deal may start after it).
(function () {
  document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
    var deadline = new Date(el.dataset.deadline);
    function tick() {
      var left = Math.round((deadline - new Date()) / 1000);
      if (left <= 0) { el.textContent = "(" + el.dataset.over + ")"; el.classList.add("over"); return; }
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = "(" + m + ":" + (s < 10 ? "0" : "") + s + ")";
    }
    tick();
    setInterval(tick, 1000);
  });
})();
