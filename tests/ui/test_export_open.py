"""Reading-list export from the reader, path completion, and opening a page or PDF."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import bibtexparser
import pytest
from tests.ui.test_app import MakeApp, settle, type_text
from textual.geometry import Region
from textual.widgets import Input, OptionList, TextArea

from paperdeck.core.config import sessions_path
from paperdeck.core.formats.reader import looks_like_list
from paperdeck.core.reading_list import markdown_escape
from paperdeck.core.resources import bundled_list
from paperdeck.core.session import ListSession, save_session, session_key
from paperdeck.core.titles.derive import cited_title
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.dialogs.citation_dialog import CitationDialog
from paperdeck.ui.dialogs.export_dialog import ExportDialog
from paperdeck.ui.dialogs.open_dialog import NoBrowserDialog
from paperdeck.ui.dialogs.open_list_dialog import OpenListDialog
from paperdeck.ui.dialogs.path_dialog import PathSuggester

pytest_plugins = ["tests.ui.test_app"]


async def clear_input(pilot: object) -> None:
    await pilot.press("ctrl+a", "ctrl+k")  # type: ignore[attr-defined]


async def test_export_the_starred_view_as_markdown_then_the_marked_as_bibtex(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # paths typed short: a key press costs a frame
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j", "s", "s")  # papers 4 and 5 starred
        await pilot.press("asterisk")
        await settle(app, pilot)
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        assert "Format: Markdown" in str(app.screen.query_one("#export-format").render())
        await clear_input(pilot)
        await type_text(pilot, "starred.md")
        await pilot.press("enter")
        assert not isinstance(app.screen, ExportDialog)
        text = (tmp_path / "starred.md").read_text(encoding="utf-8")
        assert "1. [BubbleSpec" in text and "2. [Formalizing" in text and "3. " not in text
        # Marked papers go out as BibTeX when the path ends in .bib.
        await pilot.press("asterisk")
        await settle(app, pilot)
        await pilot.press("g", "space", "space", "e")
        await clear_input(pilot)
        await type_text(pilot, "marked.bib")
        assert "Format: BibTeX" in str(app.screen.query_one("#export-format").render())
        await pilot.press("enter")
        entries = bibtexparser.parse_string(
            (tmp_path / "marked.bib").read_text(encoding="utf-8")
        ).entries
        assert [entry.fields_dict["title"].value[:14] for entry in entries] == [
            "{InteractScien",
            "Multi-Adapter ",
        ]


async def test_marked_papers_export_as_ris_for_a_reference_manager(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zotero, EndNote and Mendeley import RIS: a path ending in .ris writes one record per
    marked paper, its title as cited and its citation key, read back by rispy."""
    import rispy

    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "j", "j", "space", "e")
        assert isinstance(app.screen, ExportDialog)
        assert ".ris RIS" in str(app.screen.query_one("#export-keys").render())
        await clear_input(pilot)
        await type_text(pilot, "picked.ris")
        assert "Format: RIS" in str(app.screen.query_one("#export-format").render())
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, ExportDialog)
        data = (tmp_path / "picked.ris").read_bytes()
        records = rispy.loads(data.decode("utf-8"))
        picked = [app.papers[index] for index in sorted(app.paper_list.marked)]
        assert len(records) == 2
        for record, paper in zip(records, picked, strict=True):
            assert record["title"].startswith(paper.title.removesuffix("…")), record
        keys = app.citations.keys()
        assert [record["id"] for record in records] == [keys[paper.id] for paper in picked]
        assert data.count(b"\r\n") == data.count(b"\n")  # the specification's line ends
        messages = [n.message for n in app._notifications]
        assert any("2 papers as RIS" in m for m in messages), messages


async def test_the_path_offered_by_default_never_replaces_an_earlier_export(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / "reading-list.md"
    earlier.write_text("my earlier reading list\n", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("g", "space", "e", "enter")  # the first paper marked, Enter at once
        await settle(app, pilot)
        assert earlier.read_text(encoding="utf-8") == "my earlier reading list\n"
        written = (tmp_path / "reading-list-2.md").read_text(encoding="utf-8")
        assert written.startswith("# Reading list\n\n1. [InteractScience")
        messages = [n.message for n in app._notifications]
        assert any(
            m.split(" · ")[0].endswith(str(tmp_path / "reading-list-2.md")) for m in messages
        ), messages
        await pilot.press("e", "enter")
        await settle(app, pilot)
        assert (tmp_path / "reading-list-3.md").exists()


@pytest.mark.parametrize("typed", ["bib", ".bib", "BibTeX"])
async def test_a_formats_name_typed_alone_exports_the_offered_file_in_that_format(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    """In a triage run, "bib" typed over the offered path (the field selects it) wrote a
    Markdown file named bib: the dialog said "Format: Markdown" under it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reading-list.md").write_text("an earlier list\n", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "e")
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.query_one("#export-path", Input).value.endswith("reading-list-2.md")
        await type_text(pilot, typed)
        said = str(app.screen.query_one("#export-format").render())
        assert "Format: BibTeX" in said and "reading-list.bib" in said, said
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, ExportDialog)
        assert sorted(path.name for path in tmp_path.iterdir() if path.is_file()) == [
            "reading-list.bib",
            "reading-list.md",
        ]
        entries = bibtexparser.parse_string(
            (tmp_path / "reading-list.bib").read_text(encoding="utf-8")
        ).entries
        assert len(entries) == 2


async def test_export_to_the_clipboard_with_ctrl_y(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "e")
        await clear_input(pilot)
        await type_text(pilot, "x.csv")
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert app.export.last_text.startswith("title,authors,venue,year")
        assert len(app.export.last_text.strip().splitlines()) == 2


async def test_the_path_suggester_completes_names_in_the_folder(tmp_path: Path) -> None:
    (tmp_path / "reading-2026.md").write_text("", encoding="utf-8")
    (tmp_path / "results").mkdir()
    suggester = PathSuggester()
    assert await suggester.get_suggestion(str(tmp_path / "rea")) == str(
        tmp_path / "reading-2026.md"
    )
    assert await suggester.get_suggestion(str(tmp_path / "res")) == str(tmp_path / "results") + "/"
    assert await suggester.get_suggestion(str(tmp_path / "zz")) is None


async def test_without_a_browser_o_and_p_offer_to_copy_the_link(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no clipboard tool either: the link is shown

    def no_browser(using: str | None = None) -> webbrowser.BaseBrowser:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    opened: list[str] = []
    app = make_app()
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j", "p")
        assert isinstance(app.screen, NoBrowserDialog)
        assert app.screen.url.endswith("xu26bc.pdf")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.export.last_text.endswith("xu26bc.pdf") and not opened
        assert isinstance(app.screen, CitationDialog)  # the copy is not confirmed: shown
        await pilot.press("escape")
        await pilot.press("o")
        assert isinstance(app.screen, NoBrowserDialog)
        assert app.screen.url == "https://proceedings.mlr.press/v306/xu26bc.html"
        await pilot.press("escape")
        assert not isinstance(app.screen, NoBrowserDialog)


async def test_with_a_browser_o_opens_the_page(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser("firefox"))
    opened: list[str] = []
    app = make_app()
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j", "o", "p")
        assert opened == [
            "https://proceedings.mlr.press/v306/xu26bc.html",
            "https://raw.githubusercontent.com/mlresearch/v306/main/assets/xu26bc/xu26bc.pdf",
        ]


def test_a_text_mode_browser_does_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from paperdeck.core.browser import usable_browser

    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser("lynx"))
    assert usable_browser() is None
    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser("firefox"))
    assert usable_browser() == "firefox"


async def test_a_paper_without_a_page_names_its_abstracts_link_for_what_it_is(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "bare.txt"
    path.write_text(
        "A list\n\nWe prove a bound on widgets. Code: https://github.com/someone/widgets.\n\n"
        "Another abstract about gadgets, with no link at all.\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser("firefox"))
    opened: list[str] = []
    app = make_app(path)
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        # The detail pane calls the link what it is: no "Page" line for a code repository.
        lines = [strip.text.rstrip() for strip in app.detail._strips]
        assert "Code      https://github.com/someone/widgets" in lines
        assert not any(line.startswith(("Page", "Link")) for line in lines)
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == ["https://github.com/someone/widgets"]
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == (
            "No page is known for this paper; its abstract's code link: asked firefox to open "
            "https://github.com/someone/widgets"
        )
        # A paper with no page and no link says so, and opens nothing.
        await pilot.press("j", "o")
        await settle(app, pilot)
        assert opened == ["https://github.com/someone/widgets"]
        assert str(list(app._notifications)[-1].message) == "No page is known for this paper"


async def test_an_exported_made_up_title_says_so_where_it_is_read(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    bare = tmp_path / "icml.txt"  # the bundled list without its metadata: no titles
    bare.write_bytes(bundled_list().read_bytes())
    app = make_app(bare)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        first = app.papers[0]
        assert first.title_derived
        await pilot.press("space", "e")
        await pilot.press("ctrl+y")  # no clipboard: the reading list is shown to copy by hand
        await settle(app, pilot)
        assert isinstance(app.screen, CitationDialog)
        shown = app.screen.query_one("#citation-text", TextArea)
        assert shown.region.height > 0
        entry = shown.text.splitlines()[2]
        # the row cuts the made-up title; the reading list gives it whole, as its citation does
        whole = cited_title(first.abstract) if first.title.endswith("…") else first.title
        assert entry == f"1. **{markdown_escape(whole)}** (title derived from the abstract)\\"


async def test_the_export_dialog_counts_a_long_list_as_the_header_does(
    make_app: MakeApp, tmp_path: Path
) -> None:
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    long = tmp_path / "long.txt"
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(1200)]
    long.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    app = make_app(long)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "1,200 papers" in str(app.query_one("#header").render())
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        shown = app.screen.query_one("#scope-view")
        assert shown.region.height > 0
        assert "Papers in this view (1,200)" in str(shown.render())


def scope_lines(app: object) -> dict[str, str]:
    """Each choice of papers the dialog offers, as it draws it, by scope."""
    screen = app.screen  # type: ignore[attr-defined]
    return {
        scope: str(found.first().render())
        for scope in ("marked", "starred", "every", "view")
        if (found := screen.query(f"#scope-{scope}"))
    }


async def test_the_export_dialog_starts_on_the_papers_picked_and_shows_which_it_is(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    from textual.widgets import RadioSet

    from paperdeck.ui.contrast import contrast

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        lines = scope_lines(app)
        # Nothing picked: the view alone.
        assert list(lines) == ["view"], lines
        assert lines["view"].startswith("● Papers in this view (19)")
        # A paper marked, then the unread view picked: the view, drawn ● where the marks are ○.
        await pilot.press("escape", "space", "u")
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        lines = scope_lines(app)
        assert lines["view"].startswith("● Papers shown: unread (19)"), lines
        assert lines["marked"].startswith("○ Marked papers (1)"), lines
        # The set's cursor (what Tab lands on, what Enter or Space would press) is on it too.
        scope_set = app.screen.query_one("#export-scope", RadioSet)
        assert scope_set.pressed_button is not None
        assert scope_set.pressed_button.id == "scope-view"
        assert scope_set.pressed_button.has_class("-selected")
        assert not app.screen.query_one("#scope-marked").has_class("-selected")
        # In each theme the chosen dot stands out from its background, and from a dot not chosen.
        for theme in ("textual-dark", "textual-light", "nord", "gruvbox"):
            app.theme = theme
            await pilot.pause()
            on, off = (app.screen.query_one(f"#scope-{s}") for s in ("view", "marked"))
            ground = on.background_colors[1]
            on_dot = on.get_visual_style("toggle--button").foreground
            off_dot = off.get_visual_style("toggle--button").foreground
            assert on_dot is not None and off_dot is not None
            assert contrast(ground + on_dot, ground) >= 3, theme
            assert contrast(ground + off_dot, ground) >= 3, theme
            assert (ground + on_dot) != (ground + off_dot), theme
        await pilot.press("escape", "u", "A")

        # A starred paper: Starred first; a marked one: Marked first.
        await pilot.press("s", "e")
        await pilot.pause()
        assert scope_lines(app)["starred"].startswith("● Starred papers (1)")
        await pilot.press("escape", "j", "space", "e")
        await pilot.pause()
        assert scope_lines(app)["marked"].startswith("● Marked papers (1)")
        await clear_input(pilot)
        await type_text(pilot, "new/folder/picked.md")
        await pilot.press("enter")
        # A folder not there yet is made.
        text = (tmp_path / "new" / "folder" / "picked.md").read_text(encoding="utf-8")
        assert text.count("1. ") == 1 and "2. " not in text


async def test_a_failed_export_comes_back_with_the_path_typed_and_says_why(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Input

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    typed = "a-file/list.bib"
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "e")
        await clear_input(pilot)
        await type_text(pilot, typed)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.query_one("#export-path", Input).value == typed
        # Why, said where the format is (a line more would push the keys' hint off a
        # 24-line screen); the format comes back once the path is changed.
        said = str(app.screen.query_one("#export-format").render())
        assert said.startswith("Not exported: no folder") and "a-file" in said
        assert scope_lines(app)["marked"].startswith("● Marked papers (1)")
        # Corrected in place, it goes out.
        await clear_input(pilot)
        await type_text(pilot, "list.bib")
        assert "Format: BibTeX" in str(app.screen.query_one("#export-format").render())
        await pilot.press("enter")
        assert not isinstance(app.screen, ExportDialog)
        assert "@" in (tmp_path / "list.bib").read_text(encoding="utf-8")


async def test_the_export_dialog_offers_the_marks_or_the_view_whichever_was_picked_last(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "s", "r")  # one paper starred, one read
        await pilot.press("u")  # reading the unread ones
        await settle(app, pilot)
        await pilot.press("g", "space", "j", "space", "space")  # three marked among them
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        lines = scope_lines(app)
        assert lines["marked"].startswith("● Marked papers (3)"), lines
        assert lines["view"].startswith("○ Papers shown: unread (18)"), lines
        await pilot.press("enter")  # Enter at once: the three
        await settle(app, pilot)
        text = (tmp_path / "reading-list.md").read_text(encoding="utf-8")
        assert "3. " in text and "4. " not in text
        # A view chosen after the marks is what is offered: here the starred paper.
        await pilot.press("u", "asterisk")
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        assert scope_lines(app)["view"].startswith("● Papers shown: starred (1)")
        assert scope_lines(app)["marked"].startswith("○ Marked papers (3)")
        # Marked again after it: the marks.
        await pilot.press("escape", "A", "A", "space", "e")
        await pilot.pause()
        assert scope_lines(app)["marked"].startswith("● Marked papers ("), scope_lines(app)


async def test_the_next_export_is_offered_where_and_as_the_last_went(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "e")
        await clear_input(pilot)
        await type_text(pilot, "thesis/refs/marked.bib")
        await pilot.press("enter")
        assert (tmp_path / "thesis/refs/marked.bib").exists()
        # The same papers as CSV, to the same folder: the folder and format are offered.
        await pilot.press("e")
        path = app.screen.query_one("#export-path", Input)
        assert path.value == str(tmp_path / "thesis/refs/marked-2.bib")
        assert "Format: BibTeX" in str(app.screen.query_one("#export-format").render())
        await pilot.press("end", "backspace", "backspace", "backspace")
        await type_text(pilot, "csv")
        await pilot.press("enter")
        assert (tmp_path / "thesis/refs/marked-2.csv").read_text(encoding="utf-8").count("\n") == 3
        await pilot.press("e")
        path = app.screen.query_one("#export-path", Input)
        # The first free name of its kind: marked-2.csv is followed by marked.csv.
        assert path.value == str(tmp_path / "thesis/refs/marked.csv")


async def test_an_existing_file_is_replaced_only_on_a_second_enter_and_kept_as_a_backup(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    picked = tmp_path / "picked.bib"
    earlier = "".join(f"@article{{k{n},\n  title = {{Paper {n}}},\n}}\n\n" for n in range(40))
    picked.write_text(earlier, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "space", "e")  # three papers marked
        await clear_input(pilot)
        await type_text(pilot, "picked.bib")
        await pilot.press("enter")
        await pilot.pause()
        # Said on the dialog, nothing written.
        assert isinstance(app.screen, ExportDialog)
        line = app.screen.query_one("#export-format")
        said = str(line.render())
        assert said == "picked.bib exists (40 entries) — Enter again to replace it", said
        assert line.has_class("-warning")
        assert picked.read_text(encoding="utf-8") == earlier
        # A changed path takes the word back: the next Enter asks again.
        await pilot.press("backspace")
        await type_text(pilot, "b")
        assert "Format: BibTeX" in str(line.render()) and not line.has_class("-warning")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert picked.read_text(encoding="utf-8") == earlier
        # The second Enter replaces it; what it held is kept as picked.bib~.
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, ExportDialog)
        assert len(bibtexparser.parse_string(picked.read_text(encoding="utf-8")).entries) == 3
        assert (tmp_path / "picked.bib~").read_text(encoding="utf-8") == earlier
        messages = [n.message for n in app._notifications]
        assert any(
            m.split(" · ")[0].endswith("(the file it replaced is picked.bib~)") for m in messages
        ), messages


def option_paths(dialog: OpenListDialog) -> list[str]:
    options = dialog.query_one(OptionList)
    return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]


async def open_another_list(app: PaperdeckApp, pilot: object) -> OpenListDialog:
    await pilot.press("ctrl+p")  # type: ignore[attr-defined]
    await type_text(pilot, "Open another list")
    await pilot.pause(0.3)  # type: ignore[attr-defined]
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, OpenListDialog)
    return app.screen


async def test_open_another_list_offers_the_recent_lists_and_the_bundled_one(
    make_app: MakeApp, tmp_path: Path
) -> None:
    text = bundled_list().read_text(encoding="utf-8")
    first, second, gone = tmp_path / "first.txt", tmp_path / "second.txt", tmp_path / "gone.txt"
    for path in (first, second, gone):
        path.write_text(text, encoding="utf-8")
    sessions = sessions_path(tmp_path / "settings.json")
    for path in (first, gone, second):  # second read last
        save_session(sessions, session_key([path]), ListSession())
    gone.unlink()
    app = make_app(first)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        dialog = await open_another_list(app, pilot)
        # Most recent first; the list shown now and a list since deleted left out.
        assert option_paths(dialog) == [str(second), str(bundled_list())]
        options = dialog.query_one(OptionList)
        rows = options.render_lines(Region(0, 0, *options.outer_size))
        shown = "\n".join("".join(segment.text for segment in row) for row in rows)
        assert "second.txt" in shown and "the bundled sample list" in shown
        await pilot.press("down", "down", "enter")  # ↓ into the list, ↓ to the bundled one
        await settle(app, pilot)
        assert not isinstance(app.screen, OpenListDialog)
        assert [raw.path for raw in app.library.lists] == [bundled_list()]
        # Reopened: the list left is now the most recent, and Enter on nothing typed opens it.
        dialog = await open_another_list(app, pilot)
        assert option_paths(dialog)[0] == str(first)
        # Typed in the list, a path goes whole to the field, its spaces too.
        await pilot.press("down", "m", "y", "space", "l", "backspace", "backspace")
        field = dialog.query_one(Input)
        assert field.has_focus and field.value == "my"
        await pilot.press("down", "space", "x")
        assert field.value == "my x"
        await pilot.press("ctrl+a", "ctrl+k")
        await pilot.press("enter")
        await settle(app, pilot)
        assert [raw.path for raw in app.library.lists] == [first]


async def test_open_another_list_says_what_to_type_on_an_empty_enter(make_app: MakeApp) -> None:
    app = make_app()  # the bundled list, and nothing read before: nothing to offer
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        dialog = await open_another_list(app, pilot)
        assert not dialog.query(OptionList)
        await pilot.press("enter")
        assert app.screen is dialog
        hint = str(dialog.query_one("#open-hint").render())
        assert hint.startswith("Type the path of a list file (txt, JSONL")


async def test_a_list_path_that_cannot_be_opened_keeps_the_dialog_and_what_was_typed(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seen in tmux: a mistyped path closed the dialog with a toast, "nosuch.txt: no such
    # file", and the path typed again went to the list as keys (p a r s: PDF, mark all, ...).
    from tests.ui.test_reading import screen_text

    monkeypatch.chdir(tmp_path)
    (tmp_path / "papers").mkdir()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        dialog = await open_another_list(app, pilot)
        await type_text(pilot, "papres.txt")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is dialog and dialog.query_one(Input).value == "papres.txt"
        hint = dialog.query_one("#open-hint")
        assert any("papres.txt: no such file" in line for line in screen_text(app)), hint
        # What is typed next is the path again, not keys acting on the papers.
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "papers")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is dialog
        assert any("papers: is a directory" in line for line in screen_text(app))
        assert not app.paper_list.marked and app.store.get(app.papers[0].id) is None
        # Typing again puts the keys back in the hint.
        await pilot.press("backspace")
        assert "Esc cancels" in str(hint.render()) and "directory" not in str(hint.render())
        await pilot.press("ctrl+a", "ctrl+k")
        (tmp_path / "papers.txt").write_text(
            bundled_list().read_text(encoding="utf-8"), encoding="utf-8"
        )
        await type_text(pilot, "papers.txt")
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, OpenListDialog)
        assert [raw.path for raw in app.library.lists] == [Path("papers.txt")]


async def test_notes_exported_over_a_file_ask_first_and_keep_it(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl+P › Export notes wrote over a file that was there (the user's own notes.md) at
    # once, with no word and no copy of it, where e asks first and keeps NAME~.
    from tests.ui.test_narrow_notices import said, shown
    from tests.ui.test_reading import screen_text

    from paperdeck.ui.dialogs.path_dialog import PathDialog

    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "notes.md"
    mine.write_text("my own notes, written by hand\n", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "exported note")
        await pilot.press("escape", "ctrl+p")
        await type_text(pilot, "Export notes")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PathDialog)
        await clear_input(pilot)
        await type_text(pilot, "notes.md")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert mine.read_text(encoding="utf-8") == "my own notes, written by hand\n"
        assert any(
            "notes.md exists — Enter again to replace it" in line for line in screen_text(app)
        )
        await pilot.press("enter")
        await settle(app, pilot)
        await shown(pilot)
        assert not isinstance(app.screen, PathDialog)
        assert "exported note" in mine.read_text(encoding="utf-8")
        kept = tmp_path / "notes.md~"
        assert kept.read_text(encoding="utf-8") == "my own notes, written by hand\n"
        assert "(the file it replaced is notes.md~)" in said(app), said(app)


async def test_the_list_path_completion_prefers_list_files(tmp_path: Path) -> None:
    (tmp_path / "icml.meta.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "icml.pdf").write_text("", encoding="utf-8")
    (tmp_path / "icml.txt").write_text("", encoding="utf-8")
    suggester = PathSuggester(looks_like_list)
    assert await suggester.get_suggestion(str(tmp_path / "ic")) == str(tmp_path / "icml.txt")
    (tmp_path / "icml.txt").unlink()
    # No list file: any name still completes.
    assert await suggester.get_suggestion(str(tmp_path / "ic")) == str(tmp_path / "icml.meta.jsonl")


async def test_the_readme_triage_names_the_file_the_export_dialog_offers(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    triage = readme.split("### Triage a conference list", 1)[1].split("\n## ", 1)[0]
    step = triage.split("\n4. ", 1)[1].split("\n5. ", 1)[0]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "s", "asterisk")
        await settle(app, pilot)
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        offered = Path(app.screen.query_one("#export-path", Input).value)
        assert offered == tmp_path / "reading-list.md"
        assert f"`e` offers to write them to `{offered.name}`" in step
        assert "Format: Markdown" in str(app.screen.query_one("#export-format").render())


async def test_the_export_dialog_offers_no_papers_marked_or_starred_when_there_are_none(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "e")
        await pilot.pause()
        lines = scope_lines(app)
        assert list(lines) == ["marked", "view"], lines  # none starred: not offered
        assert lines["marked"].startswith("● Marked papers (2)"), lines
        assert "Tab: which papers" in str(app.screen.query_one("#export-keys").render())
        # A clears the marks: "Marked papers (0)" would export nothing.
        await pilot.press("escape", "A", "e")
        await pilot.pause()
        lines = scope_lines(app)
        assert list(lines) == ["view"], lines
        assert lines["view"].startswith("● Papers in this view (19)")
        keys = str(app.screen.query_one("#export-keys").render())
        assert "Tab: which papers" not in keys and "Esc cancels" in keys
        await pilot.press("enter")
        await settle(app, pilot)
        assert (tmp_path / "reading-list.md").read_text(encoding="utf-8").count("\n1. ") == 1


async def test_a_search_that_matches_nothing_is_not_offered_for_export(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "zzqxv")
        await settle(app, pilot)
        await pilot.press("enter", "e")
        await pilot.pause()
        # Nothing to export: the view is offered, and Enter says there is nothing in it.
        assert list(scope_lines(app)) == ["view"]
        await pilot.press("enter")
        await settle(app, pilot)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "No papers shown to export" in said, said
        # A starred paper: only it, not the empty view beside it.
        await pilot.press("escape", "s", "slash")
        await type_text(pilot, "zzqxv")
        await settle(app, pilot)
        await pilot.press("enter", "e")
        await pilot.pause()
        lines = scope_lines(app)
        assert list(lines) == ["starred"], lines
        assert lines["starred"].startswith("● Starred papers (1)")


async def test_exporting_the_marked_papers_says_they_stay_marked(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Marks kept after an export: r pressed next to read the paper under the cursor read the
    # exported papers instead, and nothing had said they were still marked.
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "e", "enter")
        await settle(app, pilot)
        said = " | ".join(str(n.message) for n in app._notifications)
        assert "Exported 2 papers as Markdown" in said, said
        assert "still marked: r s t c act on them until A clears the marks" in said, said
        # The starred papers exported: nothing said of marks.
        app.clear_notifications()
        await pilot.press("A", "s", "e", "enter")
        await settle(app, pilot)
        said = " | ".join(str(n.message) for n in app._notifications)
        assert "Exported 1 paper as Markdown" in said and "still marked" not in said, said


async def test_a_search_exports_its_papers_with_every_word_not_those_below_the_divider(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "time series" shows 8 of the 19: 2 with both words, then, below the divider, 6 with one
    # of them. "Papers shown (8)" was all e offered: 6 of the 8 exported were not on time series.
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "time series")
        await settle(app, pilot)
        every = app.paper_list.divider
        assert every == 2 and len(app.paper_list.rows) == 8
        both = [app.papers[i].id for i in app.paper_list.rows[:every]]
        await pilot.press("enter", "e")
        await pilot.pause()
        lines = scope_lines(app)
        assert list(lines) == ["every", "view"], lines
        assert lines["every"].startswith("● Papers shown with every word of “time series” (2)")
        assert lines["view"].startswith("○ Papers shown matching “time series” (8)"), lines
        await pilot.press("enter")
        await settle(app, pilot)
        written = (tmp_path / "reading-list.md").read_text(encoding="utf-8")
        assert written.count("\n1. ") + written.count("\n2. ") == 2
        assert all(paper_id in written for paper_id in both)
        # The whole view is still offered, below.
        await pilot.press("e", "tab", "down", "enter")
        await pilot.pause()
        assert scope_lines(app)["view"].startswith("● Papers shown matching")
        await pilot.press("shift+tab", "enter")  # back to the file's name, and save
        await settle(app, pilot)
        (second,) = set(tmp_path.glob("reading-list*.md")) - {tmp_path / "reading-list.md"}
        whole = second.read_text(encoding="utf-8")
        assert "\n8. " in whole and "\n9. " not in whole


async def test_each_choice_of_papers_shows_its_count_however_long_its_label(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seen at 80, 120 and 200 columns (the dialog is as wide at all three): "○ Papers shown with
    # every word of “offline reinforcement” (…" hid how many papers that choice would write.
    from tests.ui.test_reading import screen_text

    from paperdeck.ui.safe_text import quoted

    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("u", "slash")
        await type_text(pilot, "time series forecasting models")
        await settle(app, pilot)
        every, shown = app.paper_list.divider, len(app.paper_list.rows)
        asked = quoted("time series forecasting models", 24)
        await pilot.press("enter", "space", "e")  # a paper marked: three choices
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        region = app.screen.query_one("#export-scope").region
        lines = screen_text(app)[region.y : region.bottom]
        painted = " ".join(line[region.x : region.right].strip(" ▊▎") for line in lines)
        assert "Marked papers (1)" in painted, lines
        assert f"with every word of {asked} ({every})" in painted, lines
        assert f"matching {asked} ({shown})" in painted, lines
        # The longer choices push nothing out of the dialog: the file name, the format and
        # the keys are all on the screen, below the choices.
        screen = screen_text(app)
        path = app.screen.query_one("#export-path").region
        assert path.y >= region.bottom, (region, path)
        assert any("Format: Markdown" in line for line in screen[path.bottom :]), screen
        assert any("Esc cancels" in line for line in screen[path.bottom :]), screen
