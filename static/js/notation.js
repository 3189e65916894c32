// The typed cards as the server will read them (rules/cards.py's notation, mirrored), for the trick-entry page's
// preview: one job, one file, loaded before deal.js. readCards(text) returns { codes } or { bad: token }.
(function () {
  "use strict";
  // The typed cards as the server will read them (rules/cards.py's notation, mirrored): "SJ" is ♠J, not the
  // small joker, and the judge sees that before sending. Returns { codes } or { bad: token }.
  var SUITS = "SHCD", SYMBOLS = "\u2660\u2665\u2663\u2666", RANKS = "23456789TJQKA";
  var JOKERS = { LJ: "LJ", BJ: "BJ", "\u5c0f\u738b": "LJ", "\u5927\u738b": "BJ" }; // 小王, 大王
  // Full-width letters and digits as ASCII (NFKC: "\uff33\uff2a" is SJ) and the suit words before a rank as
  // suit letters (\u9ed1\u6843A is SA), as rules/cards.py reads them.
  var SUIT_WORDS = { "\u9ed1\u6843": "S", "\u7ea2\u6843": "H", "\u6885\u82b1": "C", "\u65b9\u5757": "D" };
  function plain(text) {
    var t = text.normalize ? text.normalize("NFKC") : text;
    Object.keys(SUIT_WORDS).forEach(function (word) { t = t.split(word).join(SUIT_WORDS[word]); });
    return t;
  }
  function suitOf(ch) {
    var i = SUITS.indexOf(ch);
    return i >= 0 ? i : SYMBOLS.indexOf(ch);
  }
  function readToken(token) {
    var t = plain(token).toUpperCase(), out = [], suit = -1, i = 0;
    while (i < t.length) {
      var ch = t.charAt(i), two = t.substr(i, 2);
      if (JOKERS[two]) {
        if (i > 0 && suitOf(t.charAt(i - 1)) >= 0) return null; // a suit without a rank
        out.push(JOKERS[two]);
        suit = -1;
        i += 2;
      } else if (suitOf(ch) >= 0) {
        if (suit >= 0 && i > 0 && suitOf(t.charAt(i - 1)) >= 0) return null;
        suit = suitOf(ch);
        i += 1;
      } else if (suit >= 0 && two === "10") {
        out.push(SUITS.charAt(suit) + "T");
        i += 2;
      } else if (suit >= 0 && RANKS.indexOf(ch) >= 0) {
        out.push(SUITS.charAt(suit) + ch);
        i += 1;
      } else {
        return null;
      }
    }
    if (!out.length || (suit >= 0 && suitOf(t.charAt(t.length - 1)) >= 0)) return null;
    return out;
  }
  function readCards(text) {
    var codes = [], tokens = plain(text).split(/[\s,\uff0c\u3001;]+/);
    for (var k = 0; k < tokens.length; k++) {
      if (!tokens[k]) continue;
      var found = readToken(tokens[k]);
      if (!found) return { bad: tokens[k] };
      codes = codes.concat(found);
    }
    return { codes: codes };
  }
  window.RefereeNotation = { readCards: readCards };
})();
