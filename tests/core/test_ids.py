"""Stable ids: the same abstract keeps its id whatever happens to the list around it."""

from __future__ import annotations

from paperdeck.core.ids import MIN_ID_LENGTH, assign_ids, normalise_for_id

ABSTRACTS = [
    "We propose BubbleSpec, a speculative decoding method.",
    "Representation intervention has emerged as a promising paradigm.",
    "In self-supervised goal-conditioned reinforcement learning, goals are observations.",
]


def test_ids_are_short_hex() -> None:
    ids = assign_ids(ABSTRACTS)
    assert len(set(ids)) == 3
    for paper_id in ids:
        assert len(paper_id) == MIN_ID_LENGTH
        int(paper_id, 16)


def test_reordering_and_inserting_keep_ids() -> None:
    original = dict(zip(ABSTRACTS, assign_ids(ABSTRACTS), strict=True))
    changed = [ABSTRACTS[2], "A brand new paper about graphs.", ABSTRACTS[0], ABSTRACTS[1]]
    again = dict(zip(changed, assign_ids(changed), strict=True))
    for text in ABSTRACTS:
        assert again[text] == original[text]


def test_whitespace_line_endings_and_case_do_not_change_ids() -> None:
    rewrapped = "We propose BubbleSpec,\r\na speculative\n  decoding method."
    assert assign_ids([rewrapped]) == assign_ids([ABSTRACTS[0]])
    assert normalise_for_id("Self Supervised\u00a0RL") == normalise_for_id("self supervised rl")
    assert normalise_for_id("self-supervised") != normalise_for_id("self supervised")


def test_identical_abstracts_get_distinct_deterministic_ids() -> None:
    ids = assign_ids([ABSTRACTS[0], ABSTRACTS[1], ABSTRACTS[0]])
    assert ids[0] != ids[2]
    assert assign_ids([ABSTRACTS[0], ABSTRACTS[1], ABSTRACTS[0]]) == ids
    # The first copy keeps the id it has when alone.
    assert ids[0] == assign_ids([ABSTRACTS[0]])[0]


def test_colliding_prefixes_grow_longer() -> None:
    texts = [f"abstract number {n}" for n in range(200_000)]
    ids = assign_ids(texts)
    assert len(set(ids)) == len(ids)
    assert min(map(len, ids)) == MIN_ID_LENGTH


def test_a_text_that_looks_like_a_salted_duplicate_gets_its_own_id() -> None:
    text = "We study things in depth here."
    ids = assign_ids([text, text, text + "#2", text + "2"])
    assert len(set(ids)) == 4
    assert all(len(paper_id) == MIN_ID_LENGTH for paper_id in ids)
