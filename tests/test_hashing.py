"""Passwords are hashed on a low-priority thread (referee/hashing.py): the hash is Django's own, so every stored
password still signs in, and the thread that computes it yields the cores to the request threads."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from referee import hashing


def own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_the_low_priority_hasher_makes_djangos_own_pbkdf2_hash():
    ours = hashing.LowPriorityPBKDF2PasswordHasher()
    django_s = PBKDF2PasswordHasher()
    encoded = ours.encode("correct horse", "saltsalt", 1000)
    assert encoded == django_s.encode("correct horse", "saltsalt", 1000)
    assert ours.verify("correct horse", encoded) and not ours.verify("wrong horse", encoded)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
def test_the_hash_runs_on_a_thread_nicer_than_the_request_that_waits_for_it():
    assert hashing.at_low_priority(own_nice) == min(19, own_nice() + hashing.NICE)


def test_the_site_hashes_new_passwords_with_the_low_priority_hasher_and_reads_djangos_others():
    import referee.settings as site  # the suite's own settings swap in a fast hasher

    assert site.PASSWORD_HASHERS[0] == "referee.hashing.LowPriorityPBKDF2PasswordHasher"
    assert "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher" in site.PASSWORD_HASHERS
