"""Tapping the picker on a phone, each card in one step of the page: its button found, checked in view (above the
record bar pinned to the bottom, nothing scrolled, the other controls named in view too), checked to be what a
finger at its centre would touch, and clicked, before the page's script can redraw anything.

Why one step: the picker and the trick above it are redrawn at every answer from the server, which come while
the judge taps on. Reading the button's place, then clicking it in later steps (as ``locator.click()`` does)
leaves a moment in which a redraw can move the button: on a busy machine a click aimed a moment earlier once
landed beside it, and a tapped card stayed alone in the field. In one step the check and the tap see the same
screen, and a round trip a card (instead of seven) keeps a whole deal's taps cheap."""

from __future__ import annotations

TAP = """([selector, width, height, others]) => {
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
  };
  const inView = (b) => b !== null && b.x >= 0 && b.y >= 0 && b.y + b.height <= height && b.x + b.width <= width;
  const button = document.querySelector(selector);
  const b = box(button);
  const bar = box(document.querySelector(".entry-bar"));
  const hit = b && document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
  const found = {
    enabled: !!button && !button.disabled,
    clear: b !== null && bar !== null && b.y + b.height <= bar.y,
    inView: inView(b),
    touched: !!hit && hit.closest("button.pick") === button,
    scrolled: window.scrollY,
  };
  for (const other of others) found[other] = inView(box(document.querySelector(other)));
  const ok = found.enabled && found.clear && found.inView && found.touched && found.scrolled === 0
    && others.every((o) => found[o]);
  if (ok) button.click();
  found.tapped = ok;
  found.scrolledAfter = window.scrollY;
  return found;
}"""


def tap_in_view(page, cards: str, size: dict, others: tuple[str, ...] = ("#record-button",)) -> int:
    """Tap the picker's button for each card (a pair: its face twice) on a screen of ``size``: each tap only if
    the button is in view, clear of the record bar and on top at its centre, with ``others`` in view and the
    page not scrolled (nor scrolled by the tap). Returns the taps."""
    for code in cards.split():
        found = page.evaluate(
            TAP, [f"button.pick[data-code='{code}']", size["width"], size["height"], list(others)]
        )
        assert found["tapped"] and found["scrolledAfter"] == 0, (
            f"{code} cannot be tapped as it is at {size}: {found}"
        )
    return len(cards.split())


def field_free(page) -> None:
    """Wait until the play's field is empty again (the play taken: a lead at once, a follow when its moment has
    passed), checked at every frame: ``expect`` would look again only 100 ms later, at every follow of a deal."""
    page.wait_for_function("() => document.getElementById('cards-input').value === ''")
