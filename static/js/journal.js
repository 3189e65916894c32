// The device's journal of the trick-entry page: every play, undo, kitty and offline winner the judge enters is
// written to this device first (localStorage, one record per deal), with its idempotency key, then sent in
// order. While the server cannot be reached the judge keeps recording and the page counts what waits; a reload,
// a closed tab or a restarted browser sends what is left when the page opens again. The page never judges: the
// server answers each entry (the same key twice is stored once), its state replaces the page's, and an entry it
// refuses stays on the page with its message until the judge sends it again, retypes it or discards it.
// Design: docs/architecture.md, "The device's journal"; the judge's side: docs/judging.md, "The network".
// What the desk stored stays in the journal too (``given``) until the deal is confirmed and then some, so that a
// desk restored from a backup gets it back: the protocol, shared with the load tool, is docs/journal-protocol.md.
(function () {
  "use strict";
  var STORE = "referee-journal:";
  var INSECURE_READ = "referee-insecure-read"; // the judge has read that a reload needs the network here
  var DELAYS = [1000, 2000, 4000, 8000, 15000]; // then every 15 s, and at once when the browser says it is online
  var RETRY_STATUS = { 502: true, 503: true, 504: true };
  var JOURNALED = { play: true, undo: true, undo_trick: true, kitty: true, winner: true };
  var WAIT_FOR_ANSWER = 4000; // the judge's tap waits this long for the server, then goes on (queued)
  var GIVE_UP = 20000; // a request without an answer this long is lost: sent again with its key
  var SEATS = ["N", "W", "S", "E"]; // counter-clockwise, the default play order (rules/seats.py)
  var START = "referee-start:"; // a deal's start as this device posted it (start.js), until its deal page takes it
  var KEEP_CONFIRMED = 6; // confirmed deals whose journals this device keeps for a restored desk (the newest)
  var KEEP_FOR = 24 * 3600 * 1000; // and none older than a day
  var CHECK_EVERY = 30000; // while it holds what it gave, the page asks the desk who it is this often
  var WAIT_FOR_OTHERS = 10; // a given-back entry ahead of the desk waits this many times for another device's

  function newKey() {
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b); // unlike crypto.randomUUID, also on a plain-http club network
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }
  var fmt = window.RefereeSite.fmt, csrf = window.RefereeSite.csrf, el = window.RefereeSite.el; // site.js

  // What the entries make of the server's last state, without judging: the plays go round the table in the
  // trick's order, and a trick's winner is the server's or, offline, the one the judge tapped. Each entry gets
  // the trick it falls in; the answer says who plays next, or which trick's winner the judge must tap first.
  function model(state, entries) {
    var order = state.order && state.order.length === 4 ? state.order : SEATS;
    var tricks = state.tricks.filter(function (t) { return t.plays.length; }).map(function (t) {
      return { seats: t.plays.map(function (p) { return p.seat; }), winner: t.winner, server: !!t.winner };
    });
    var at = [];
    entries.forEach(function (e) {
      var last = tricks[tricks.length - 1];
      if (e.stale) { at.push(Math.max(tricks.length - 1, 0)); return; } // made on a deal no longer there
      if (e.action === "play" && last && last.seats.length === 4 && !last.winner && !e.fields.seat) {
        last.winner = "?"; // a lead sent after the trick before it: its seat is the winner the server names
      }
      if (e.action === "play") {
        if (!last || last.seats.length === 4) tricks.push(last = { seats: [], winner: null });
        last.seats.push(e.fields.seat);
      } else if (e.action === "winner" && tricks[e.fields.trick] && !tricks[e.fields.trick].server) {
        tricks[e.fields.trick].winner = e.fields.seat;
      } else if (e.action === "undo" && last) {
        last.seats.pop();
        last.winner = last.server = null;
        if (!last.seats.length) tricks.pop();
      } else if (e.action === "undo_trick") {
        tricks.pop();
      }
      at.push(Math.max(tricks.length - 1, 0));
    });
    var last = tricks[tricks.length - 1];
    var out = { at: at, trick: tricks.length };
    var unknown = tricks.some(function (t) { return t.winner === "?" || t.seats.indexOf("") >= 0; });
    if (unknown) { // the server's answer to the entry before names who plays: the page waits for it
      out.pending = true;
      if (last && last.seats.length < 4) out.trick = tricks.length - 1;
    } else if (!last) {
      out.seat = state.deal.banker; // the banker leads the first trick
    } else if (last.seats.length < 4) {
      out.seat = order[(order.indexOf(last.seats[last.seats.length - 1]) + 1) % 4];
      out.trick = tricks.length - 1;
    } else if (last.winner) {
      out.seat = last.winner;
    } else {
      out.need = tricks.length - 1;
    }
    return out;
  }

  // The service worker, where the browser allows one (HTTPS or localhost): it keeps this page and its files so
  // the page loads without the network. The page asks it to keep the page now; ``data-offline`` says when done.
  function offline(app) {
    var worker = app.dataset.workerUrl;
    if (!worker || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register(worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { app.dataset.offline = event.data; };
      registration.active.postMessage({ keep: window.location.pathname }, [channel.port2]);
    }).catch(function () {});
  }

  // The journals of confirmed deals beyond the newest ``KEEP_CONFIRMED`` (``extra`` fewer when the storage is
  // full), and any untouched for a day, leave the device; a journal with entries still to send never does.
  function prune(extra) {
    var now = Date.now(), confirmed = [], store = window.localStorage;
    for (var i = store.length - 1; i >= 0; i--) {
      var k = store.key(i);
      if (!k || k.indexOf(STORE) !== 0) continue;
      var r = null;
      try { r = JSON.parse(store.getItem(k)); } catch (e) { r = null; }
      if (!r || (r.entries || []).length) continue;
      if (r.at && now - r.at > KEEP_FOR) store.removeItem(k);
      else if (r.confirmed) confirmed.push({ k: k, at: r.confirmed });
    }
    confirmed.sort(function (a, b) { return b.at - a.at; });
    confirmed.slice(Math.max(KEEP_CONFIRMED - (extra || 0), 0)).forEach(function (c) { store.removeItem(c.k); });
  }

  // One deal's journal. ``getState`` gives the page's state, ``answered(state)`` hands it the server's.
  // ``fieldFree()`` says whether the judge's field is empty: a refusal the judge waited for can then go back into
  // it; otherwise (cards tapped since, or entries behind it) the refused entry stays in the journal.
  function open(app, getState, answered, fieldFree) {
    fieldFree = fieldFree || function () { return true; };
    var deal = JSON.parse(document.getElementById("deal-state").textContent).deal.id;
    var L = JSON.parse(document.getElementById("journal-labels").textContent);
    var url = app.dataset.actionUrl;
    var box = document.getElementById("journal-box");
    var storeKey = STORE + deal;
    var lang = document.documentElement.lang;
    var flying = null; // the key of the entry on its way
    var waiters = {}; // key -> resolve: the entries the judge's tap is still waiting on
    var link = "up";
    var recovered = false; // the network came back and everything that waited is stored
    var lost = false; // the network failed since the journal was last empty
    var tries = 0;
    var timer = null;
    var changed = [];
    var giving = false; // the desk lost what this device gave it: it is being given back (nothing else is sent)
    var unfolded = false; // the judge opened the list of the entries waiting

    function load() {
      var record = null;
      try { record = JSON.parse(window.localStorage.getItem(storeKey)); } catch (e) { record = null; }
      record = record || {};
      // An entry written by an older release has no version at all (this one writes null while it waits for the
      // entry before it): it is replayed as a play only, never as an undo, which the version would have to tie
      // to the deal it was made on (it could take back another device's play after a reopen).
      record.entries = (record.entries || []).filter(function (e) {
        return "version" in e || (e.action !== "undo" && e.action !== "undo_trick");
      });
      record.notices = record.notices || [];
      return record;
    }
    function save(record) {
      try {
        window.localStorage.setItem(storeKey, JSON.stringify(record));
      } catch (e) { // full: the server's state is the one thing that can go (it comes back with the next answer)
        delete record.state; // and the journals of confirmed deals beyond the newest (``prune``)
        prune(1);
        window.localStorage.setItem(storeKey, JSON.stringify(record));
      }
    }
    function update(change) {
      var record = load();
      change(record);
      save(record);
      render();
      return record;
    }
    function keep(state) {
      update(function (r) { r.state = state; r.lang = lang; });
    }

    function unsent() { return load().entries; }
    function insecureRead() {
      try { return window.localStorage.getItem(INSECURE_READ) === "1"; } catch (e) { return false; }
    }
    function settle(answer) { // the judge's taps still waiting are answered: their entries are safe on the device
      Object.keys(waiters).forEach(function (key) { waiters[key](answer); delete waiters[key]; });
    }

    // The server's state as last known: the page's, or another tab's answer when newer.
    function latest() {
      var known = load().state;
      return known && known.deal.version > getState().deal.version ? known : getState();
    }
    // Every entry is sent with the version of the deal it was made against, so a write made on a deal another
    // device has changed since is refused as stale, never applied to the changed deal. An entry made while
    // others waited (``version`` null) was made against the deal as the entry before it leaves it: it takes the
    // version, and for a play whose seat the page could not know (the lead after a trick the server has not yet
    // judged) the seat, from the server's answer to that entry, just before it goes.
    function chained(head) {
      if (head.version != null && head.fields.seat !== "") return head;
      var known = latest();
      var record = update(function (r) {
        var e = r.entries[0];
        if (e.version == null) e.version = known.deal.version;
        if (e.action === "play" && e.fields.seat === "") e.fields.seat = known.next_seat || "";
      });
      return record.entries[0];
    }

    function post(entry) {
      var body = new URLSearchParams(entry.fields);
      body.set("version", entry.version);
      body.set("idempotency_key", entry.key);
      var abort = window.AbortController ? new AbortController() : null;
      var clock = abort && window.setTimeout(function () { abort.abort(); }, GIVE_UP);
      return fetch(url.replace("ACTION", entry.action), {
        method: "POST",
        signal: abort ? abort.signal : undefined,
        headers: { "X-CSRFToken": csrf(), "Accept": "application/json" },
        body: body,
        credentials: "same-origin",
      }).then(function (response) {
        window.clearTimeout(clock);
        if (RETRY_STATUS[response.status]) return null;
        return response.json().then(function (data) { return { status: response.status, data: data }; }, function () {
          var refused = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
          return refused ? { status: response.status, data: { ok: false, message: fmt(L.failed, { status: response.status }) } } : null;
        });
      }, function () { return null; });
    }

    function later() {
      var wait = DELAYS[Math.min(tries, DELAYS.length - 1)];
      tries += 1;
      timer = window.setTimeout(function () { timer = null; drain(); }, wait);
    }

    // Send the first unsent entry, then the next, until none is left, one is refused (the judge decides) or the
    // network fails (then again later, and at once when the browser is back online).
    function drain() {
      if (flying || timer || giving) return;
      var head = unsent()[0];
      if (!head || head.status !== "waiting") {
        settle(queued());
        render();
        return;
      }
      flying = head.key;
      render();
      exclusive(function () { return sendHead(head.key); }).then(function (answer) {
        flying = null;
        if (answer === undefined) { drain(); return; } // another tab of this deal sent it meanwhile
        if (!answer) {
          link = "down";
          lost = true;
          settle(queued());
          render();
          later();
          return;
        }
        var wasDown = link === "down";
        link = "up";
        tries = 0;
        if (!unsent().length) {
          recovered = lost;
          lost = false;
        }
        render();
        var waiter = waiters[head.key];
        delete waiters[head.key];
        if (waiter) waiter({ status: answer.status, data: answer.data, recovered: wasDown, kept: answer.kept });
        drain();
      });
    }

    // Two tabs of one deal take turns (Web Locks, where the browser has them): the head is sent by one of them,
    // and its answer written to the journal before the other looks.
    function exclusive(task) {
      return navigator.locks ? navigator.locks.request(storeKey, task) : task();
    }
    function sendHead(key) {
      var head = unsent()[0];
      if (!head || head.key !== key || head.status !== "waiting") return Promise.resolve(undefined);
      head = chained(head);
      return post(head).then(function (answer) {
        if (answer) answer.kept = written(head, answer, !!waiters[head.key]);
        return answer;
      });
    }
    // The server's answer to the head: its state is the page's; stored (or refused to the judge still at the
    // field, told as before, when nothing waits behind it and the field is free), the entry leaves the journal;
    // otherwise it stays for the judge. The answer says whether it stayed (``kept``).
    function written(head, answer, waited) {
      if ((answer.status === 404 || answer.status === 403) && load().start) { restart(); return true; } // the desk lacks the deal
      if (answer.data.state) { answered(answer.data.state); keep(answer.data.state); }
      var kept = false;
      update(function (r) {
        var i = r.entries.findIndex(function (e) { return e.key === head.key; });
        if (i < 0) return;
        var lost = !answer.data.ok && answer.data.state && lacks(r, answer.data.state);
        if (lost) { // refused by a desk that lost what came before: sent after the give-back, under a new key (the
          kept = true; // refusal is kept under the old one; nothing was written)
          r.entries[i].key = newKey();
          return;
        }
        if (answer.data.ok || (waited && r.entries.length === 1 && fieldFree())) {
          r.entries.splice(i, 1);
          if (answer.data.ok) gave(r, head, answer.data.state);
          if (answer.data.notice) r.notices.push({ trick: head.fields.trick, text: answer.data.notice });
        } else {
          kept = true;
          r.entries[i].status = "refused";
          r.entries[i].message = answer.data.message || "";
          r.entries[i].forceable = !!answer.data.forceable;
          r.entries[i].stale = answer.data.error === "stale"; // made on a deal changed since: sent again only by the judge
        }
      });
      observe(answer.data.state);
      return kept;
    }

    // ---- the give-back (docs/journal-protocol.md). What the desk stored stays here, in order, with its first key
    // and the version it was made on (``given``), with the desk's identity and the newest deal version it named
    // (``desk``, ``told``) and how far the deal went (``seen``). An answer from another desk, or naming an older
    // version, means the desk lost some of it: everything given goes again, in order, with its first keys (what
    // the desk holds answers as the first time, nothing twice; what it lacks is judged as if new), then
    // ``given_back`` says how far the deal had gone (a deal seen submitted or confirmed is submitted again).
    function gave(r, head, state) {
      r.given = r.given || [];
      r.given.push({ key: head.key, action: head.action, fields: head.fields, version: head.version });
      if (state && !lacks(r, state)) told(r, state); // else the give-back is next, from the desk it knew
    }
    function told(r, state) { // the desk named itself and the deal's version: kept, as far as it went
      var same = r.desk === state.desk;
      r.desk = state.desk;
      r.told = same ? Math.max(r.told || 0, state.deal.version) : state.deal.version;
      r.match = state.deal.match;
      r.number = state.deal.number;
      r.seen = state.deal.state;
      r.at = Date.now();
      if (r.seen === "confirmed" && !r.confirmed) r.confirmed = Date.now();
      if (r.seen === "recording") r.confirmed = 0; // reopened: kept again until confirmed
    }
    function lacks(r, state) { // the desk lost what this device was told it stored
      if (!r.desk || !state.desk) return false;
      var gone = state.desk !== r.desk || state.deal.version < (r.told || 0);
      return gone && ((r.given || []).length > 0 || r.seen !== "recording");
    }
    // Every state the desk sends (an answer, the page's, the periodic check): a give-back when it lost something.
    function observe(state) {
      if (!state || !state.deal || !state.desk || giving) return;
      var r = load();
      if (lacks(r, state)) { giveBack(); return; }
      if (!(r.desk === state.desk && r.told === state.deal.version && r.seen === state.deal.state)) {
        update(function (x) { told(x, state); });
      }
      goBack();
    }
    function goBack() { // opened to give this deal back before a newer one (``olderFirst``): back to that one
      var back = new URLSearchParams(window.location.search).get("back");
      if (back && back.charAt(0) === "/" && back.charAt(1) !== "/") window.location.replace(back);
      return !!back;
    }
    function pause(n) {
      return new Promise(function (resolve) { window.setTimeout(resolve, DELAYS[Math.min(n, DELAYS.length - 1)]); });
    }
    function giveBack() {
      giving = true;
      render();
      olderFirst(latest().desk).then(function (away) { if (!away) giveThis(); });
    }
    // This match's older deals that this device holds go back first, oldest first (a deal starts only once the
    // one before it is submitted): the page goes to the oldest (started again when the desk lacks it) and comes
    // back here when it is done (``?back=``).
    function olderFirst(desk) {
      var r = load(), due = [];
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (!k || k.indexOf(STORE) !== 0 || k === storeKey) continue;
        var o = null;
        try { o = JSON.parse(window.localStorage.getItem(k)); } catch (e) { o = null; }
        if (o && o.match === r.match && o.number < r.number && o.desk && o.desk !== desk && ((o.given || []).length || o.seen !== "recording")) {
          due.push({ id: k.slice(STORE.length), record: o });
        }
      }
      due.sort(function (a, b) { return a.record.number - b.record.number; });
      var back = "?back=" + encodeURIComponent(window.location.pathname);
      function next(j) { // the oldest the desk lacks something of: its page (or its start), else none
        if (j >= due.length) return Promise.resolve(false);
        var o = due[j];
        return fetch(app.dataset.stateUrl.replace("/" + deal + "/", "/" + o.id + "/"), {
          credentials: "same-origin", headers: { "Accept": "application/json" },
        }).then(function (response) {
          return response.ok ? response.json() : null;
        }).then(function (s) {
          if (!s || s.deal.match !== o.record.match || s.deal.number !== o.record.number) return restarted(o.id, o.record, back);
          if (!lacks(o.record, s)) return next(j + 1);
          window.location.replace(app.dataset.dealUrl.replace("0", o.id) + back);
          return true;
        }, function () { giving = false; return true; });
      }
      return next(0);
    }
    function giveThis() {
      giving = true;
      var r = load();
      var old = r.desk, seen = r.seen || "recording", list = (r.given || []).slice(), i = 0, waits = 0;
      function step() {
        if (i >= list.length) return finish(0);
        var e = list[i];
        return post(e).then(function (answer) {
          var s = answer && answer.data.state;
          if (!answer) return pause(waits++).then(step); // the network: the same entry again, later
          if (s) { answered(s); keep(s); }
          if (answer.data.ok) { i += 1; waits = 0; return step(); }
          if (answer.data.error === "stale" && s && s.deal.version < e.version && waits < WAIT_FOR_OTHERS) {
            // Another device gives back what comes before it: wait for it. The refusal is kept under the key
            // (nothing was written), so the entry goes again under a new one, which the journal keeps.
            var fresh = newKey();
            update(function (x) { (x.given || []).forEach(function (g) { if (g.key === e.key) g.key = fresh; }); });
            e.key = fresh;
            return pause(waits++).then(step);
          }
          handBack(list.slice(i), answer.data); // the desk holds what this device does not know: the judge decides
          return finish(0);
        });
      }
      function finish(n) {
        var entry = { key: newKey(), action: "given_back", fields: { identity: old, seen: seen }, version: getState().deal.version };
        return post(entry).then(function (answer) {
          if (!answer && n < WAIT_FOR_OTHERS) return pause(n).then(function () { return finish(n + 1); });
          var s = answer && answer.data.state;
          if (s) { answered(s); keep(s); }
          giving = false;
          update(function (x) {
            if (s) told(x, s);
            if (s && s.deal.confirm_again) x.notices.push({ trick: "", text: s.deal.confirm_again });
          });
          if (!goBack()) drain();
        });
      }
      step();
    }
    // The entries from the first the desk refused on: out of ``given``, back to the judge as refused (the first)
    // and held behind it (the rest, each made on the deal as the one before leaves it).
    function handBack(rest, data) {
      update(function (x) {
        var keys = rest.map(function (e) { return e.key; });
        x.given = (x.given || []).filter(function (e) { return keys.indexOf(e.key) < 0; });
        var back = rest.filter(function (e) { return e.action !== "winner"; }).map(function (e, j) {
          var entry = { key: e.key, action: e.action, fields: e.fields, status: "waiting", version: null };
          if (!j) {
            entry.status = "refused";
            entry.version = e.version;
            entry.message = data.message || "";
            entry.stale = data.error === "stale";
          }
          return entry;
        });
        x.entries = back.concat(x.entries);
      });
    }
    // The desk asked who it is and how the deal stands: a deal it no longer has (or holds as another) is started
    // again from the start this device posted (its first key: a desk that has it answers with the same deal).
    function check() {
      if (giving || flying) return;
      fetch(app.dataset.stateUrl, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
        if (response.status === 404 || response.status === 403) return restart();
        if (!response.ok) return null;
        return response.json().then(function (s) {
          var r = load();
          if (r.match && (s.deal.match !== r.match || s.deal.number !== r.number)) return restart();
          var shown = getState();
          if (s.desk !== shown.desk || s.deal.version !== shown.deal.version) { answered(s); keep(s); } // else the page stays as it is
          observe(s);
          return null;
        });
      }).catch(function () {});
    }
    function restart() {
      var r = load();
      if (!r.start || giving) return null;
      giving = true;
      return olderFirst("").then(function (away) { return away || restarted(String(deal), r, ""); });
    }
    // The deal ``id`` (its journal ``r``) started again from its start, under the start's first key; its journal
    // moves to the deal's id at the desk, and the page goes there (the give-back runs there).
    function restarted(id, r, back) {
      if (!r.start) { giving = false; return Promise.resolve(false); }
      var body = new URLSearchParams(r.start.fields);
      body.set("idempotency_key", r.start.key);
      return fetch(app.dataset.startUrl.replace("0", String(r.start.match)), {
        method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf() },
      }).then(function (response) {
        var found = /\/deal\/(\d+)\//.exec(response.url);
        if (!found) { giving = false; return false; }
        if (found[1] !== id) {
          window.localStorage.setItem(STORE + found[1], JSON.stringify(r)); // the desk's identity still the old one
          window.localStorage.removeItem(STORE + id);
        }
        window.location.replace(app.dataset.dealUrl.replace("0", found[1]) + back);
        return true;
      }, function () { giving = false; return true; });
    }
    // A deal's start, as start.js kept it when the judge started the deal, joins the deal's journal.
    function adopt() {
      var params = new URLSearchParams(window.location.search);
      var key = params.get("start");
      if (!key) return;
      var start = null;
      try { start = JSON.parse(window.localStorage.getItem(START + key)); } catch (e) { start = null; }
      if (start) update(function (r) { r.start = start; });
      window.localStorage.removeItem(START + key);
      window.history.replaceState(null, "", window.location.pathname);
    }

    function now() { // the network may be back: try at once
      if (timer) { window.clearTimeout(timer); timer = null; }
      drain();
    }

    function queued() { // safe on the device; said in words only when the network is down (slow: the marks on the table say it)
      return { status: 0, queued: true, message: link === "down" ? L.queued : "", data: { ok: true } };
    }
    function local(message) {
      return Promise.resolve({ status: 400, local: true, data: { ok: false, message: message } });
    }

    // The judge's entry: written to the device, then sent. The answer is the server's when it comes at once
    // (a refusal is then told as before, and the entry leaves the journal: the typed cards are still on the
    // page), else { queued: true } as soon as the entry is safe on the device.
    function submit(action, fields) {
      var record = load();
      var entries = record.entries;
      fields = Object.assign({}, fields || {});
      var idle = !entries.length;
      if (!idle && (action === "undo" || action === "undo_trick")) return takeBack(action, entries);
      var retyping = entries.findIndex(function (e) { return e.status === "retyping" && e.action === action; });
      if (action === "play") {
        var m = model(getState(), retyping >= 0 ? [] : entries);
        // Online, with the trick before it on its way, a lead waits for the server to name who won that trick.
        var sending = !idle && link === "up" && entries.every(function (e) { return e.status === "waiting"; });
        if (m.need !== undefined && !sending) return local(fmt(L.tap_winner, { n: m.need + 1 }));
        if (!idle) fields.seat = retyping >= 0 ? getState().next_seat || "" : m.seat || "";
      }
      // Made on the deal as the server last said it, or (others waiting before it) as the entry before leaves it.
      var first = idle || retyping === 0;
      var entry = { key: newKey(), action: action, fields: fields, status: "waiting", version: first ? latest().deal.version : null };
      recovered = false;
      update(function (r) {
        var i = r.entries.findIndex(function (e) { return e.status === "retyping" && e.action === action; });
        if (i >= 0) r.entries.splice(i, 1, entry); else r.entries.push(entry);
      });
      // The network already down: the judge goes on at once (the entry is safe on the device), and an answer after it
      // returns is the journal's to show, never the field's a moment later. Else a slow network: after a while.
      if (link === "down") {
        var safe = queued();
        now();
        return Promise.resolve(safe);
      }
      var answer = new Promise(function (resolve) { waiters[entry.key] = resolve; });
      window.setTimeout(function () { // a slow network: the judge goes on, the entry is safe on the device
        if (waiters[entry.key]) { waiters[entry.key](queued()); delete waiters[entry.key]; }
      }, WAIT_FOR_ANSWER);
      now();
      return answer;
    }

    // Undo while entries wait: the last one never sent is taken back on the device (a winner tapped after it
    // goes with it); anything further waits until the journal is empty, so an undo never lands on the wrong play.
    function takeBack(action, entries) {
      var last = entries[entries.length - 1];
      var drop = last && last.action === "winner" ? 2 : 1;
      var gone = entries.slice(-drop);
      var ok = action === "undo" && gone.length === drop && gone.every(function (e) {
        return e.status === "waiting" && e.key !== flying && (e.action === "play" || e.action === "winner");
      });
      if (!ok) return local(L.busy);
      update(function (r) { r.entries.splice(r.entries.length - drop, drop); });
      return Promise.resolve(queued());
    }

    // The judge's decision on a refused entry.
    function decide(key, how) {
      update(function (r) {
        var i = r.entries.findIndex(function (e) { return e.key === key; });
        if (i < 0) return;
        var e = r.entries[i];
        if (how === "discard") {
          r.entries.splice(i, 1);
          var next = r.entries[i]; // made on top of the one discarded: it keeps the version that one had
          if (next && next.version == null) next.version = e.version;
        } else if (how === "retype") {
          e.status = "retyping";
          retype(e);
        } else {
          e.key = newKey(); // the old key's answer is the refusal: a decision is a new write
          e.status = "waiting";
          // Refused as stale, it goes again on the deal as it is now, which the page shows: the judge's decision.
          if (e.stale) { e.version = latest().deal.version; e.stale = false; }
          if (how === "force") e.fields.force = "1";
        }
      });
      now();
    }
    function retype(entry) {
      var field = entry.action === "kitty" ? document.querySelector("#kitty-form input[name=kitty]")
        : document.getElementById("cards-input");
      if (!field) return;
      field.value = entry.fields[entry.action === "kitty" ? "kitty" : "cards"] || "";
      field.dispatchEvent(new Event("input", { bubbles: true }));
      field.focus();
    }

    function claimWinner(trick, seat) {
      update(function (r) {
        r.entries.push({ key: newKey(), action: "winner", fields: { trick: String(trick), seat: seat }, status: "waiting" });
      });
      now();
    }

    // ---- what the judge sees: the count, the network, the entries waiting, the winner to tap, the notices.
    function seatName(seat) {
      var s = getState().seats[seat];
      return s ? s.name : "";
    }
    function seatLabel(seat) {
      var s = getState().seats[seat];
      return s ? s.name + " " + s.player : "";
    }
    function faces(text) {
      var known = {};
      getState().picker.forEach(function (row) { row.cards.forEach(function (c) { known[c.code] = c.face; }); });
      return String(text || "").split(/\s+/).map(function (t) { return known[t.toUpperCase()] || t; }).join(" ");
    }
    function describe(e, trick) {
      var n = trick + 1;
      if (e.action === "play") return fmt(L.trick_play, { n: n, seat: seatName(e.fields.seat), cards: faces(e.fields.cards) });
      if (e.action === "winner") return fmt(L.winner_claim, { n: Number(e.fields.trick) + 1, seat: seatName(e.fields.seat) });
      if (e.action === "kitty") return L.kitty + ": " + faces(e.fields.kitty);
      return L[e.action] || e.action;
    }
    function button(text, cls, onClick) {
      var b = el("button", "small " + cls, text);
      b.type = "button";
      b.addEventListener("click", onClick);
      return b;
    }
    function entryRow(e, trick, halted) {
      var li = el("li", "journal-entry status-" + e.status);
      li.dataset.entry = e.key;
      li.appendChild(el("span", "", describe(e, trick)));
      if (e.status === "refused") {
        li.appendChild(el("span", "badge bad", L.refused));
        li.appendChild(el("div", "journal-refusal", e.message));
        var actions = el("div", "violation-actions");
        actions.appendChild(button(e.forceable ? L.force : L.send_again, "primary", function () { decide(e.key, e.forceable ? "force" : "again"); }));
        if (e.action === "play" || e.action === "kitty") actions.appendChild(button(L.retype, "", function () { decide(e.key, "retype"); }));
        actions.appendChild(button(L.discard, "warn", function () { decide(e.key, "discard"); }));
        li.appendChild(actions);
      } else if (e.status === "retyping") {
        li.appendChild(el("span", "muted", " · " + L.retyping));
        li.appendChild(button(L.discard, "warn", function () { decide(e.key, "discard"); }));
      } else if (e.key === flying || halted) {
        li.appendChild(el("span", "muted", " · " + (e.key === flying ? L.sending : L.held)));
      }
      return li;
    }

    function render() {
      var record = load();
      var entries = record.entries;
      var halted = entries.length > 0 && entries[0].status !== "waiting";
      var down = link === "down";
      // The page is on its own (no network, or a refusal holds the rest): it shows who plays next, asks for
      // winners. Online, however slow, the waiting plays are on the table (marked …) and the box stays shut, so
      // nothing above the picker moves while the judge taps.
      var waits = down || halted;
      // A keyboard's user who decided an entry is not sent back to the top of the page when the box is drawn
      // anew: the key stays on the same button of the same entry, else goes to the box's first (or the box).
      var hadFocus = box.contains(document.activeElement);
      var focusedEntry = hadFocus && document.activeElement.closest("[data-entry]");
      var focusedKey = focusedEntry ? focusedEntry.dataset.entry + "|" + document.activeElement.textContent : "";
      box.replaceChildren();
      box.classList.toggle("down", down);
      // One line, the count: the entries themselves are on the table and in the picker's counts (overlay.js), so
      // the rest folds away, open when one is refused (the judge decides) or the judge opens it.
      var fold = el("details", "journal-fold");
      fold.open = unfolded || halted;
      fold.addEventListener("toggle", function () { unfolded = fold.open; });
      var count = el("summary", "journal-count" + (entries.length ? " waiting" : ""), fmt(L.waiting, { n: entries.length }));
      count.dataset.count = entries.length;
      fold.appendChild(count);
      box.appendChild(fold);
      if (down) fold.appendChild(el("p", "journal-down", L.down));
      if ((down || entries.length) && !window.isSecureContext) fold.appendChild(el("p", "journal-insecure", L.insecure));
      if (recovered) box.appendChild(el("p", "journal-recovered", L.recovered));
      if (giving) box.appendChild(el("p", "journal-giving", L.giving_back));
      // Plain http: said once, plainly, when the page opens (before the network goes), until the judge taps OK.
      var warnInsecure = !window.isSecureContext && !insecureRead();
      if (warnInsecure) {
        var note = el("p", "journal-plain-http", L.insecure + " ");
        note.appendChild(button(L.dismiss, "", function () {
          try { window.localStorage.setItem(INSECURE_READ, "1"); } catch (e) { /* full: shown again next time */ }
          render();
        }));
        box.appendChild(note);
      }
      if (entries.length) {
        var m = model(getState(), entries);
        if (m.need !== undefined && waits) {
          var ask = el("div", "journal-winner");
          ask.appendChild(el("p", "", fmt(L.who_won, { n: m.need + 1 })));
          SEATS.forEach(function (seat) {
            var b = button(seatLabel(seat), "", function () { claimWinner(m.need, seat); });
            b.dataset.winner = seat;
            ask.appendChild(b);
          });
          box.appendChild(ask);
        } else if (m.seat && waits) {
          fold.appendChild(el("p", "journal-next", fmt(L.next_seat, { seat: seatLabel(m.seat) })));
        }
        var list = el("ol", "journal-entries");
        entries.forEach(function (e, i) { list.appendChild(entryRow(e, m.at[i], halted && i > 0)); });
        fold.appendChild(list);
      }
      var notices = el("ul", "journal-notices");
      record.notices.forEach(function (n, i) {
        var li = el("li", "journal-notice", n.text + " ");
        li.dataset.trick = n.trick;
        li.appendChild(button(L.dismiss, "", function () { update(function (r) { r.notices.splice(i, 1); }); }));
        notices.appendChild(li);
      });
      if (record.notices.length) box.appendChild(notices);
      // One entry on its way is the page online: shown only once it waits (no box flashing at every play).
      box.hidden = !(waits || recovered || giving || record.notices.length || warnInsecure);
      if (hadFocus && !box.hidden) {
        var same = Array.prototype.find.call(box.querySelectorAll("[data-entry] button"), function (b) {
          return b.closest("[data-entry]").dataset.entry + "|" + b.textContent === focusedKey;
        });
        var next = same || box.querySelector("button, summary");
        if (next) next.focus();
        else { box.tabIndex = -1; box.focus(); }
      } else if (hadFocus) {
        var field = document.getElementById("cards-input");  // nothing left to decide: back to typing the cards
        if (field) field.focus();
      }
      changed.forEach(function (cb) { cb(entries.length, down); });
    }

    // The page's state, or the one the last answer gave when it is newer (a page the worker served from its
    // cache was drawn before the entries sent since).
    function freshest(state) {
      var record = load();
      var stored = record.state;
      if (stored && record.lang === lang && stored.deal.version > state.deal.version && stored.desk === state.desk) return stored;
      keep(state);
      observe(state);
      return state;
    }

    window.addEventListener("online", function () { now(); check(); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
    window.setInterval(function () { // a desk restarted while the network stayed up: asked now and then
      var r = load();
      if (!document.hidden && ((r.given || []).length || r.start) && !r.confirmed) check();
    }, CHECK_EVERY);
    adopt();
    prune(0);
    window.addEventListener("storage", function (event) {
      if (event.key !== storeKey) return;
      var record = load();
      if (record.state && record.lang === lang && record.state.deal.version > getState().deal.version) answered(record.state);
      render();
      now();
    });
    offline(app);

    return {
      takes: function (action) { return !!JOURNALED[action]; },
      submit: submit,
      pending: function () { return unsent().length; },
      entries: unsent, // what the page lays over the server's state (overlay.js)
      onchange: function (cb) { changed.push(cb); },
      freshest: freshest,
      observe: observe, // a state the page got from the desk outside the journal (a submit, say)
      check: check,
      drain: function () { render(); now(); },
    };
  }

  window.RefereeJournal = { open: open, newKey: newKey, model: model };
})();
