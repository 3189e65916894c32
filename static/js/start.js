// The new-deal form's start, kept on this device with its idempotency key until the deal's page takes it into
// the deal's journal (journal.js, ``adopt``): a desk restored from a backup that lacks the deal gets it started
// again from it, under the same key (docs/journal-protocol.md).
(function () {
  "use strict";
  var form = document.querySelector("form[data-start]");
  if (!form) return;
  form.addEventListener("submit", function () {
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "idempotency_key") fields[name] = String(value);
    });
    var key = form.elements.idempotency_key && form.elements.idempotency_key.value;
    if (!key) return;
    try {
      window.localStorage.setItem("referee-start:" + key, JSON.stringify({ key: key, match: Number(form.dataset.start), fields: fields }));
    } catch (e) { /* full: the deal is not given back if the desk loses it, but it starts as ever */ }
  });
})();
