"""The load test's bounds and pace: when the run ends, and when each client posts its next play."""

from __future__ import annotations

import threading
import time


class Budget:
    """The run's bounds, shared by every client: no new play after the deadline, no request past the cap."""

    def __init__(self, duration: float, max_requests: int) -> None:
        self.start = time.monotonic()
        self.deadline = self.start + duration
        self.left = max_requests
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def take(self) -> bool:
        """Count one request; False once the cap is reached or the run was stopped."""
        with self.lock:
            if self.left <= 0 or self.stopped.is_set():
                return False
            self.left -= 1
            return True

    @property
    def over(self) -> bool:
        return self.stopped.is_set() or self.left <= 0 or time.monotonic() >= self.deadline

    def sleep_until(self, when: float) -> bool:
        """Wait for ``when`` (a monotonic time); False when the run ends first."""
        while True:
            now = time.monotonic()
            if self.over or when > self.deadline:
                return False
            if now >= when:
                return True
            self.stopped.wait(min(when - now, 0.5))


class Pace:
    """When a client posts its next play: on a fixed schedule (open loop) or at once (closed loop)."""

    def __init__(self, budget: Budget, rate: float | None, phase: float = 0.0) -> None:
        self.budget = budget
        self.interval = 1 / rate if rate else 0.0
        self.next_at = budget.start + phase
        self.late = 0  # plays that went out more than a second after their time (the server was slow)

    def wait(self) -> bool:
        if not self.interval:
            return not self.budget.over
        if not self.budget.sleep_until(self.next_at):
            return False
        if time.monotonic() - self.next_at > 1.0:
            self.late += 1
        self.next_at += self.interval
        return True
