// Behaviour every page may ask for with an attribute (the Content-Security-Policy allows no inline handler):
// a button with data-print prints the page; a select with data-autosubmit submits its form when changed.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
