"""Passwords hashed at a low CPU priority, so a crowd of sign-ins does not slow every page of the hall.

A password's hash (PBKDF2, a million rounds) costs about a third of a second of a core, and at the start of a
day 64 judges sign in within a minute: their hashes filled both cores for about 20 s, and the spectators' pages
waited behind them (issue 41 item 5). Here the hash runs in a small pool of threads whose scheduling priority is
lowered (``nice``): the request that signs in waits for it as before, while the other requests' threads get the
cores first. ``hashlib.pbkdf2_hmac`` gives up Python's global lock while it works, so the other threads of the
process run beside it. The stored hashes are Django's own (same algorithm name, same format): nothing to migrate,
and a site can drop this hasher from ``PASSWORD_HASHERS`` at any time.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.contrib.auth.hashers import PBKDF2PasswordHasher

NICE = 10  # how much lower than the request threads: they get the cores first, the hashes still move on
T = TypeVar("T")
_pools: dict[int, ThreadPoolExecutor] = {}  # per process: a pool made before a fork has no threads after it
_pools_lock = threading.Lock()


def lower_priority() -> None:
    """Lower the calling thread's scheduling priority (Linux: a thread's own nice value); elsewhere nothing."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + NICE))
    except (AttributeError, OSError):  # pragma: no cover - not Linux, or not permitted
        pass


def pool() -> ThreadPoolExecutor:
    """This process's pool of low-priority threads, one a core (a hash uses one core while it runs)."""
    pid = os.getpid()
    with _pools_lock:
        if pid not in _pools:
            _pools[pid] = ThreadPoolExecutor(
                max_workers=os.cpu_count() or 1, thread_name_prefix="low-priority", initializer=lower_priority
            )
        return _pools[pid]


def at_low_priority(work: Callable[..., T], *args) -> T:
    """``work(*args)`` run on a low-priority thread; the caller waits for its answer (or its exception)."""
    return pool().submit(work, *args).result()


class LowPriorityPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's PBKDF2 password hasher, its rounds run at a low priority (``at_low_priority``)."""

    def encode(self, password, salt, iterations=None):
        return at_low_priority(super().encode, password, salt, iterations)
