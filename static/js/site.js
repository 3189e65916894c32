// Behaviour every page may ask for with an attribute (the Content-Security-Policy allows no inline handler):
// a button with data-print prints the page; a select with data-autosubmit submits its form when changed. And the
// helpers the pages' own scripts share (window.RefereeSite), loaded before them.
(function () {
  "use strict";
  // "%(name)s" in a translated string, filled as Django's interpolate does.
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  window.RefereeSite = { fmt: fmt, csrf: csrf, el: el };

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  // A bar fixed at the foot of the page (the trick entry's record bar) leaves room below the page for itself, so
  // the footer (its four-colour switch) can be scrolled above it and tapped.
  var bar = document.querySelector(".entry-bar");
  if (bar && window.ResizeObserver) {
    new ResizeObserver(function () {
      document.body.style.paddingBottom = bar.offsetHeight ? bar.offsetHeight + "px" : "";
    }).observe(bar);
  }
})();
