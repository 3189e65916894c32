// The match clock: minutes left before the time limit (no new deal may start after it). Every clock on the page is
// ticked once a second, found afresh each time, so a panel the screen draws anew keeps counting.
(function () {
  var zh = (document.documentElement.lang || "").indexOf("zh") === 0; // Chinese pages bracket in full width
  var open = zh ? "\uff08" : "(", close = zh ? "\uff09" : ")";
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      var left = Math.round((new Date(el.dataset.deadline) - new Date()) / 1000);
      if (left <= 0) { el.textContent = open + el.dataset.over + close; el.classList.add("over"); return; }
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = open + m + ":" + (s < 10 ? "0" : "") + s + close;
      el.classList.remove("over");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
