// Trick entry: tap cards or type them, post each play, redraw from the server's answer. No reload, and what the
// judge typed stays in the field when the server refuses it.
(function () {
  "use strict";
  var app = document.getElementById("deal-app");
  if (!app) return;
  var state = JSON.parse(document.getElementById("deal-state").textContent);
  var L = JSON.parse(document.getElementById("deal-labels").textContent);
  var input = document.getElementById("cards-input");
  var form = document.getElementById("play-form");
  var message = document.getElementById("message");
  var forceBox = app.querySelector(".force-box");
  var selected = []; // card codes tapped, in order

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
  function chip(card) {
    var c = el("span", "card suit-" + card.suit, card.short);
    c.title = card.code;
    return c;
  }
  function seatLabel(seat) {
    var s = state.seats[seat];
    return s ? s.name + " " + s.player : seat;
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

    // The trick on the table, seats in play order from its leader.
    var tricks = state.tricks;
    var last = tricks.length ? tricks[tricks.length - 1] : null;
    var current = last && last.plays.length < 4 ? last : null;
    var number = current ? current.number : tricks.length;
    bind("trick-title", fmt(L.trick, { n: number + 1 }));
    bind("turn", state.next_seat ? fmt(L.turn, { seat: seatLabel(state.next_seat) }) : L.done);
    var seats = app.querySelector(".seats");
    seats.replaceChildren();
    state.order.forEach(function (seat, i) {
      var box = el("div", "seat-box" + (seat === state.next_seat ? " due" : "") + (seat === d.banker ? " banker" : ""));
      box.appendChild(el("div", "seat-name", seatLabel(seat) + (i === 0 ? " · " + L.leader : "")));
      var cards = el("div", "cards-line");
      var play = current && current.plays.find(function (p) { return p.seat === seat; });
      if (play) play.cards.forEach(function (c) { cards.appendChild(chip(c)); });
      box.appendChild(cards);
      seats.appendChild(box);
    });

    // Finished tricks, newest first.
    var list = app.querySelector(".tricks");
    list.replaceChildren();
    tricks.slice().reverse().forEach(function (t) {
      var li = el("li", "trick");
      li.value = t.number + 1;
      t.plays.forEach(function (p) {
        var span = el("span", "play" + (p.seat === t.winner ? " winner" : ""));
        span.appendChild(el("b", "", p.seat + " "));
        p.cards.forEach(function (c) { span.appendChild(chip(c)); });
        li.appendChild(span);
      });
      if (t.winner) li.appendChild(el("span", "muted", fmt(L.won, { seat: t.winner, points: t.points })));
      if (t.throw) {
        var note = el("div", "throw-note");
        note.appendChild(el("span", "", fmt(L.throw, { seat: t.throw.challenger, penalty: t.throw.penalty }) + " "));
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

    renderPicker();
    app.querySelector(".done-box").hidden = !state.complete;
  }

  function renderPicker() {
    var picker = app.querySelector(".picker");
    picker.replaceChildren();
    var taken = {};
    selected.forEach(function (code) { taken[code] = (taken[code] || 0) + 1; });
    state.picker.forEach(function (row) {
      var line = el("div", "picker-row");
      line.appendChild(el("span", "picker-suit", row.name));
      row.cards.forEach(function (card) {
        for (var copy = 0; copy < card.left; copy++) {
          var b = el("button", "pick suit-" + card.suit, card.short);
          b.type = "button";
          b.dataset.code = card.code;
          b.setAttribute("aria-label", card.face);
          if (copy < (taken[card.code] || 0)) b.classList.add("selected");
          line.appendChild(b);
        }
      });
      picker.appendChild(line);
    });
  }

  app.querySelector(".picker").addEventListener("click", function (event) {
    var b = event.target.closest("button.pick");
    if (!b) return;
    var code = b.dataset.code;
    if (b.classList.contains("selected")) {
      selected.splice(selected.lastIndexOf(code), 1);
    } else {
      selected.push(code);
    }
    input.value = selected.join(" ");
    renderPicker();
  });
  input.addEventListener("input", function () { selected = []; renderPicker(); });
  document.getElementById("clear-button").addEventListener("click", function () {
    selected = []; input.value = ""; renderPicker(); input.focus();
  });

  function post(action, fields) {
    var body = new URLSearchParams(fields || {});
    body.set("version", state.deal.version);
    return fetch(app.dataset.actionUrl.replace("ACTION", action), {
      method: "POST",
      headers: { "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: body,
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; });
    }).then(function (answer) {
      if (answer.data.state) { state = answer.data.state; render(); }
      return answer;
    }).catch(function () {
      show("error", L.network);
      return { status: 0, data: { ok: false } };
    });
  }

  function sendPlay(force) {
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
    post("play", fields).then(function (answer) {
      if (answer.data.ok) {
        show("ok", "");
        input.value = ""; selected = []; renderPicker();
        forceBox.hidden = true;
        throwBox.open = false;
        ["throw_attempted", "throw_challenger", "throw_shown"].forEach(function (n) { form.elements[n].value = ""; });
        input.focus();
      } else if (answer.status) {
        show(answer.data.error === "stale" ? "warn" : "error", answer.data.message);
        forceBox.hidden = !answer.data.forceable;
      }
    });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); sendPlay(false); });
  document.getElementById("force-button").addEventListener("click", function () { sendPlay(true); });

  app.querySelectorAll("[data-action]").forEach(function (button) {
    button.addEventListener("click", function () {
      post(button.dataset.action).then(function (answer) {
        if (answer.status) show(answer.data.ok ? "ok" : "error", answer.data.ok ? L.saved : answer.data.message);
      });
    });
  });

  document.getElementById("kitty-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var field = event.target.elements.kitty;
    post("kitty", { kitty: field.value }).then(function (answer) {
      if (answer.data.ok) { field.value = ""; show("ok", L.saved); }
      else if (answer.status) show("error", answer.data.message);
    });
  });

  render();
  if (state.can_record) input.focus();
})();
