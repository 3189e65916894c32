// The settings form (templates/tournaments/settings.html): the up/down buttons move a tie-break in place
// instead of sending the form, a tie-break can be dragged to its place (HTML5 drag events), and choosing a
// preset takes its settings at once. Without script both buttons send the form, which comes back rearranged.
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
  document.querySelectorAll("[data-reorder]").forEach(function (list) {
    var dragged = null;
    Array.prototype.forEach.call(list.children, function (item) { item.draggable = true; });
    list.addEventListener("dragstart", function (event) {
      dragged = event.target.closest("li");
      if (!dragged) { return; }
      dragged.classList.add("dragging");
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", "");
    });
    list.addEventListener("dragover", function (event) {
      var over = event.target.closest && event.target.closest("li");
      if (!dragged || !over || over.parentNode !== list) { return; }
      event.preventDefault();
      if (over === dragged) { return; }
      var box = over.getBoundingClientRect();
      var below = event.clientY > box.top + box.height / 2;
      list.insertBefore(dragged, below ? over.nextElementSibling : over);
    });
    list.addEventListener("drop", function (event) { if (dragged) { event.preventDefault(); } });
    list.addEventListener("dragend", function () {
      if (dragged) { dragged.classList.remove("dragging"); }
      dragged = null;
    });
  });
  var take = document.querySelector("[data-take-preset]");
  document.querySelectorAll("[data-preset]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (take && radio.form.requestSubmit) { radio.form.requestSubmit(take); }
    });
  });
})();
