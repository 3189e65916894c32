// The four-colour deck (♠ black, ♥ red, ♣ green, ♦ blue), remembered on this device (localStorage). Loaded in
// the page's head, not deferred, so the class is on <html> before the first paint (no flash of two colours);
// the footer's switch (hidden without a script, since it would do nothing) turns it on and off.
(function () {
  "use strict";
  var KEY = "referee-suits", root = document.documentElement;
  function stored() {
    try { return window.localStorage.getItem(KEY) === "four"; } catch (e) { return false; }
  }
  function apply(on) { root.classList.toggle("four-colour", on); }
  apply(stored());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-deck-switch]");
    if (!button) return;
    function show() { button.setAttribute("aria-pressed", root.classList.contains("four-colour") ? "true" : "false"); }
    button.hidden = false;
    show();
    button.addEventListener("click", function () {
      var on = !root.classList.contains("four-colour");
      apply(on);
      try { window.localStorage.setItem(KEY, on ? "four" : "two"); } catch (e) { /* private mode: this page only */ }
      show();
    });
  });
})();
