"""The cycle collector paused around a load or a search, and resumed as it was."""

from __future__ import annotations

import gc

from paperdeck.core.plumbing.collector import collector_paused


def test_the_collector_is_off_in_the_block_and_what_it_made_is_frozen_after() -> None:
    assert gc.isenabled()
    before = gc.get_freeze_count()
    try:
        with collector_paused():
            assert not gc.isenabled()
            made = [[index] for index in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + len(made)
    finally:
        gc.unfreeze()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
