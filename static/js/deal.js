// Trick entry: tap cards or type them, post each play, redraw from the server's answer. No reload, and what the
// judge typed stays in the field when the server refuses it or the network drops.
(function () {
  "use strict";
  var app = document.getElementById("deal-app");
  if (!app) return;
  var server = JSON.parse(document.getElementById("deal-state").textContent); // the server's last state
  var state = server; // what the page shows: the server's state and the journal's waiting entries (overlay.js)
  var L = JSON.parse(document.getElementById("deal-labels").textContent);
  var input = document.getElementById("cards-input");
  var form = document.getElementById("play-form");
  var message = document.getElementById("message");
  var forceBox = app.querySelector(".force-box");
  var selected = []; // card codes tapped, in order

  var fmt = window.RefereeSite.fmt, csrf = window.RefereeSite.csrf, el = window.RefereeSite.el; // site.js
  function chip(card) {
    var c = el("span", "card suit-" + card.suit, card.short);
    c.title = card.face;
    return c;
  }
  // Seats by name, never by letter: "North 张三" where the seat is introduced, "North" in a line of plays.
  function seatName(seat) {
    var s = state.seats[seat];
    return s ? s.name : "";
  }
  function seatLabel(seat) {
    var s = state.seats[seat];
    return s ? s.name + " " + s.player : "";
  }
  function faces(cards) {
    return cards.map(function (c) { return c.face; }).join(" ");
  }

  var readCards = window.RefereeNotation.readCards; // static/js/notation.js
  var faceOf = {};
  function updatePreview() {
    var box = document.getElementById("cards-preview");
    if (!box) return;
    var text = input.value.trim();
    var read = text ? readCards(text) : { codes: [] };
    box.classList.toggle("bad", !!read.bad);
    if (read.bad) {
      box.textContent = fmt(L.not_a_card, { token: read.bad });
    } else if (read.codes.length) {
      box.textContent = fmt(L.read_as, { cards: read.codes.map(function (c) { return faceOf[c] || c; }).join(" ") });
    } else {
      box.textContent = "";
    }
  }

  function show(kind, text) {
    message.hidden = !text;
    message.className = "entry-message " + (kind || "");
    message.textContent = text || "";
  }

  function bind(name, value) {
    app.querySelectorAll('[data-bind="' + name + '"]').forEach(function (n) {
      if (value instanceof Node) { n.replaceChildren(value); } else { n.textContent = value; }
    });
  }

  function render() {
    var d = state.deal;
    app.dataset.version = d.version;
    bind("banker", seatLabel(d.banker));
    bind("level", d.level);
    bind("trump", d.trump_label);
    bind("points", String(state.attackers_points));
    bind("state", d.state_label);
    app.querySelectorAll('[data-when="can-record"]').forEach(function (n) { n.hidden = !state.can_record; });
    // After the last trick the card entry gives way to the kitty and the review.
    app.querySelectorAll('[data-when="can-play"]').forEach(function (n) { n.hidden = !state.can_record || state.complete; });
    state.picker.forEach(function (row) { row.cards.forEach(function (c) { faceOf[c.code] = c.face; }); });

    // The trick on the table, seats in play order from its leader; the heading counts what is played.
    var tricks = state.tricks;
    var last = tricks.length ? tricks[tricks.length - 1] : null;
    var current = last && last.plays.length < 4 ? last : null;
    var number = current ? current.number : tricks.length;
    var played = 0; // cards each seat has played in finished tricks
    tricks.forEach(function (t) { if (t.plays.length === 4) played += t.plays[0].cards.length; });
    bind("trick-title", state.complete ? fmt(L.all_tricks, { n: tricks.length })
      : fmt(L.trick, { n: number + 1 }) + " · " + fmt(L.cards_left, { n: state.hand_size - played }));
    bind("turn", state.next_seat ? fmt(L.turn, { seat: seatLabel(state.next_seat) })
      : state.need_winner !== undefined ? fmt(JL.tap_winner, { n: state.need_winner + 1 })
      : state.pending_turn ? JL.pending_turn : L.done);
    var seats = app.querySelector(".seats");
    seats.replaceChildren();
    // Between tricks the seats keep the trick just finished, faded, its winner marked, until the next lead.
    var shown = current || (last && last.plays.length === 4 ? last : null);
    // Seats in the trick's order: a trick just finished in its own (its leader first, not the next trick's); a
    // trick whose seats wait for the server's answer (``pending_turn``) shows its plays in the order entered.
    var between = shown && !current;
    var order = between || !state.order.length ? (last ? last.plays.map(function (p) { return p.seat; }) : [])
      : state.order;
    order.forEach(function (seat, i) {
      var play = shown && (seat ? shown.plays.find(function (p) { return p.seat === seat; }) : shown.plays[i]);
      var box = el("div", "seat-box" + (seat === state.next_seat ? " due" : "") + (seat === d.banker ? " banker" : "")
        + (between ? " finished" : "") + (between && seat === shown.winner ? " won" : "")
        + (play && play.waiting ? " waiting" : ""));
      var leads = state.next_seat && (between ? seat === state.next_seat : i === 0); // the next lead, between tricks
      box.appendChild(el("div", "seat-name", seatLabel(seat) + (leads ? " · " + L.leader : "")));
      var cards = el("div", "cards-line");
      if (play) play.cards.forEach(function (c) { cards.appendChild(chip(c)); });
      if (play && play.waiting) { // an ellipsis after the cards (the seat keeps its height), in words to a reader
        var mark = el("span", "waiting-mark", "\u2026");
        mark.title = JL.unsent;
        mark.setAttribute("aria-label", JL.unsent);
        cards.appendChild(mark);
      }
      box.appendChild(cards);
      seats.appendChild(box);
    });

    // Finished tricks, newest first.
    var list = app.querySelector(".tricks");
    list.replaceChildren();
    tricks.slice().reverse().forEach(function (t) {
      var li = el("li", "trick" + (t.waiting ? " waiting" : ""));
      li.value = t.number + 1;
      t.plays.forEach(function (p) {
        var span = el("span", "play" + (p.seat === t.winner ? " winner" : ""));
        span.appendChild(el("b", "", seatName(p.seat) + " "));
        p.cards.forEach(function (c) { span.appendChild(chip(c)); });
        li.appendChild(span);
      });
      if (t.winner && !t.waiting) li.appendChild(el("span", "muted", fmt(L.won, { seat: seatName(t.winner), points: t.points })));
      if (t.throw) {
        var note = el("div", "throw-note");
        note.appendChild(el("span", "", fmt(L.throw, { seat: seatName(t.throw.challenger), penalty: t.throw.penalty }) + " "));
        [["attempted", L.attempted], ["shown", L.shown], ["forced", L.forced]].forEach(function (part) {
          note.appendChild(el("span", "muted", " " + part[1] + " "));
          t.throw[part[0]].forEach(function (c) { note.appendChild(chip(c)); });
        });
        li.appendChild(note);
      }
      list.appendChild(li);
    });

    // Kitty.
    var kitty = el("span");
    d.kitty.forEach(function (c) { kitty.appendChild(chip(c)); });
    bind("kitty", d.kitty.length ? kitty : "");

    renderOutcome(current ? null : last);
    renderPicker();
    renderBoard();
    renderViolations();
    renderSeatChoices();
    app.querySelector(".done-box").hidden = !state.complete;
    if (d.state !== "recording") bind("review-link", L.review_settled); // submitted or confirmed: nothing to submit
    var fill = document.getElementById("kitty-fill");
    if (fill) fill.hidden = !(state.complete && !d.kitty.length);
  }

  // The trick just finished, said at once near the table: who won it (seat and player), its points, the
  // attackers' total so far and who leads next. It gives way when the next lead is recorded.
  function renderOutcome(trick) {
    var banner = document.getElementById("trick-outcome");
    banner.hidden = !(trick && trick.winner && !trick.waiting); // a trick the server has not judged has no points
    if (banner.hidden) return;
    var attackers = state.seats[trick.winner].side !== state.seats[state.deal.banker].side;
    banner.classList.toggle("attackers", attackers);
    bind("outcome-winner", fmt(L.outcome_won, {
      n: trick.number + 1, seat: seatLabel(trick.winner), side: attackers ? L.attackers : L.banker_side,
    }));
    bind("outcome-points", fmt(L.outcome_points, { points: trick.points }));
    bind("outcome-total", fmt(L.outcome_total, { points: state.attackers_points }));
    bind("outcome-next", state.next_seat ? fmt(L.outcome_next, { seat: seatLabel(state.next_seat) }) : "");
  }

  // Violations: every fault the engine has proven so far, open ones first in the judge's eye, each with the
  // ruleset's consequence; a fault the last play brought to light asks to be confirmed or undone at once.
  function renderViolations() {
    var box = document.getElementById("violations-box");
    var list = box.querySelector(".violations");
    var rows = state.violations || [];
    var open = rows.filter(function (v) { return v.status === "open"; });
    box.classList.toggle("has-open", open.length > 0);
    box.hidden = !rows.length;
    bind("violations-title", open.length ? fmt(L.violations_open, { n: open.length }) : L.violations_none);
    list.replaceChildren();
    rows.forEach(function (v) {
      var li = el("li", "violation status-" + v.status + (v.new && !v.confirmed ? " new" : ""));
      li.dataset.violation = v.key;
      li.appendChild(el("span", "badge " + (v.status === "open" ? "bad" : "ok"), v.status_label));
      li.appendChild(el("strong", "", " " + v.trick_label + (v.seat_label ? " · " + v.seat_label : "") + ": "));
      li.appendChild(el("span", "", v.text));
      if (v.penalty) {
        li.appendChild(el("div", "consequence", fmt(L.consequence, { penalty: v.penalty_label, effect: v.consequence })));
      }
      if (v.confirmed && v.status === "open") li.appendChild(el("div", "muted", L.ruled_played));
      if (state.can_record && v.status === "open") {
        var actions = el("div", "violation-actions");
        if (!v.confirmed) actions.appendChild(violationButton(v, "played", L.played, ""));
        if (v.new && !v.confirmed) actions.appendChild(violationButton(v, "undo", L.undo_play, "warn"));
        if (v.penalty) actions.appendChild(violationButton(v, "apply", L.apply, "primary"));
        li.appendChild(actions);
      }
      list.appendChild(li);
    });
  }
  function violationButton(v, action, text, cls) {
    var b = el("button", "small " + cls, text);
    b.type = "button";
    b.dataset.violationAction = action;
    b.dataset.violation = v.key;
    return b;
  }
  function proven() {
    return (state.violations || []).some(function (v) { return v.new && !v.confirmed; });
  }

  // Who may challenge a throw (the three other players, the leader's opponents first: RULES §5) and who may
  // have played out of turn (anyone but the seat due); a choice still valid is kept.
  function fillSeats(select, seats, blank) {
    var keep = select.value;
    select.replaceChildren();
    if (blank) select.appendChild(new Option("—", ""));
    seats.forEach(function (seat) { select.appendChild(new Option(seatLabel(seat), seat)); });
    select.value = seats.indexOf(keep) >= 0 ? keep : "";
  }
  function renderSeatChoices() {
    fillSeats(form.elements.throw_challenger, state.challengers || [], true);
    var others = ["N", "W", "S", "E"].filter(function (s) { return s !== state.next_seat; });
    fillSeats(document.querySelector("select[name=out_of_turn_seat]"), state.next_seat ? others : [], true);
  }

  var buried = []; // a board's buried cards tapped, before play
  function renderPicker() {
    window.RefereePicker.render(app.querySelector(".picker"), state.picker, burying() ? buried : selected, L.trump_mark, L);
  }
  // A board: its number and fingerprint in the bar; before play the kitty's form comes first and the play's
  // form waits, since no play is taken before the buried cards.
  function renderBoard() {
    if (!state.board) return;
    bind("board", state.board.title + " \u00b7 " + state.board.fingerprint);
    var box = app.querySelector(".kitty-box");
    if (box && state.board.needs_kitty) app.querySelector(".entry").before(box);
    form.hidden = form.hidden || state.board.needs_kitty;
    bind("bury-hint", state.board.needs_kitty ? fmt(L.bury, { n: state.board.kitty_size }) : "");
    app.querySelectorAll('[data-bind="bury-hint"]').forEach(function (n) { n.hidden = !state.board.needs_kitty; });
  }

  // A follow's size is the lead's: once the picker holds that many cards the play is sent by itself after a
  // moment (AUTO_SEND_MS, a countdown on the record button); a tap on the button in that moment takes it back.
  var AUTO_SEND_MS = window.refereeAutoSendMs || 1500;
  app.setAttribute("data-auto-send-ms", String(AUTO_SEND_MS)); // the moment, on the page for whoever waits it out
  var countdown = null; // the timer of a follow about to be sent
  var recordButton = document.getElementById("record-button");
  function followSize() {
    var t = state.tricks.length ? state.tricks[state.tricks.length - 1] : null;
    return t && t.plays.length > 0 && t.plays.length < 4 ? t.plays[0].cards.length : 0;
  }
  function stopCountdown() {
    if (!countdown) return;
    clearTimeout(countdown);
    countdown = null;
    recordButton.classList.remove("counting");
    recordButton.textContent = L.record;
    app.removeAttribute("data-counting");
  }
  function startCountdown() {
    stopCountdown();
    recordButton.textContent = L.sending;
    recordButton.style.animationDuration = AUTO_SEND_MS + "ms";
    recordButton.classList.add("counting");
    app.setAttribute("data-counting", "true");
    countdown = setTimeout(function () { stopCountdown(); sendPlay(false, false); }, AUTO_SEND_MS);
  }

  // A board before play: the picker holds the banker's hand with the kitty, and its taps fill the buried cards.
  function burying() { return !!(state.board && state.board.needs_kitty && kittyForm); }
  app.querySelector(".picker").addEventListener("click", function (event) {
    var b = event.target.closest("button.pick");
    if (!b || b.disabled) return;
    if (burying()) {
      buried = window.RefereePicker.tap(buried, b.dataset.code, Number(b.dataset.left));
      kittyForm.elements.kitty.value = buried.join(" ");
      renderPicker();
      return;
    }
    selected = window.RefereePicker.tap(selected, b.dataset.code, Number(b.dataset.left));
    input.value = selected.join(" ");
    renderPicker();
    updatePreview();
    // On a board the picker holds only the seat's own cards: a lead of one card goes by itself too, so a
    // single is one tap (a second tap within the moment makes it a lead of several, sent with the button).
    var size = followSize() || (state.board ? 1 : 0);
    if (size && selected.length === size && state.can_record && !busy) { startCountdown(); } else { stopCountdown(); }
  });
  recordButton.addEventListener("click", function (event) {
    if (!countdown) return;
    event.preventDefault(); // the moment to take a follow back: the tap cancels, the cards stay selected
    stopCountdown();
    show("warn", L.cancelled);
  });
  input.addEventListener("input", function () { stopCountdown(); selected = []; renderPicker(); updatePreview(); });
  document.getElementById("clear-button").addEventListener("click", function () {
    stopCountdown(); selected = []; input.value = ""; renderPicker(); updatePreview();
  });

  // Every write the judge intends gets a key of its own (a UUID). When the network drops (no answer, or a
  // gateway error) the same write is sent again with the same key after 1, 2, 4, 8 and 15 seconds: the server
  // answers a key it has seen with its first answer, so a play is never recorded twice. After that the page
  // gives up but keeps the key: the same write sent again by hand still counts once.
  var RETRY_DELAYS = [1000, 2000, 4000, 8000, 15000];
  var RETRY_STATUS = { 502: true, 503: true, 504: true };
  var pending = null; // the write the network lost: { sig, key }
  var busy = false;

  var newKey = window.RefereeJournal.newKey;
  function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  function send(url, body, n) {
    return fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: body,
      credentials: "same-origin",
    }).then(function (response) {
      if (RETRY_STATUS[response.status]) throw new Error("gateway " + response.status);
      return response.json().then(
        function (data) { return { status: response.status, data: data, recovered: n > 0 }; },
        function () { return { status: response.status, data: { ok: false, message: L.network } }; }
      );
    }).catch(function () {
      if (n >= RETRY_DELAYS.length) return null;
      show("warn", fmt(L.retrying, { n: n + 1, max: RETRY_DELAYS.length }));
      return wait(RETRY_DELAYS[n]).then(function () { return send(url, body, n + 1); });
    });
  }

  // Post one write; the answer is { status, data } (status 0: no answer, already said on the page). Plays,
  // undos and the kitty go through the device's journal (journal.js): kept on the device, sent in order; the
  // other writes wait until it is empty.
  function post(action, fields) {
    if (busy) return Promise.resolve({ status: 0, data: { ok: false }, ignored: true });
    if (journal.takes(action)) return journaled(action, fields);
    if (journal.pending()) {
      show("warn", JL.busy);
      return Promise.resolve({ status: 0, data: { ok: false } });
    }
    var body = new URLSearchParams(fields || {});
    body.set("version", state.deal.version);
    var sig = action + "?" + body.toString();
    var key = pending && pending.sig === sig ? pending.key : newKey();
    pending = { sig: sig, key: key };
    body.set("idempotency_key", key);
    busy = true;
    app.setAttribute("aria-busy", "true");
    return send(app.dataset.actionUrl.replace("ACTION", action), body, 0).then(function (answer) {
      busy = false;
      app.removeAttribute("aria-busy");
      if (!answer) {
        show("error", L.gave_up);
        return { status: 0, data: { ok: false } };
      }
      pending = null;
      if (answer.data.state) { server = answer.data.state; overlay(); journal.observe(server); }
      return answer;
    });
  }

  // The journal takes each entry at once, in order, while earlier ones are still on their way: the judge never
  // waits for the network to go on tapping.
  function journaled(action, fields) {
    return journal.submit(action, fields).then(function (answer) {
      if (answer.queued && answer.message) show("warn", answer.message);
      return answer;
    });
  }

  // Say what a write's answer means: saved (after a lost network, say so), or the refusal.
  function report(answer, savedText) {
    if (!answer.status) return;
    if (answer.data.ok) {
      show("ok", answer.recovered ? L.recovered : savedText);
    } else {
      show(answer.data.error === "stale" ? "warn" : "error", answer.data.message);
    }
  }

  // ``typed``: the cards came from the keyboard, which gets the focus back after; a phone's picker keeps the
  // screen (focusing the field would open the on-screen keyboard over it).
  function sendPlay(force, typed) {
    stopCountdown();
    var cards = input.value.trim();
    if (!cards) { show("error", L.nothing); input.focus(); return; }
    var fields = { cards: cards, seat: state.next_seat || "" };
    var throwBox = document.getElementById("throw-box");
    if (throwBox.open) {
      ["throw_attempted", "throw_challenger", "throw_shown"].forEach(function (name) {
        fields[name] = form.elements[name].value;
      });
    }
    if (force) fields.force = "1";
    var tapped = selected;
    var sent = post("play", fields);
    // The cards are in the journal now (on the table, marked waiting): the field is free for the next play at
    // once, so a card tapped while this one is on its way starts the next play and is never mixed into this one.
    input.value = ""; selected = []; renderPicker(); updatePreview();
    forceBox.hidden = true;
    throwBox.open = false;
    ["throw_attempted", "throw_challenger", "throw_shown"].forEach(function (n) { form.elements[n].value = ""; });
    if (typed) input.focus();
    sent.then(function (answer) {
      report(answer, "");
      if (answer.data.ok && proven()) show("warn", L.proven);
      if (answer.data.ok || (!answer.status && !answer.ignored) || answer.kept) return;
      // Refused (or not taken) and out of the journal: the cards go back into the field, if it is still free.
      if (!input.value.trim() && !selected.length) {
        input.value = cards; selected = tapped; renderPicker(); updatePreview();
        if (throwBox && fields.throw_attempted) {
          throwBox.open = true;
          ["throw_attempted", "throw_challenger", "throw_shown"].forEach(function (n) { form.elements[n].value = fields[n]; });
        }
      }
      forceBox.hidden = !answer.data.forceable;
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    sendPlay(false, !selected.length || document.activeElement === input);
  });
  document.getElementById("force-button").addEventListener("click", function () { sendPlay(true, false); });

  // What an undo takes back, said in words before the answer replaces the state: "Undone: West's ♠7."
  function undoneText(action) {
    var t = state.tricks.length ? state.tricks[state.tricks.length - 1] : null;
    var p = t && t.plays.length ? t.plays[t.plays.length - 1] : null;
    if (!p) return L.saved;
    if (action === "undo_trick") return fmt(L.undone_trick, { n: t.number + 1 });
    return fmt(L.undone_play, { seat: seatName(p.seat), cards: faces(p.cards) });
  }

  app.querySelectorAll("[data-action]").forEach(function (button) {
    button.addEventListener("click", function () {
      stopCountdown(); // an undo changes the trick: a follow about to be sent waits for the judge
      var action = button.dataset.action;
      var said = action.indexOf("undo") === 0 ? undoneText(action) : L["stored_" + action] || L.saved;
      post(action).then(function (answer) { report(answer, said); });
    });
  });

  document.getElementById("violations-box").addEventListener("click", function (event) {
    var b = event.target.closest("button[data-violation-action]");
    if (!b) return;
    stopCountdown();
    var action = b.dataset.violationAction;
    post(action, action === "undo" ? {} : { violation: b.dataset.violation }).then(function (answer) {
      report(answer, L["stored_" + action] || L.saved);
    });
  });

  document.getElementById("out-of-turn-button").addEventListener("click", function () {
    stopCountdown();
    var box = document.getElementById("out-of-turn-box");
    var seat = box.querySelector("select[name=out_of_turn_seat]");
    var cards = box.querySelector("input[name=out_of_turn_cards]");
    post("out_of_turn", { seat: seat.value, cards: cards.value }).then(function (answer) {
      report(answer, L.stored_out_of_turn);
      if (answer.data.ok) { cards.value = ""; box.open = false; }
    });
  });

  // A game without a kitty (four decks) has no kitty form.
  var kittyForm = document.getElementById("kitty-form");
  // Once every trick is in, the cards no one played are the kitty: one tap fills them in for the judge to check
  // against the cards turned up, then save.
  var kittyFill = document.getElementById("kitty-fill");
  function cardsLeft() {
    var codes = [];
    state.picker.forEach(function (row) {
      row.cards.forEach(function (c) { for (var n = 0; n < c.left; n += 1) codes.push(c.code); });
    });
    return codes;
  }
  if (kittyFill) kittyFill.addEventListener("click", function () {
    var field = kittyForm.elements.kitty;
    field.value = cardsLeft().join(" ");
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
  if (kittyForm) kittyForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var field = event.target.elements.kitty;
    post("kitty", { kitty: field.value }).then(function (answer) {
      report(answer, L.stored_kitty);
      if (answer.data.ok) { field.value = ""; buried = []; renderPicker(); }
    });
  });

  var JL = JSON.parse(document.getElementById("journal-labels").textContent);
  // The page shows the server's state with the journal's entries over it, recomputed at every change of either.
  function overlay() {
    state = window.RefereeOverlay.view(server, journal.entries(), readCards);
    render();
  }
  var journal = window.RefereeJournal.open(app, function () { return server; }, function (s) { server = s; overlay(); },
    function () { return !input.value.trim() && !selected.length; });
  journal.onchange(function (waiting, down) { // the line "kept on this device" goes once the network is back
    if (!down && message.textContent === JL.queued) show("", "");
    overlay();
  });
  server = journal.freshest(server);
  overlay();
  updatePreview();
  var finePointer = window.matchMedia && window.matchMedia("(pointer: fine)").matches;
  if (state.can_record && !state.complete && finePointer) input.focus();
  journal.drain(); // the entries this device still holds for the deal go first, in order
})();
