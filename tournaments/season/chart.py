"""A rating's history as a small SVG line drawn on the server (no script): the points, the axis' two labels."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD, LEFT = 320, 120, 8, 36  # LEFT: room for the axis' labels


@dataclass(frozen=True)
class Chart:
    points: str  # the polyline's "x,y x,y …"
    dots: list[tuple[float, float, int]]  # each match's (x, y, rating)
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(values: list[int]) -> Chart | None:
    """The line of ratings, the first on the left; None for fewer than one value."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - LEFT - PAD) / max(len(values) - 1, 1)
    dots = [
        (round(LEFT + i * step, 1), round(HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD), 1), v)
        for i, v in enumerate(values)
    ]
    return Chart(" ".join(f"{x},{y}" for x, y, _v in dots), dots, low, high)
