"""The reader's citation formats: CSL styles in the `C` menu, any style typed in, `c` copying it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.ui.conftest import write_list
from textual import events
from textual.widgets import Input, OptionList, Static, TextArea

from paperdeck.core.citations import citation_keys, cite_many
from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.dialogs import format_dialog
from paperdeck.ui.dialogs.citation_dialog import CitationDialog
from paperdeck.ui.dialogs.format_dialog import FormatDialog
from paperdeck.ui.widgets.detail_pane import STAND_IN_REMARK


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PaperdeckApp:
    # No clipboard tool and no display: every copy ends in the dialog, and `last_copied`.
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("TMUX", raising=False)
    return PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


async def settle(app: PaperdeckApp, pilot: object) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


def option_labels(dialog: FormatDialog) -> list[str]:
    options = dialog.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_menu_offers_csl_styles_and_c_copies_ieee(
    app: PaperdeckApp, tmp_path: Path
) -> None:
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        labels = option_labels(dialog)
        assert labels[:3] == ["BibTeX", "BibLaTeX", "APA 7"]
        assert "CSL styles, rendered by citeproc-py" in labels
        assert {"IEEE", "ACM", "Chicago author-date", "Nature"} <= set(labels)
        ids = [
            dialog.query_one(OptionList).get_option_at_index(i).id
            for i in range(dialog.query_one(OptionList).option_count)
        ]
        # Down moves over the heading: IEEE is one step after CSL-JSON.
        await pilot.press(*["down"] * (ids.index("ieee") - 1), "enter")
        assert app.settings.citation_format == "ieee"
        saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
        assert saved["citation_format"] == "ieee"
        messages = [notification.message for notification in app._notifications]
        assert "c now copies IEEE" in messages
        await pilot.press("j", "j", "j", "c")
        await settle(app, pilot)
        paper = app.papers[3]
        expected = cite_many([paper], "ieee", keys=citation_keys(app.papers)).text
        assert app.last_copied == expected + "\n"
        assert app.last_copied.startswith("[1] ")


async def test_any_csl_style_typed_in_the_menu_and_an_unknown_one_refused(
    app: PaperdeckApp,
) -> None:
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        await pilot.press("tab")
        assert isinstance(app.focused, Input)
        await pilot.press(*"ieeee", "enter")
        error = str(dialog.query_one("#format-error", Static).render())
        assert re.fullmatch(
            r"No CSL style 'ieeee'; did you mean ieee\? Any of \d{1,2},\d{3} style names, "
            r"or a FILE\.csl\.",
            error,
        )
        assert app.screen is dialog  # still open: the user corrects what was typed
        field = dialog.query_one(Input)
        field.value = "Elsevier-Harvard"
        await pilot.press("enter")
        assert app.settings.citation_format == "elsevier-harvard"
        await pilot.press("space", "space", "c")
        await settle(app, pilot)
        lines = app.last_copied.strip().splitlines()
        assert len(lines) == 2
        keys = citation_keys(app.papers)
        assert (
            app.last_copied == cite_many(app.papers[:2], "elsevier-harvard", keys=keys).text + "\n"
        )
        # Reopened (after the no-clipboard dialog), the menu shows the typed style, highlighted.
        await pilot.press("escape", "C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        options = dialog.query_one(OptionList)
        assert options.highlighted is not None
        assert options.get_option_at_index(options.highlighted).id == "elsevier-harvard"


async def test_apa_of_a_paper_without_authors_shows_its_title_first_and_names_what_is_missing(
    app: PaperdeckApp,
) -> None:
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(app, pilot)
        app.settings.citation_format = "APA"
        anonymous = next(i for i, p in enumerate(app.papers) if not p.authors)
        await pilot.press(*["j"] * anonymous, "c")
        await settle(app, pilot)
        assert "(Eds.), Proceedings of the 43rd International Conference" in app.last_copied
        assert "incomplete" not in app.last_copied and "unknown" not in app.last_copied
        # What the dialog shows: the title in the authors' place, once; never the editors.
        assert isinstance(app.screen, CitationDialog)
        shown = app.screen.query_one("#citation-text", TextArea)
        assert shown.region.height > 0
        # APA 7's sentence case: "Differentially private cross-silo recommendation ..."
        title = app.papers[anonymous].title
        title = title[0] + title[1:].lower()
        assert shown.text.startswith(f"{title}. (2026). In T. Zhang, ")
        assert shown.text.count(title) == 1
        messages = [notification.message for notification in app._notifications]
        assert "Incomplete citation: authors unknown; pages unknown" in messages


async def test_a_note_written_before_the_metadata_does_not_hold_the_anon_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    bare = tmp_path / "icml.txt"  # the bundled list without its metadata
    bare.write_bytes(bundled_list().read_bytes())

    async def cite_first(path: Path, note: bool = False) -> str:
        app = PaperdeckApp(
            load_library([path]),
            NotesStore(tmp_path / "notes.json"),
            settings_file=tmp_path / "settings.json",
        )
        async with app.run_test(size=(100, 36)) as pilot:
            await settle(app, pilot)
            if note:
                await pilot.press("n", *"read", "escape")
            await pilot.press("c")
            await settle(app, pilot)
            assert isinstance(app.screen, CitationDialog)
            shown = app.screen.query_one("#citation-text", TextArea)
            assert shown.region.height > 0
            text = shown.text
            await pilot.press("escape", "q")  # quit as the user does: the notes are saved
            return text

    assert "@inproceedings{anon2026" in await cite_first(bare, note=True)
    assert "@inproceedings{anon2026" in await cite_first(bare)  # reopened with its note
    after = await cite_first(bundled_list())  # the same paper, now with its metadata
    assert "@inproceedings{chen2026interactscience," in after


def cite_key_line(app: PaperdeckApp) -> str:
    """The detail pane's citation key, as drawn on screen (it must be in view): its own line
    ("Cite key  KEY ..."), or in a short pane the summary under the title ("... · cite KEY")."""
    height = app.detail.scrollable_content_region.height
    shown = [app.detail.render_line(y).text.rstrip() for y in range(height)]
    line = next(line for line in shown if line.startswith("Cite key") or " · cite " in line)
    return "Cite key " + line.split(" · cite ", 1)[1] if " · cite " in line else line


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_detail_pane_shows_the_key_c_cites_with_a_stand_in_said_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    bare = tmp_path / "icml.txt"  # the bundled list without its metadata: no titles, no authors
    bare.write_bytes(bundled_list().read_bytes())
    for path, stand_in in ((bundled_list(), False), (bare, True)):
        app = PaperdeckApp(
            load_library([path]),
            NotesStore(tmp_path / f"{path.stem}-notes.json"),
            settings_file=tmp_path / "settings.json",
        )
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("j", "j", "j")
            await settle(app, pilot)
            line = cite_key_line(app)
            await pilot.press("c")
            await settle(app, pilot)
            assert isinstance(app.screen, CitationDialog)
            key = app.last_copied.split("{", 1)[1].split(",", 1)[0]
            assert line.split()[:3] == ["Cite", "key", key], line
            assert key.startswith("anon") == stand_in
            # The whole remark on the key's line (it wrapped at 120x40).
            assert (STAND_IN_REMARK in line) == stand_in, line


async def test_the_format_dialog_is_not_hidden_by_the_warnings_of_earlier_copies(
    app: PaperdeckApp,
) -> None:
    """Two incomplete copies, then C at 80x24: the warnings do not lie over its field or keys."""
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.settings.citation_format = "APA"
        anonymous = next(i for i, p in enumerate(app.papers) if not p.authors)
        for _ in range(2):
            await pilot.press(*["j"] * anonymous, "c")
            await settle(app, pilot)
            assert isinstance(app.screen, CitationDialog)
            await pilot.press("escape")
            await pilot.press("g")
        await pilot.pause()
        warned = [n for n in app._notifications if str(n.message).startswith("Incomplete")]
        assert len(warned) == 2
        await pilot.press("C")
        await settle(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, FormatDialog)
        toasts = [t for t in app.screen.query("Toast") if t.region.area]
        assert toasts == []
        field = app.screen.query_one("#format-other", Input)
        assert field.region.area and app.screen.get_widget_at(*field.region.offset)[0] is field


def highlighted_id(dialog: FormatDialog) -> str | None:
    options = dialog.query_one(OptionList)
    if options.highlighted is None:
        return None
    return options.get_option_at_index(options.highlighted).id


async def test_a_csl_name_typed_fast_in_the_c_menu_reaches_the_field_whole(
    app: PaperdeckApp,
) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        # The keys come as a pasting terminal sends them, before any focus change is done.
        for key in [*"elsevier-harvard"]:
            app.post_message(events.Key({"-": "minus"}.get(key, key), key))
        await pilot.pause()
        field = dialog.query_one("#format-other", Input)
        assert field.value == "elsevier-harvard"
        await pilot.press("enter")
        assert app.screen is not dialog
        assert app.settings.citation_format == "elsevier-harvard"


async def test_a_csl_name_typed_slowly_goes_on_in_the_field_and_the_list_follows(
    app: PaperdeckApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(format_dialog, "TYPED_PAUSE", 0.0)  # every letter comes "late"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        field = dialog.query_one("#format-other", Input)
        await pilot.press(*"chica")
        assert field.value == "chica" and field.has_focus
        assert highlighted_id(dialog) == "chicago-author-date"  # the list follows
        await pilot.press(*"go", "minus", *"fulnote")
        assert field.value == "chicago-fulnote"
        assert highlighted_id(dialog) is None  # no listed style is named so
        await pilot.press("enter")
        error = str(dialog.query_one("#format-error", Static).render())
        assert error.startswith("No CSL style 'chicago-fulnote'; did you mean")
        assert app.screen is dialog
        # Backspace back to a listed style's prefix: Enter takes the highlighted style.
        await pilot.press(*["backspace"] * len("fulnote"))
        assert field.value == "chicago-"
        assert highlighted_id(dialog) == "chicago-author-date"
        assert str(dialog.query_one("#format-error", Static).render()) == ""
        await pilot.press("enter")
        assert app.settings.citation_format == "chicago-author-date"


async def test_in_the_c_menu_arrows_from_the_field_pick_in_the_list(app: PaperdeckApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        await pilot.press(*"ieee")
        assert highlighted_id(dialog) == "ieee"
        await pilot.press("down")
        assert dialog.query_one(OptionList).has_focus
        assert highlighted_id(dialog) == "association-for-computing-machinery"
        await pilot.press("enter")
        assert app.settings.citation_format == "association-for-computing-machinery"


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_paper_with_no_author_or_year_has_a_key_that_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """A list whose header names no year ("... (1987-2025)"), titles made up, no authors:
    the key is "anon" and the title's word, as BibTeX key makers leave out a year they do not
    know ("anoncoreset"), not "anonndcoreset", which reads as a typo; the pane says it and c
    copies it, unique for two papers on one word."""
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    abstract = (
        "In real world, our datasets often contain outliers. In this paper, we propose a new "
        "variant of coreset technique, layered sampling, to deal with robust optimization."
    )
    path = write_list(
        tmp_path,
        "Machine learning conference paper list (1987-2025)",
        [abstract, abstract.replace("outliers", "noisy labels")],
    )
    app = PaperdeckApp(
        load_library([path]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        keys = []
        for _ in range(2):
            line = cite_key_line(app)
            await pilot.press("c")
            await settle(app, pilot)
            assert isinstance(app.screen, CitationDialog)
            key = app.last_copied.split("{", 1)[1].split(",", 1)[0]
            assert line.split()[:3] == ["Cite", "key", key] and STAND_IN_REMARK in line, line
            keys.append(key)
            await pilot.press("escape", "j")
            await settle(app, pilot)
    assert keys == ["anoncoreset", "anoncoreseta"]


NO_RENDER = {
    # Parse; citeproc-py failed on each ("list index out of range") at the first c.
    "missing-macro.csl": (
        '<bibliography><layout><text macro="author-list"/></layout></bibliography>',
        "missing-macro.csl: its macro 'author-list' is used but not defined",
    ),
    "no-bibliography.csl": ("", "no-bibliography.csl: a CSL style with no <bibliography>"),
}


def csl_file(path: Path, bibliography: str) -> Path:
    """A CSL style that parses, with `bibliography` as its bibliography element."""
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><title>T</title><id>t</id><updated>2024-01-01T00:00:00+00:00</updated></info>"
        '<citation><layout><text variable="title"/></layout></citation>'
        f"{bibliography}</style>\n",
        "utf-8",
    )
    return path


@pytest.mark.parametrize("name", sorted(NO_RENDER))
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_csl_style_that_parses_but_cannot_render_is_refused_in_the_c_menu(
    app: PaperdeckApp, tmp_path: Path, name: str, size: tuple[int, int]
) -> None:
    """The menu took it ("c now copies ..."), remembered it, and every c after it failed."""
    bibliography, reason = NO_RENDER[name]
    style = csl_file(tmp_path / name, bibliography)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        before = app.settings.citation_format
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        await pilot.press("tab")
        dialog.query_one(Input).value = str(style)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        shown = dialog.query_one("#format-error", Static)
        lines = [shown.render_line(y).text.strip() for y in range(shown.size.height)]
        assert " ".join(lines).strip().startswith(reason), lines
        assert app.settings.citation_format == before
        messages = [notification.message for notification in app._notifications]
        assert not any("now copies" in message for message in messages)
        # One that renders is taken.
        good = csl_file(
            tmp_path / "good.csl",
            '<bibliography><layout><text variable="title"/></layout></bibliography>',
        )
        dialog.query_one(Input).value = str(good)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not dialog
        assert app.settings.citation_format == str(good)


async def test_a_file_that_is_no_csl_style_is_refused_in_the_c_menu(
    app: PaperdeckApp, tmp_path: Path
) -> None:
    """The menu took any existing FILE.csl: a broken one was remembered ("c now copies
    bad.csl") and every c after it failed, here and in the next sessions; `cite --style`
    refused it. It is refused under the field, the format kept."""
    broken = tmp_path / "bad.csl"
    broken.write_text('<style xmlns="http://purl.org/net/xbiblio/csl"><info>\n', "utf-8")
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(app, pilot)
        before = app.settings.citation_format
        await pilot.press("C")
        dialog = app.screen
        assert isinstance(dialog, FormatDialog)
        await pilot.press("tab")
        dialog.query_one(Input).value = str(broken)
        await pilot.press("enter")
        assert app.screen is dialog
        error = str(dialog.query_one("#format-error", Static).render())
        assert error == "Not a CSL style: bad.csl."
        assert app.settings.citation_format == before
        messages = [notification.message for notification in app._notifications]
        assert not any("now copies" in message for message in messages)
