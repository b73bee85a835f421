"""Under the search field: the words of the query no paper has, and what was shown instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.ui.conftest import write_list
from tests.ui.test_app import MakeApp, header_text, screen_line, settle, type_text

from paperdeck.core.search.near import NearSpelling
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.search_status import status_text

pytest_plugins = ["tests.ui.test_app"]


def status_lines(app: PaperdeckApp) -> list[str]:
    """The status as it is on screen, line by line (none while it is hidden)."""
    status = app.query_one("#search-status")
    if not status.display or not status.region.area:
        return []
    return [status.render_line(y).text.strip() for y in range(status.region.height)]


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_typed_word_no_paper_has_is_said_with_its_near_spellings(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculatve rollot")
        await settle(app, pilot)
        # The paper is still found through the near spellings ...
        assert app.papers[app.paper_list.rows[0]].title.startswith("BubbleSpec")
        # ... and the line under the search field says no paper has the words typed.
        shown = " ".join(status_lines(app))
        assert 'no paper has "speculatve"' in shown and "speculative" in shown
        assert '"rollot"' in shown and "rollout" in shown
        # In one line: at 80 columns, each word with what was shown for it in brackets.
        assert len(status_lines(app)) == 1
        if size == (80, 24):
            assert status_lines(app) == [
                'no paper has "speculatve" (showing speculative) or "rollot" (showing rollout)'
            ]
        # The words spelt right: nothing to say.
        await pilot.press(*["backspace"] * len("speculatve rollot"))
        await type_text(pilot, "speculative rollout")
        await settle(app, pilot)
        assert app.papers[app.paper_list.rows[0]].title.startswith("BubbleSpec")
        assert status_lines(app) == []


async def test_a_word_being_typed_says_nothing_while_papers_have_words_starting_with_it(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        for typed in ("specul", "speculativ"):
            await type_text(pilot, typed[len(app.search_box.value) :])
            await settle(app, pilot)
            assert status_lines(app) == [], typed


def test_the_notice_names_fewer_spellings_to_fit_one_line() -> None:
    near = [
        NearSpelling("reversal", ("reverse", "reversible", "reversed", "reveal", "rehearsal")),
        NearSpelling("atention", ("attention", "attentions")),
        NearSpelling("bengoi", ("bengio",), "author"),
    ]
    wide = status_text("", near[:2], 200)
    assert wide == (
        'no paper has "reversal"; showing near spellings: reverse, reversible, reversed +2 more;'
        ' no paper has "atention"; showing near spellings: attention, attentions'
    )
    # Too many to say what was shown for each: the words alone.
    assert status_text("", near, 78) == (
        'no paper has "reversal" or "atention"; no author named "bengoi"'
    )
    # Each word with the spellings shown for it, fewer of them, then tersely.
    assert status_text("", near[:2], 81) == (
        'no paper has "reversal" (showing reverse +4) or "atention" (showing attention +1)'
    )
    assert status_text("", near[:2], 78) == (
        'showing reverse +4 for "reversal", attention +1 for "atention"'
    )
    assert status_text("", near, 118) == (
        'showing reverse +4 for "reversal", attention +1 for "atention", bengio for "bengoi"'
    )
    for width in (30, 40, 60, 78, 118):
        text = status_text("", near, width)
        assert len(text) <= width and '"reversal"' in text, (width, text)
    assert (
        status_text("", near, 60) == 'no paper has "reversal" or "atention"; no author named "ben…'
    )
    # Words looked for in one place are said together, whatever the order they were typed in.
    apart = [near[0], near[2], near[1]]
    assert status_text("", apart, 78) == (
        'no paper has "reversal" or "atention"; no author named "bengoi"'
    )
    # Too narrow for even the shortest form: cut, and said to be cut.
    assert status_text("", near, 12) == "no paper ha…"
    # A parse message comes first, on the same line.
    assert status_text("unclosed quote", near[:1], 200).startswith("unclosed quote; no paper has")


async def test_a_words_other_spelling_is_never_offered_as_a_near_spelling(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """Search takes "decentralised" for "decentralized" and "optimisation" for "optimization":
    the line under the search field says nothing of the first, and names the second once for
    the typo "optimisaton", in the spelling most papers use."""
    papers = [
        "Decentralized optimization over networks. We study decentralized optimization.",
        "Fast decentralized optimization with compression. We compress gradients.",
        "Robust optimisation of portfolios. We study decentralised markets.",
    ]
    app = make_app(write_list(tmp_path, "ICML 2020 paper list", papers))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "decentralised")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 3
        assert status_lines(app) == []
        await type_text(pilot, " optimisaton")
        await settle(app, pilot)
        shown = " ".join(status_lines(app))
        assert shown == 'no paper has "optimisaton"; showing near spellings: optimization', shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_filler_word_is_never_taken_for_a_typo_of_the_word_searched(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int]
) -> None:
    """ "width" is one edit from "with", which nearly every abstract has: a search for the
    width of networks showed almost the whole list (2,142 of 3,000 ICML papers), said
    `title: with (width)` of papers that lack the word, and, on a list without "width",
    'showing near spellings: with'."""
    papers = [
        "Wide networks. We study the width of neural networks in the kernel regime.",
        "Sparse coding with dictionaries. We learn a dictionary with few atoms.",
        "Graphs with labels. We classify nodes with a message-passing network.",
    ]
    app = make_app(write_list(tmp_path, "ICML 2020 paper list", papers))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "width")
        await settle(app, pilot)
        assert [app.papers[i].abstract[:11] for i in app.paper_list.rows] == ["Wide networ"]
        assert "1 / 3 shown" in header_text(app)
        assert "(width)" not in " ".join(app.detail.content.plain.split())
        # A list where no paper has the word: it says so, and shows no paper for "with".
        await pilot.press(*["backspace"] * len("width"))
        await type_text(pilot, "widht")
        await settle(app, pilot)
        assert [app.papers[i].abstract[:11] for i in app.paper_list.rows] == ["Wide networ"]
        await pilot.press(*["backspace"] * len("widht"))
        await type_text(pilot, "thee")
        await settle(app, pilot)
        assert list(app.paper_list.rows) == []
        assert "No papers match 'thee'" in screen_line(app, 0)


NEAR_SPELLING_PAPERS = [
    *(
        f"We study domain adaptation for {topic}: a model trained on one domain is tested on"
        " another, and we bound the error by the distance between the two."
        for topic in (
            "speech",
            "images",
            "text",
            "graphs",
            "robots",
            "proteins",
            "tables",
            "video",
            "music",
            "maps",
            "code",
            "sensors",
            "satellites",
            "medical scans",
            "retail",
            "weather",
            "traffic",
            "finance",
            "dialogue",
            "genomics",
            "chemistry",
        )
    ),
    "We generate folk melodies in the Dorian mode with a small recurrent network.",
    *(
        f"Sparsity of the {part} lets us prune most weights with no loss in accuracy."
        for part in ("attention heads", "feed-forward layers", "embeddings")
    ),
    "We learn the parity of bits with a two-layer network and count its samples.",
]
"""Twenty-one abstracts with "domain", one with the musical mode "Dorian"; three with
"sparsity", one with "parity"."""


async def test_a_swap_of_two_letters_is_one_edit_and_the_word_more_papers_have_is_meant(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """The commonest typo swaps two letters: "domian" is one edit from "domain" and from
    "Dorian", which one paper has against twenty-one: the search means domain, says so, and
    does not rank the folk melodies among domain adaptation."""
    app = make_app(write_list(tmp_path, "ICML 2020 paper list", NEAR_SPELLING_PAPERS))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "domian")
        await settle(app, pilot)
        assert status_lines(app) == ['no paper has "domian"; showing near spellings: domain']
        titles = [app.papers[i].abstract for i in app.paper_list.rows]
        assert len(titles) == 21 and not any("Dorian" in title for title in titles)
        # The first two letters swapped: not a word starting with "p" two edits away.
        await pilot.press(*["backspace"] * len("domian"))
        await type_text(pilot, "psarsity")
        await settle(app, pilot)
        shown = " ".join(status_lines(app))
        assert shown.startswith('no paper has "psarsity"; showing near spellings: sparsity')
        assert app.papers[app.paper_list.rows[0]].abstract.startswith("Sparsity"), shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_phrase_or_word_no_paper_has_is_said_while_others_find_papers(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        # Both words are in BubbleSpec's abstract, never side by side.
        await type_text(pilot, 'rollout "speculative training"')
        await settle(app, pilot)
        assert app.paper_list.divider == 0  # "no paper has every word", on top
        assert app.papers[app.paper_list.rows[0]].title.startswith("BubbleSpec")
        assert status_lines(app) == ['no paper has "speculative training"']
        # An exact word no paper has, which has no near spelling either.
        await pilot.press("ctrl+u")
        await type_text(pilot, "rollout 'qxzvq")
        await settle(app, pilot)
        assert app.paper_list.rows
        assert status_lines(app) == ['no paper has "qxzvq"']
        # Found: nothing to say.
        await pilot.press("ctrl+u")
        await type_text(pilot, 'rollout "speculative rollout"')
        await settle(app, pilot)
        assert app.paper_list.divider != 0
        assert status_lines(app) == []


async def test_title_filter_on_made_up_titles_says_they_are_made_up(tmp_path: Path) -> None:
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.core.resources import bundled_list

    sgd60 = Path(__file__).parent.parent / "data" / "icml-sgd60.txt"
    app = PaperdeckApp(
        load_library([sgd60]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        # Every title of this list is made up from its abstract's first sentence.
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "title:decentralized sgd")
        await settle(app, pilot)
        status = app.query_one("#search-status")
        assert status.display
        said = status.render_line(0).text.strip()
        assert said == "≈ titles are made up: drop title: to search abstracts"
        # Without title:, nothing to say.
        await pilot.press("ctrl+u")
        await type_text(pilot, "decentralized")
        await settle(app, pilot)
        assert not status.display
    # A list with real titles: title: looks in them, nothing said.
    app = PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes2.json"),
        settings_file=tmp_path / "settings2.json",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "title:speculative")
        await settle(app, pilot)
        assert app.paper_list.rows
        assert not app.query_one("#search-status").display


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_word_no_paper_has_is_said_once_and_the_title_remark_whole(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # Seen at 80x24 on the 3,000-paper ICML list: a title: search with a word glued by "/"
    # said 'no paper has "forests/strategic" (a new search: Enter, then /) or "zzyzx"; ≈…',
    # the remark on made-up titles cut to its first letter; and a word with no near spelling
    # beside one with some read 'no paper has "zzyzx"; no paper has "momentm" (showing ...)'.
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore

    sgd60 = Path(__file__).parent.parent / "data" / "icml-sgd60.txt"
    app = PaperdeckApp(
        load_library([sgd60]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "title:decentralized sgd zzyzx sgd/quantum")
        await settle(app, pilot)
        assert app.paper_list.rows
        assert status_lines(app) == [
            'no paper has "zzyzx" or "sgd/quantum" (a new search: Enter, then /)',
            "≈ titles are made up: drop title: to search abstracts",
        ]
        await pilot.press("ctrl+u")
        await type_text(pilot, "zzyzx decentralized momentm")
        await settle(app, pilot)
        assert status_lines(app) == ['no paper has "zzyzx" or "momentm" (showing momentum)']
        # The list gets its line back.
        await pilot.press("ctrl+u")
        await type_text(pilot, "decentralized")
        await settle(app, pilot)
        assert status_lines(app) == []


async def test_a_slash_typed_in_the_field_that_glues_words_says_how_to_search_anew(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list: "/" pressed in the search field to start
    # a new search is typed there (it joins words, as in k-median/means), so the list showed
    # 'unlerning random forests/strategic clasification causal', no paper with every word,
    # and nothing on screen said why.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"speculative", "slash", *"privacy")
        await settle(app, pilot)
        assert app.search_box.value == "speculative/privacy"
        said = 'no paper has "speculative/privacy" (a new search: Enter, then /)'
        assert status_lines(app) == [said]
        # As it says: the new search replaces the query.
        await pilot.press("enter", "slash", *"privacy")
        await settle(app, pilot)
        assert app.search_box.value == "privacy"
        assert status_lines(app) == []


async def test_a_slash_that_would_begin_the_query_is_not_typed(make_app: MakeApp) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list: in the field, emptied with Ctrl+U, "/"
    # pressed to start a search was typed, and the line under it read 'no paper has
    # "/title:lanczos" (a new search: Enter, then /)', a '/' that joined nothing.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"privacy", "ctrl+u", "slash", *"speculative")
        await settle(app, pilot)
        assert app.search_box.value == "speculative"
        assert status_lines(app) == []
        # Pressed again on a query all selected (as `/` leaves it), it stays selected: what is
        # typed next replaces it.
        await pilot.press("enter", "slash", "slash", *"privacy")
        await settle(app, pilot)
        assert app.search_box.value == "privacy"
        # Between words it is typed, as ever.
        await pilot.press("slash", *"federated")
        await settle(app, pilot)
        assert app.search_box.value == "privacy/federated"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_field_name_typed_wrong_is_said_with_the_field_meant(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    # Seen in tmux at 80x24: "titel:transport" listed nothing, and only "No papers match"
    # was said; "autor:zhang" said near spellings of "autor" (actor, auto) and listed none.
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "titel:speculative")
        await settle(app, pilot)
        assert status_lines(app)[0].startswith("titel: is not a field (did you mean title:?)")
        await pilot.press(*["backspace"] * len("titel:speculative"))
        await type_text(pilot, "autor:zhang")
        await settle(app, pilot)
        assert status_lines(app)[0].startswith("autor: is not a field (did you mean author:?)")
        # The field typed right: the papers, and nothing to say.
        await pilot.press(*["backspace"] * len("autor:zhang"))
        await type_text(pilot, "author:zhang")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 4 and status_lines(app) == []
        # A word with a colon that is no field's typo is searched, and nothing is said of it.
        await pilot.press(*["backspace"] * len("author:zhang"))
        await type_text(pilot, "arxiv:2502")
        await settle(app, pilot)
        assert not any("field" in line for line in status_lines(app))
