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

  // A card's name to a reader: its face and how many copies are still in the hands (the badge's figure).
  function spoken(card, left, words) {
    if (!words || !words.left) return card.face;
    return window.RefereeSite.fmt(words.left, { card: card.face, n: left });
  }

  function button(card, row, taken, words) {
    var left = card.left - (taken[card.code] || 0);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "pick suit-" + card.suit + (taken[card.code] ? " selected" : "") + (card.left ? "" : " gone");
    b.dataset.code = card.code;
    b.dataset.left = String(card.left);
    b.dataset.taken = String(taken[card.code] || 0);
    b.disabled = !card.left;
    b.setAttribute("aria-label", spoken(card, left, words));
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

  // Drawn anew after every tap: the key that was on a card stays on it (a keyboard's user goes on from there).
  function render(box, rows, selected, trumpMark, words) {
    var taken = counts(selected);
    var focused = box.contains(document.activeElement) ? document.activeElement.dataset.code : null;
    box.replaceChildren();
    rows.forEach(function (row) {
      var line = document.createElement("div");
      line.className = "picker-row" + (row.trump ? " trump" : "");
      line.dataset.suit = row.suit;
      line.setAttribute("role", "group");  // a reader hears the row's suit before its cards
      line.setAttribute("aria-label", row.name);
      var mark = document.createElement("span");
      mark.className = "picker-suit suit-" + (row.suit === "T" ? "J" : row.suit);
      mark.textContent = row.suit === "T" ? trumpMark : SYMBOL[row.suit];
      mark.title = row.name;
      mark.setAttribute("aria-hidden", "true");  // the group says it
      line.appendChild(mark);
      var cards = document.createElement("div");
      cards.className = "picker-cards";
      row.cards.forEach(function (card) { cards.appendChild(button(card, row, taken, words)); });
      line.appendChild(cards);
      box.appendChild(line);
    });
    if (focused) {
      var again = box.querySelector('button.pick[data-code="' + focused + '"]:not(:disabled)');
      if (again) again.focus();
    }
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
