// What the trick-entry page shows (loaded after journal.js, before deal.js): the server's last state with the
// journal's waiting entries laid over it as if played, recomputed on every change of the journal. So through a
// network cut the picker's counts drop, the waiting plays sit on the table (marked waiting) and the next seat is
// the journal's. It only counts cards and keeps the seats in turn: no rule is checked here (the server judges the
// entries when they arrive, and its answer replaces all of this).
(function () {
  "use strict";

  function rotate(cycle, first) {
    var i = Math.max(cycle.indexOf(first), 0);
    return cycle.slice(i).concat(cycle.slice(0, i));
  }

  // Who may challenge the lead's throw, as the server offers them: the other three, the leader's opponents first.
  function challengers(state, order) {
    var side = state.seats[order[0]].side;
    return order.slice(1).sort(function (a, b) { return (state.seats[a].side === side) - (state.seats[b].side === side); });
  }

  // A board's picker for ``seat``: the cards it held at the server's last state less what it played since, in
  // the picker's rows (a card it no longer holds has no button), as the server draws it.
  function boardPicker(board, seat, bySeat) {
    if (!seat) return [];
    var held = board.held[seat] || {}, played = bySeat[seat] || {};
    return board.layout.map(function (row) {
      return Object.assign({}, row, { cards: row.cards.map(function (c) {
        return Object.assign({}, c, { left: Math.max((held[c.code] || 0) - (played[c.code] || 0), 0) });
      }).filter(function (c) { return c.left > 0; }) });
    }).filter(function (row) { return row.cards.length; });
  }

  // ``read(text)`` gives { codes } for a play's cards as typed (deal.js's reading of the notation).
  function view(state, entries, read) {
    // An entry being retyped is in the field; one refused as stale was made on a deal that is no longer there (the
    // page shows the deal as the server has it, with the entry in the journal's list for the judge to settle).
    entries = entries.filter(function (e) { return e.status !== "retyping" && !e.stale; });
    if (!entries.length) return state;
    var byCode = {};
    state.picker.forEach(function (row) { row.cards.forEach(function (c) { byCode[c.code] = c; }); });
    var taken = {};
    var bySeat = {}; // a board's: what each seat has played in the waiting entries (its picker is its own hand)
    function count(cards, n, seat) {
      var own = bySeat[seat] = bySeat[seat] || {};
      cards.forEach(function (c) {
        taken[c.code] = (taken[c.code] || 0) + n;
        own[c.code] = (own[c.code] || 0) + n;
      });
    }
    var tricks = state.tricks.filter(function (t) { return t.plays.length; }).map(function (t) {
      return Object.assign({}, t, { plays: t.plays.slice() });
    });
    entries.forEach(function (e) {
      var last = tricks[tricks.length - 1];
      if (e.action === "play") {
        if (!last || last.plays.length === 4) {
          tricks.push(last = { number: tricks.length, plays: [], winner: null, points: null, throw: null, waiting: true });
        }
        var cards = (read(e.fields.cards || "").codes || []).map(function (code) {
          return byCode[code] || { code: code, face: code, short: code, suit: "" };
        });
        count(cards, 1, e.fields.seat);
        last.plays.push({ seat: e.fields.seat, cards: cards, waiting: true });
      } else if (e.action === "winner") {
        var t = tricks[Number(e.fields.trick)];
        if (t && !t.winner) { t.winner = e.fields.seat; t.waiting = true; }
      } else if (e.action === "undo" && last) {
        var undone = last.plays.pop();
        count(undone.cards, -1, undone.seat);
        last.winner = null;
        if (!last.plays.length) tricks.pop();
      } else if (e.action === "undo_trick" && last) {
        tricks.pop().plays.forEach(function (p) { count(p.cards, -1, p.seat); });
      }
    });
    var m = window.RefereeJournal.model(state, entries);
    var last = tricks[tricks.length - 1];
    var cycle = state.order && state.order.length === 4 ? state.order : ["N", "W", "S", "E"];
    var leads = !last || last.plays.length === 4; // the next play is a lead: a throw may be challenged
    var leader = leads ? m.seat : last.plays[0].seat;
    return Object.assign({}, state, {
      tricks: tricks,
      picker: state.board && !state.board.needs_kitty ? boardPicker(state.board, m.seat, bySeat)
        : state.picker.map(function (row) {
          return Object.assign({}, row, { cards: row.cards.map(function (c) {
            return Object.assign({}, c, { left: Math.max(c.left - (taken[c.code] || 0), 0) });
          }) });
        }),
      next_seat: m.seat || null,
      order: leader ? rotate(cycle, leader) : [],
      need_winner: m.need,
      pending_turn: !!m.pending,
      challengers: leads && m.seat ? challengers(state, rotate(cycle, m.seat)) : [],
    });
  }

  window.RefereeOverlay = { view: view };
})();
