// Calls for the referee. At the table: the "call the referee" form is kept on the device (localStorage) before it
// is sent, and sent again, under the same key, when the network returns: the server answers a key it knows with
// the call already made, so a call is never lost nor made twice. Kept apart from journal.js (the deal's plays),
// it follows the same idea. At the desk: the open calls (the board's strip, the queue) refresh, their waiting
// time ticks, and a new call sounds a short tone (Web Audio, no file) once the director turned the sound on.
(function () {
  "use strict";
  var OUTBOX = "referee-calls";
  var SOUND = "referee-call-sound";
  var retry = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function store(list) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* full or private: sent now only */ }
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function say(text) {
    document.querySelectorAll("[data-call-status]").forEach(function (box) {
      box.textContent = text;
      box.hidden = !text;
    });
  }

  // --- the table: keep, then send ---------------------------------------------------------------------------
  var form = document.querySelector("form[data-call-form]");

  function send(entry) {
    var body = new URLSearchParams(entry.fields);
    return fetch(entry.url, {
      method: "POST", credentials: "same-origin", body: body,
      headers: {"Accept": "application/json", "X-Idempotency-Key": entry.key},
    }).then(function (r) {
      if (r.status === 502 || r.status === 503 || r.status === 504) throw new Error("gateway");
      return r.json().then(function (data) { return {ok: r.ok, data: data}; });
    });
  }

  function flush() {
    var list = load();
    if (!list.length) return;
    var entry = list[0];
    send(entry).then(function (answer) {
      store(load().filter(function (e) { return e.key !== entry.key; }));
      say(answer.data.message || "");
      if (answer.ok && form) {
        var box = form.closest("details");
        if (box) box.open = false;
        document.documentElement.dataset.callSent = entry.key;
      }
      flush();
    }, function () {
      if (form) say(form.dataset.kept);
      if (!retry) retry = setTimeout(function () { retry = null; flush(); }, 15000);
    });
  }

  if (form && window.fetch) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var fields = {};
      new FormData(form).forEach(function (value, name) { fields[name] = value; });
      var keyField = form.querySelector("input[name=idempotency_key]");
      var entry = {url: form.action, fields: fields, key: fields.idempotency_key || newKey()};
      var list = load();
      list.push(entry);
      store(list);
      if (keyField) keyField.value = newKey(); // the next call is a new one
      say(form.dataset.kept);
      flush();
    });
    window.addEventListener("online", flush);
    flush(); // a call kept while the page was closed
  }

  // --- the desk: refresh, tick, sound -----------------------------------------------------------------------
  var audio = null;
  function soundOn() { try { return localStorage.getItem(SOUND) === "on"; } catch (e) { return false; } }
  function context() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctx) audio = new Ctx();
    if (audio && audio.state === "suspended") audio.resume();
    return audio;
  }
  function beep() {
    var root = document.documentElement;
    root.dataset.callBeeps = String((parseInt(root.dataset.callBeeps, 10) || 0) + 1);
    if (!soundOn()) return;
    var ctx = context();
    if (!ctx) return;
    [0, 0.25].forEach(function (start, i) {
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = i ? 660 : 880;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.3, ctx.currentTime + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + 0.2);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + start);
      osc.stop(ctx.currentTime + start + 0.22);
    });
  }
  function label(button) { button.textContent = soundOn() ? button.dataset.off : button.dataset.on; }
  document.querySelectorAll("[data-call-sound]").forEach(function (button) {
    label(button);
    button.addEventListener("click", function () {
      try { localStorage.setItem(SOUND, soundOn() ? "off" : "on"); } catch (e) { /* nothing kept */ }
      if (soundOn()) context();
      document.querySelectorAll("[data-call-sound]").forEach(label);
    });
  });
  if (soundOn()) document.addEventListener("pointerdown", context, {once: true});

  var known = null;
  function openIds() {
    var ids = [];
    document.querySelectorAll("[data-calls]").forEach(function (box) {
      (box.dataset.calls || "").split(" ").forEach(function (id) { if (id) ids.push(id); });
    });
    return ids;
  }
  function check() {
    var ids = openIds();
    if (known !== null && ids.some(function (id) { return known.indexOf(id) < 0; })) beep();
    known = ids;
    tick();
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-since]").forEach(function (el) {
      var minutes = Math.max(0, Math.floor((now - Date.parse(el.dataset.since)) / 60000));
      var text = el.textContent.replace(/\d+/, String(minutes));
      if (text !== el.textContent) el.textContent = text; // unchanged text is left alone (the observer sees writes)
    });
  }
  var watched = document.getElementById("board") || document.getElementById("calls-live");
  if (watched) {
    known = openIds();
    if (known.length) beep(); // calls already waiting when the page opens
    new MutationObserver(check).observe(watched, {childList: true, subtree: true});
    setInterval(tick, 15000);
  }
  var live = document.getElementById("calls-live");
  if (live && window.fetch) {
    var busy = false;
    setInterval(function () {
      if (busy || document.hidden) return;
      busy = true;
      fetch(live.dataset.liveUrl, {credentials: "same-origin", cache: "no-store", headers: {Accept: "text/html"}})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html) live.innerHTML = html; })
        .catch(function () {})
        .then(function () { busy = false; });
    }, (parseInt(live.dataset.refresh, 10) || 5) * 1000);
  }
})();
