// The settings form (templates/tournaments/settings.html): the up/down buttons move a tie-break in place
// instead of sending the form, and choosing a preset takes its settings at once. Without script both
// buttons send the form, which comes back rearranged.
(function () {
  "use strict";
  document.querySelectorAll("[data-reorder] [data-move]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      event.preventDefault();
      var item = button.closest("li");
      var other = button.dataset.move === "up" ? item.previousElementSibling : item.nextElementSibling;
      if (!other) { return; }
      if (button.dataset.move === "up") { item.parentNode.insertBefore(item, other); }
      else { item.parentNode.insertBefore(other, item); }
      button.focus();
    });
  });
  var take = document.querySelector("[data-take-preset]");
  document.querySelectorAll("[data-preset]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (take && radio.form.requestSubmit) { radio.form.requestSubmit(take); }
    });
  });
})();
