"""Time slices: work on another thread, and work that steps aside for a busy foreground."""

from __future__ import annotations

import threading

from paperdeck.core.library import load_library
from paperdeck.core.plumbing.slices import Foreground, finish, on_thread
from paperdeck.core.resources import bundled_list
from paperdeck.core.search import index_parts


def test_a_step_on_a_thread_hands_its_future_then_its_result() -> None:
    release = threading.Event()
    steps = on_thread(lambda: release.wait(30) and 42)
    waiting = next(steps)
    assert not waiting.done()
    release.set()
    assert finish(steps) == 42


def test_work_steps_aside_while_the_foreground_is_busy_and_goes_on_when_it_rests() -> None:
    foreground = Foreground(patience=30)
    foreground.busy()
    assert foreground.is_busy
    worker = threading.Thread(target=foreground.step_aside, daemon=True)
    worker.start()
    worker.join(0.2)
    assert worker.is_alive()  # waiting for the foreground, not for its patience
    foreground.idle()
    worker.join(30)
    assert not worker.is_alive()
    foreground.step_aside()  # at rest: no wait


def test_postings_made_in_pieces_with_pauses_between_are_those_made_at_once() -> None:
    papers = load_library([bundled_list()]).papers * 10
    at_once, in_pieces = index_parts.Growing(), None
    pauses: list[bool] = []

    def pause() -> None:
        assert in_pieces is not None
        pauses.append(in_pieces._lock.locked())

    in_pieces = index_parts.Growing(between=pause)
    for grown in (at_once, in_pieces):
        grown.add(papers[:100], 0)
        grown.add(papers[100:], 100)
        grown.done(len(papers))
    assert len(pauses) > 2 and not any(pauses)  # between pieces, the lock free
    postings = [finish(grown.postings_steps(papers)) for grown in (at_once, in_pieces)]
    assert postings[0] == postings[1]
