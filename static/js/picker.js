// The card picker of the trick-entry page (loaded before deal.js): one button a card face, its copies still in
// the hands on a badge, a row a suit as a hand is held (the jokers and level cards, then the trump suit, then the
// plain suits). A tap takes one more copy; a tap on a face whose copies are all taken puts them all back.
(function () {
  "use strict";
  var SYMBOL = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };

  function counts(codes) {
    var taken = {};
    codes.forEach(function (code) { taken[code] = (taken[code] || 0) + 1; });
    return taken;
  }

  // What a button shows: the rank alone in a suit's row (the row names the suit), the whole face elsewhere.
  function faceText(card, row) {
    if (row.suit !== "T" && card.suit === row.suit) return card.face.slice(1);
    return card.short;
  }

  function button(card, row, taken) {
    var left = card.left - (taken[card.code] || 0);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "pick suit-" + card.suit + (taken[card.code] ? " selected" : "") + (card.left ? "" : " gone");
    b.dataset.code = card.code;
    b.dataset.left = String(card.left);
    b.dataset.taken = String(taken[card.code] || 0);
    b.disabled = !card.left;
    b.setAttribute("aria-label", card.face);
    b.setAttribute("aria-pressed", taken[card.code] ? "true" : "false");
    var face = document.createElement("span");
    face.className = "face";
    face.textContent = faceText(card, row);
    b.appendChild(face);
    var badge = document.createElement("span");
    badge.className = "left";
    badge.textContent = String(left);
    b.appendChild(badge);
    return b;
  }

  function render(box, rows, selected, trumpMark) {
    var taken = counts(selected);
    box.replaceChildren();
    rows.forEach(function (row) {
      var line = document.createElement("div");
      line.className = "picker-row" + (row.trump ? " trump" : "");
      line.dataset.suit = row.suit;
      var mark = document.createElement("span");
      mark.className = "picker-suit suit-" + (row.suit === "T" ? "J" : row.suit);
      mark.textContent = row.suit === "T" ? trumpMark : SYMBOL[row.suit];
      mark.title = row.name;
      line.appendChild(mark);
      var cards = document.createElement("div");
      cards.className = "picker-cards";
      row.cards.forEach(function (card) { cards.appendChild(button(card, row, taken)); });
      line.appendChild(cards);
      box.appendChild(line);
    });
  }

  // The selection after a tap on ``code`` with ``left`` copies in the hands: one more copy, or none when all
  // copies were already taken.
  function tap(selected, code, left) {
    var taken = counts(selected)[code] || 0;
    if (taken < left) return selected.concat([code]);
    return selected.filter(function (c) { return c !== code; });
  }

  window.RefereePicker = { render: render, tap: tap };
})();
