"""Triage in the reader: act and move on, views, marks in bulk, tags added, progress, bursts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ui.test_app import MakeApp, header_text, row_text, saved_notes, settle, type_text
from textual import events

from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.dialogs.tags_dialog import TagsDialog, parse_edit
from paperdeck.ui.widgets.notes_panel import NoteEditor

pytest_plugins = ["tests.ui.test_app"]


def state_of(app: PaperdeckApp, index: int) -> str:
    entry = app.store.get(app.papers[index].id)
    return entry.state if entry is not None else "unread"


def toasts(app: PaperdeckApp) -> str:
    """The text of the toasts shown now."""
    return " | ".join(str(toast.message) for toast in app._notifications)


def starred(app: PaperdeckApp, index: int) -> bool:
    entry = app.store.get(app.papers[index].id)
    return entry is not None and entry.starred


async def test_read_and_next_marks_read_moves_on_and_counts_progress(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "0 / 19 read" in header_text(app)
        await pilot.press("r", "r", "r")
        assert [state_of(app, i) for i in range(4)] == ["read", "read", "read", "unread"]
        assert app.current_paper is app.papers[3]
        assert "3 / 19 read" in header_text(app)
        assert "●" not in row_text(app, 0)[:3] and "●" in row_text(app, 3)[:3]
        assert saved_notes(tmp_path)[app.papers[0].id]["state"] == "read"
        # r on a read paper leaves it read (and moves on): walking back over papers read
        # pressing r undoes nothing.
        await pilot.press("k", "k", "r", "r")
        assert [state_of(app, i) for i in range(4)] == ["read", "read", "read", "unread"]
        assert app.current_paper is app.papers[3]
        assert "3 / 19 read" in header_text(app)
        # U undoes one, the cursor staying on it, and again marks it read.
        await pilot.press("k", "U")
        assert state_of(app, 2) == "unread" and app.current_paper is app.papers[2]
        assert "2 / 19 read" in header_text(app) and "●" in row_text(app, 2)[:3]
        assert "now unread" in toasts(app)
        await pilot.press("U")
        assert state_of(app, 2) == "read" and app.current_paper is app.papers[2]
        assert "3 / 19 read" in header_text(app)


async def test_u_right_after_r_undoes_it_and_s_right_after_s(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "r")
        assert state_of(app, 2) == "read" and app.current_paper is app.papers[3]
        assert "1 / 19 read" in header_text(app)
        # README: U "to undo an r": the paper r marked, not the one it moved on to.
        await pilot.press("U")
        assert state_of(app, 2) == "unread" and state_of(app, 3) == "unread"
        assert app.current_paper is app.papers[2]
        assert "0 / 19 read" in header_text(app) and "now unread" in toasts(app)
        # Once undone, U toggles the paper under the cursor again, staying.
        await pilot.press("U")
        assert state_of(app, 2) == "read" and app.current_paper is app.papers[2]
        # The cursor moved after r (even back to where r left it): U is the cursor's paper.
        await pilot.press("r", "j", "k", "U")
        assert state_of(app, 3) == "read" and app.current_paper is app.papers[3]
        assert state_of(app, 4) == "unread"
        # S right after s: the paper s starred, the cursor back on it; U after s is not it.
        await pilot.press("g", "s")
        assert starred(app, 0) and app.current_paper is app.papers[1]
        await pilot.press("S")
        assert not starred(app, 0) and not starred(app, 1)
        assert app.current_paper is app.papers[0]
        await pilot.press("s", "U")
        assert starred(app, 0) and state_of(app, 1) == "read"
        assert app.current_paper is app.papers[1]


async def test_star_and_next_and_skip_to_the_next_unread(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        assert starred(app, 0) and app.current_paper is app.papers[1]
        assert "★" in row_text(app, 0) and "1 starred" in header_text(app)
        # Papers 2 and 3 read: x from paper 1 skips them to paper 4.
        await pilot.press("j", "r", "r", "k", "k", "k")
        assert app.current_paper is app.papers[1]
        await pilot.press("x")
        assert app.current_paper is app.papers[4]
        assert state_of(app, 1) == "unread"
        # s on a starred paper leaves it starred; S unstars it where it is.
        await pilot.press("k", "k", "k", "k", "s")
        assert starred(app, 0) and app.current_paper is app.papers[1]
        assert "1 starred" in header_text(app)
        await pilot.press("k", "S")
        assert not starred(app, 0) and app.current_paper is app.papers[0]
        assert "★" not in row_text(app, 0) and "0 starred" in header_text(app)
        await pilot.press("S")
        assert starred(app, 0) and app.current_paper is app.papers[0]


async def test_unread_starred_and_marked_views_combine_with_the_search(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "r", "s", "s")  # 0, 1 read; 2, 3 starred
        await pilot.press("u")
        await settle(app, pilot)
        assert list(app.paper_list.rows) == list(range(2, 19))
        assert "view: unread" in header_text(app) and "17 / 19" in header_text(app)
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert sorted(app.paper_list.rows) == [2, 3]
        assert "view: unread + starred" in header_text(app)
        await pilot.press("u")
        await settle(app, pilot)
        assert sorted(app.paper_list.rows) == [2, 3]
        # A search narrows the view further; the search box holds only what was typed.
        await pilot.press("slash")
        await type_text(pilot, app.papers[3].title.split(":")[0])
        await settle(app, pilot)
        assert list(app.paper_list.rows) == [3]
        assert app.search_box.value == app.papers[3].title.split(":")[0]
        await pilot.press("escape", "asterisk")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 19 and "view:" not in header_text(app)
        # The marked view: only marked papers, and only while there are marks.
        await pilot.press("m")
        assert len(app.paper_list.rows) == 19
        await pilot.press("g", "space", "j", "space", "m")
        await settle(app, pilot)
        assert sorted(app.paper_list.rows) == [0, 2]
        assert "view: marked" in header_text(app)
        await pilot.press("m")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 19


async def test_marks_all_shown_clear_invert_and_act_in_bulk(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("asterisk")  # no starred paper: an empty view
        await settle(app, pilot)
        await pilot.press("asterisk", "a")
        await settle(app, pilot)
        assert app.paper_list.marked == set(range(19))
        assert "19 marked" in header_text(app)
        await pilot.press("A")
        assert not app.paper_list.marked and "marked" not in header_text(app)
        assert "19 marks cleared: A puts them back" in toasts(app)
        # A again at once undoes the clear.
        await pilot.press("A")
        await settle(app, pilot)
        assert app.paper_list.marked == set(range(19)) and "19 marked" in header_text(app)
        assert "19 marks put back" in toasts(app)
        await pilot.press("A")
        await settle(app, pilot)
        # Once a paper is marked again, A clears that mark and puts back only it.
        await pilot.press("space", "A")
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        assert app.paper_list.marked == {0}
        await pilot.press("A")
        await settle(app, pilot)
        assert not app.paper_list.marked
        await pilot.press("g")
        await pilot.press("space", "space")  # marks 0 and 1
        await pilot.press("i")
        assert app.paper_list.marked == set(range(2, 19))
        await pilot.press("i", "s")  # star both marked; the cursor stays
        cursor = app.current_paper
        assert starred(app, 0) and starred(app, 1) and not starred(app, 2)
        assert app.current_paper is cursor
        await pilot.press("r")
        assert state_of(app, 0) == state_of(app, 1) == "read"
        assert "2 / 19 read" in header_text(app)
        await pilot.press("t")
        assert isinstance(app.screen, TagsDialog)
        await type_text(pilot, "theory")
        await pilot.press("enter")
        notes = saved_notes(tmp_path)
        assert notes[app.papers[0].id]["tags"] == notes[app.papers[1].id]["tags"] == ["theory"]


async def test_tags_are_added_removed_with_a_minus_and_completed(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        paper = app.papers[0]
        await pilot.press("t")
        await type_text(pilot, "theory rl")
        await pilot.press("enter")
        assert "#theory" in row_text(app, 0) and "#rl" in row_text(app, 0)
        # The dialog opens empty: typing adds, it never wipes the tags already there.
        await pilot.press("t")
        dialog = app.screen
        assert isinstance(dialog, TagsDialog)
        assert app.screen.query_one("#tags-input").value == ""  # type: ignore[attr-defined]
        assert "#theory #rl" in str(app.screen.query_one("#tags-current").render())
        await type_text(pilot, "bandits")
        await pilot.press("enter")
        assert saved_notes(tmp_path)[paper.id]["tags"] == ["theory", "rl", "bandits"]
        # -name removes; Esc changes nothing.
        await pilot.press("t", "minus", "r", "l", "enter")
        assert saved_notes(tmp_path)[paper.id]["tags"] == ["theory", "bandits"]
        await pilot.press("t", "x", "escape")
        assert saved_notes(tmp_path)[paper.id]["tags"] == ["theory", "bandits"]
        status = str(app.query_one("#notes-status").render())
        assert "#theory #bandits" in status
        # On another paper, → completes a tag used before.
        await pilot.press("j", "t", "b", "a")
        await pilot.pause()
        await pilot.press("right", "enter")
        assert saved_notes(tmp_path)[app.papers[1].id]["tags"] == ["bandits"]


def test_a_tags_line_parses_into_adds_and_removes() -> None:
    edit = parse_edit("#a, b -c  -#d a")
    assert edit.add == ["a", "b"] and edit.remove == ["c", "d"]
    assert parse_edit("x -x").add == []


async def test_keys_after_slash_and_ctrl_u_in_a_burst_all_reach_the_search_field(
    make_app: MakeApp,
) -> None:
    # Typed fast from the list: Ctrl+U used to run after the letters behind it and wipe them.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app._driver is not None
        burst = [("slash", "/"), ("ctrl+u", None)] + [(c, c) for c in "bandit"]
        for key, character in burst:
            app._driver.send_message(events.Key(key, character))
        await settle(app, pilot)
        assert app.search_box.value == "bandit"
        await pilot.press("escape")
        burst = [("slash", "/")] + [(c, c) for c in "ab"] + [("backspace", None), ("c", "c")]
        for key, character in burst:
            app._driver.send_message(events.Key(key, character))
        await settle(app, pilot)
        assert app.search_box.value == "ac"


async def test_keys_after_enter_down_or_esc_in_a_burst_act_on_the_list(make_app: MakeApp) -> None:
    # Typed fast: "/graph", Enter and r arrive together. The r used to land in the query
    # ("graphr", nothing marked read); after Esc a j was typed into the emptied field.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app._driver is not None

        def burst(*keys: tuple[str, str | None]) -> None:
            assert app._driver is not None
            for key, character in keys:
                app._driver.send_message(events.Key(key, character))

        typed = [(c, c) for c in "graph"]
        burst(("slash", "/"), *typed, ("enter", "\r"), ("r", "r"))
        await settle(app, pilot)
        assert app.search_box.value == "graph"
        assert app.screen.focused is app.paper_list
        first, second = app.paper_list.rows[0], app.paper_list.rows[1]
        assert state_of(app, first) == "read"  # r read the best result and went on
        assert app.paper_list.paper_index == second
        assert "1 / 19 read" in header_text(app).replace(",", "")

        burst(("slash", "/"), ("down", None), ("k", "k"))
        await settle(app, pilot)
        assert app.search_box.value == "graph" and app.paper_list.paper_index == first

        burst(("slash", "/"), ("escape", None), ("k", "k"))
        await settle(app, pilot)
        assert app.search_box.value == "" and app.screen.focused is app.paper_list
        assert first > 0 and app.paper_list.paper_index == first - 1  # the whole list, one up


async def test_the_session_is_restored_when_the_list_is_opened_again(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "space", "space", "j", "j", "u")
        await pilot.press("slash")
        await type_text(pilot, "learning")
        await pilot.press("enter")
        await settle(app, pilot)
        cursor = app.current_paper
        assert cursor is not None
        rows = list(app.paper_list.rows)
        await pilot.press("q")
    saved = json.loads((tmp_path / "sessions.json").read_text(encoding="utf-8"))
    assert len(saved["lists"]) == 1

    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(again, pilot)
        assert again.search_box.value == "learning"
        assert again.triage.views == {"unread"}
        assert again.paper_list.marked == {1, 2}
        assert list(again.paper_list.rows) == rows
        assert again.current_paper is not None and again.current_paper.id == cursor.id
        assert "view: unread" in header_text(again) and "2 marked" in header_text(again)


async def test_the_searches_of_a_run_are_there_on_up_when_the_list_is_opened_again(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for query in ("diffusion", "speculative decoding"):
            await pilot.press("slash")
            await type_text(pilot, query)
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("escape")  # every paper again; the search kept for ↑
            await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "graph")  # still in the field when the reader quits
        await settle(app, pilot)
        await pilot.press("enter", "q")

    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(again, pilot)
        await pilot.press("slash", "escape", "slash")  # an empty field: ↑ goes back from here
        shown = []
        for _ in range(3):
            await pilot.press("up")
            shown.append(again.search_box.value)
        assert shown == ["graph", "speculative decoding", "diffusion"]


async def test_up_in_the_field_showing_the_last_search_goes_to_the_one_before(
    make_app: MakeApp,
) -> None:
    # Enter keeps the search; `/` from the list selects it; the first ↑ showed it again.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for query in ("diffusion", "speculative decoding"):
            await pilot.press("slash")
            await type_text(pilot, query)
            await pilot.press("enter")
            await settle(app, pilot)
        await pilot.press("slash")
        assert app.search_box.value == "speculative decoding"
        await pilot.press("up")
        assert app.search_box.value == "diffusion"
        await pilot.press("up")
        assert app.search_box.value == "diffusion"  # the first search: ↑ stays on it


async def test_keys_typed_right_after_esc_in_the_note_reach_the_list_not_the_note(
    make_app: MakeApp,
) -> None:
    # Esc then q (or j) typed fast: the key used to land in the note before the focus moved.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app._driver is not None
        app._driver.send_message(events.Key("n", "n"))
        # The burst starts once the note has the focus: keys sent before it land in the list.
        for _ in range(200):
            if isinstance(app.screen.focused, NoteEditor):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen.focused, NoteEditor)
        burst = [("o", "o"), ("k", "k"), ("escape", None), ("j", "j"), ("j", "j")]
        for key, character in burst:
            app._driver.send_message(events.Key(key, character))
        await settle(app, pilot)
        assert app.store.get(app.papers[0].id).note == "ok"  # type: ignore[union-attr]
        assert app.screen.focused is app.paper_list
        assert app.current_paper is app.papers[2]


async def test_marks_in_bulk_are_counted_as_the_header_counts(
    make_app: MakeApp, tmp_path: Path
) -> None:
    from paperdeck.core.resources import bundled_list

    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    long = tmp_path / "long.txt"
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(1200)]
    long.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    app = make_app(long)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        assert "1,200 papers marked" in toasts(app) and "1,200 marked" in header_text(app)
        await pilot.press("A")
        assert "1,200 marks cleared: A puts them back" in toasts(app)


async def test_the_shown_count_under_the_unread_view_follows_r_and_U(make_app: MakeApp) -> None:
    """A paper read under the unread view stays in place; the header stops counting it as
    shown (unread) and says it is left in place, so counts and rows agree."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "u")
        await settle(app, pilot)
        assert "18 / 19 shown" in header_text(app) and "1 / 19 read" in header_text(app)
        await pilot.press("r", "r")
        assert len(app.paper_list.rows) == 18  # the two read stay in place
        assert "16 / 19 shown +2 left in place" in header_text(app)
        assert "3 / 19 read" in header_text(app)
        await pilot.press("k", "U")
        assert "17 / 19 shown +1 left in place" in header_text(app)
        assert "2 / 19 read" in header_text(app)
        await pilot.press("u", "u")  # the view applied again drops what no longer fits
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 17 and "17 / 19 shown" in header_text(app)
        assert "left in place" not in header_text(app)


def top_line(app: PaperdeckApp) -> str:
    """The screen's first line as the user sees it (a toast over the header included)."""
    return app.screen._compositor.render_strips()[0].text


async def test_with_papers_marked_the_export_key_is_on_screen_at_80x24(make_app: MakeApp) -> None:
    # Seen in a triage run at 80x24: the footer is full and has no `e`; a user with 40 papers
    # marked learned how to export them only from `?`.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "export" not in top_line(app)  # nothing marked: nothing more said
        await pilot.press("space", "space", "space")
        await settle(app, pilot)
        assert "3 marked · e export" in top_line(app)
        # Under a search, with the read count and a view, the name gives way, not the key.
        await pilot.press("r", "m", "slash")
        await type_text(pilot, "learning")
        await settle(app, pilot)
        assert "e export" in top_line(app), top_line(app)
        await pilot.press("escape", "A")
        await settle(app, pilot)
        assert "export" not in top_line(app)


async def test_starring_marked_papers_at_80x24_shows_the_starred_count(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list: with papers marked the header had no
    # room for '· 0 noted · 2 starred', and 's' on the marked papers changed a count it no
    # longer showed. A list of 1,000 with a name as long takes the header's room as that did.
    sample = [
        f"We study problem {number} of learning with {number % 7} experts and prove a bound "
        f"of order {number} on the regret of a new method, then test it on {number} tasks."
        for number in range(1000)
    ]
    listed = tmp_path / "icml-2020-2023.txt"
    listed.write_text("ICML 2020-2023 paper list\n\n" + "\n\n".join(sample) + "\n")
    app = make_app(listed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "s", "space", "space")
        await settle(app, pilot)
        assert "2 starred" in top_line(app) and "2 marked · e export" in top_line(app)
        await pilot.press("s")
        await settle(app, pilot)
        assert says_starred(top_line(app), 4), top_line(app)
        assert "2 marked · e export" in top_line(app)
        await pilot.press("n")
        await type_text(pilot, "to read first")
        await pilot.press("escape")
        await settle(app, pilot)
        # Both counts, and the marked count's key: the total is in '0 / 1,000 read'.
        assert "1 noted · 4 starred" in top_line(app), top_line(app)
        assert "0 / 1,000 read" in top_line(app) and "2 marked · e export" in top_line(app)
        assert top_line(app).startswith(" ICML 2020"), top_line(app)


def icml_list(folder: Path, count: int) -> Path:
    """A list of `count` papers under a name too long for the header at 80 columns."""
    sample = [
        f"We study problem {number} of learning with {number % 7} experts and prove a bound "
        f"of order {number} on the regret of a new method, then test it on {number} tasks."
        + (" Robust to noise." if number % 5 == 0 else "")
        for number in range(count)
    ]
    listed = folder / "icml-2020-2023.txt"
    listed.write_text("ICML 2020-2023 paper list\n\n" + "\n\n".join(sample) + "\n")
    return listed


def says_starred(line: str, count: int) -> bool:
    """The header counts `count` papers starred, in its long or its short form."""
    return f"{count} starred" in line or f"★ {count}" in line


async def test_the_starred_count_stays_in_sight_through_searches_at_80x24(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # A researcher picking 40 papers over several searches counts the stars as they go; a
    # search's counts took the place of the list's and the starred count went with them.
    app = make_app(icml_list(tmp_path, 1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "robust regret")
        await pilot.press("enter")
        await settle(app, pilot)
        assert "with every word" in top_line(app), top_line(app)
        assert "starred" not in top_line(app) and "★" not in top_line(app), top_line(app)
        await pilot.press("s", "s", "s")
        await settle(app, pilot)
        assert says_starred(top_line(app), 3), top_line(app)
        # A second search: the stars of the first are still counted.
        await pilot.press("slash")
        await type_text(pilot, "experts")
        await pilot.press("enter", "G", "s")
        await settle(app, pilot)
        assert says_starred(top_line(app), 4), top_line(app)
        assert "0 / 1,000 read" in top_line(app), top_line(app)


async def test_a_list_name_cut_in_the_header_ends_after_a_word(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen at 80x24: "ICML 2020-20…  2 with every word" read as "…2 with every word", the
    # name cut inside a number just before the count.
    app = make_app(icml_list(tmp_path, 1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "robust regret")
        await pilot.press("enter")
        await settle(app, pilot)
        line = top_line(app)
        name = line.split("  ")[0].strip()
        assert name.startswith("ICML 2020") and name.endswith("…"), line
        kept, title = name.removesuffix("…"), "ICML 2020-2023 paper list"
        assert title[len(kept)] == " " or kept.endswith("-"), line
        assert "with every word · " in line and " shown" in line, line


async def test_the_starred_view_during_a_search_says_it_shows_only_the_matching_ones(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen in a triage run: 40 papers starred over four searches, then `*` during the last
    # search showed 15, said as "Showing starred papers"; `e` then offered "Papers in this
    # view (15)" first, and Enter would have exported 15 of the 40.
    from paperdeck.ui.dialogs.export_dialog import ScopeButton

    app = make_app(icml_list(tmp_path, 1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "s", "s")
        await pilot.press("slash")
        await type_text(pilot, "robust")
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 1
        said = toasts(app)
        assert "starred papers matching “robust”" in said, said
        assert "3 papers starred in all" in said and "Esc" in said, said
        await pilot.press("e")
        await settle(app, pilot)
        labels = [str(button.label) for button in app.screen.query(ScopeButton)]
        assert "Starred papers (3)" in labels, labels
        assert "Papers shown: starred matching “robust” (1)" in labels, labels


async def test_the_first_r_and_s_say_what_they_did_and_how_to_undo_it(make_app: MakeApp) -> None:
    # At 80 columns the footer says "r Read": pressed to read the paper, r marked it read and
    # moved on, and nothing said so.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        said = toasts(app)
        assert "Marked read, on to the next paper" in said and "U undoes" in said, said
        assert "Enter reads the abstract" in said, said
        app.clear_notifications()
        await pilot.press("r", "r")
        await settle(app, pilot)
        assert "Marked read" not in toasts(app)  # once: a walk down pressing r is quiet
        await pilot.press("s")
        await settle(app, pilot)
        said = toasts(app)
        assert "Starred, on to the next paper" in said and "* shows the starred" in said, said
        assert state_of(app, 0) == "read" and starred(app, 3)


async def test_the_first_mark_says_what_acts_on_the_marked_papers(make_app: MakeApp) -> None:
    # Space drew a bar by the row and moved on: nothing said what marks are for.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space")
        await settle(app, pilot)
        said = toasts(app)
        assert said.startswith("Paper marked: "), said
        assert "e exports the marked papers" in said and "A clears marks" in said, said
        # Drawn whole at 80 columns.
        shown = " ".join(" ".join(str(t.render()).split()) for t in app.screen.query("Toast"))
        assert "e exports the marked papers; r s t c read, star, tag or cite them all" in shown
        app.clear_notifications()
        await pilot.press("space", "space")
        await settle(app, pilot)
        assert toasts(app) == ""  # once: marking down a list is quiet
        await pilot.press("a")
        await settle(app, pilot)
        assert toasts(app) == "19 papers marked"


async def test_a_first_space_that_unmarks_does_not_say_a_paper_was_marked(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.triage.set_marks({0, 1})  # marks the list was left with, put back on opening
        await settle(app, pilot)
        await pilot.press("space")  # on paper 0: unmarked
        await settle(app, pilot)
        assert app.paper_list.marked == {1}
        assert "Paper marked" not in toasts(app), toasts(app)
        await pilot.press("space")  # on paper 1: unmarked too
        await pilot.press("space")  # paper 2 marked: now it is said
        await settle(app, pilot)
        assert toasts(app).startswith("Paper marked: e exports"), toasts(app)


async def test_tags_on_one_marked_paper_say_one_paper(make_app: MakeApp) -> None:
    # "Tags for 1 marked papers", then "Tags changed on 1 of 1 marked papers".
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "t")
        assert isinstance(app.screen, TagsDialog)
        title = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert "Tags for 1 marked paper" in title and "1 marked papers" not in title, title
        await type_text(pilot, "to-read")
        await pilot.press("enter")
        await settle(app, pilot)
        assert toasts(app).endswith("Tags changed on 1 marked paper"), toasts(app)
        await pilot.press("j", "space", "t")
        await type_text(pilot, "to-read")
        await pilot.press("enter")
        await settle(app, pilot)
        assert toasts(app).endswith("Tags changed on 1 of 2 marked papers"), toasts(app)


async def test_u_right_after_r_on_the_marks_puts_each_back_as_it_was(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen in tmux on 5,000 papers, 4 read over the session: `a` then `r` read them all, and
    # U, pressed to undo that, toggled all 5,000 to unread: the 4 read before were lost too.
    from tests.ui.test_narrow_notices import said, shown

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "r", "s")  # papers 0 and 1 read, 2 starred
        await pilot.press("a", "r")
        await settle(app, pilot)
        await shown(pilot)
        assert "19 / 19 read" in header_text(app)
        assert "19 marked papers read · U undoes" in said(app), said(app)
        await pilot.press("U")
        await settle(app, pilot)
        await shown(pilot)
        assert [state_of(app, i) for i in range(4)] == ["read", "read", "unread", "unread"]
        assert "2 / 19 read" in header_text(app), header_text(app)
        assert "Undone: 19 marked papers as they were (2 of them read before)" in said(app)
        # The rows say it too: the unread dot is back on the third paper, not on the first.
        assert "●" not in row_text(app, 0)[:3] and "●" in row_text(app, 2)[:3]
        assert saved_notes(tmp_path)[app.papers[0].id]["state"] == "read"
        assert saved_notes(tmp_path)[app.papers[2].id]["state"] == "unread"
        # U again is the toggle it always was: every marked paper read.
        await pilot.press("U")
        assert "19 / 19 read" in header_text(app)
        # S right after s on the marks: the one starred before stays starred.
        await pilot.press("s")
        assert all(starred(app, i) for i in range(19))
        await pilot.press("S")
        assert [starred(app, i) for i in range(4)] == [False, False, True, False]
        # The cursor moved since (the marks are what U acts on): U still puts each back.
        await pilot.press("U")  # all 19 were read: all unread
        await pilot.press("A", "g", "r", "A")  # the first read alone, the marks put back
        await pilot.press("r", "j", "j", "U")
        assert [state_of(app, i) for i in range(3)] == ["read", "unread", "unread"]
        # Once anything else is done to papers (here a tag), U toggles as it always did.
        await pilot.press("r", "t")
        await type_text(pilot, "x")
        await pilot.press("enter", "U")
        assert all(state_of(app, i) == "unread" for i in range(19))
