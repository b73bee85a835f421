"""Each command imports what it needs and nothing else: no reader, no web or citation code for
a listing, and no list readers or title derivation for a list answered from the store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperdeck.cli.main import COMMAND_FAMILIES, build_parser

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"
NEVER = ("textual", "rich", "paperdeck.ui")
WEB_AND_CITATIONS = ("httpx", "citeproc", "bibtexparser", "pybtex", "paperdeck.core.citations")
LIST_READING = ("paperdeck.core.formats.reader", "paperdeck.core.titles.derive")


def _imported(arguments: list[str], tmp_path: Path) -> set[str]:
    """The modules a `paperdeck` process loaded to run these arguments (it must succeed)."""
    code = (
        "import sys, json\n"
        "from paperdeck.cli.main import main\n"
        "try:\n"
        f"    status = main({arguments!r})\n"
        "except SystemExit as done:\n"
        "    status = done.code\n"
        "sys.stdout.flush()\n"
        "print(json.dumps([status, sorted(sys.modules)]), file=sys.stderr)\n"
    )
    env = dict(os.environ, PAPERDECK_NOTES=str(tmp_path / "notes.json"))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    status, modules = json.loads(result.stderr.strip().splitlines()[-1])
    assert status == 0, result.stderr
    return set(modules)


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A list already opened once, so the list store keeps it."""
    path = tmp_path / "sample.txt"
    shutil.copyfile(SAMPLE, path)
    _imported(["list", str(path)], tmp_path)
    return path


def test_every_command_is_registered_by_its_family() -> None:
    _, everything = build_parser()
    assert set(everything) == set(COMMAND_FAMILIES)
    for family in set(COMMAND_FAMILIES.values()):
        _, commands = build_parser([family])
        assert set(commands) == {c for c, f in COMMAND_FAMILIES.items() if f == family}


def test_version_loads_no_list_code(tmp_path: Path) -> None:
    modules = _imported(["--version"], tmp_path)
    assert _loaded(modules, ("paperdeck.core.library", "paperdeck.core.store", *NEVER)) == []


@pytest.mark.parametrize(
    "command",
    [["list"], ["list", "--json"], ["show", "3"], ["show", "3", "--raw"]],
    ids=["list", "list-json", "show", "show-raw"],
)
def test_listing_a_stored_list_loads_no_reader_web_or_list_parsing(
    command: list[str], stored: Path, tmp_path: Path
) -> None:
    modules = _imported([*command, str(stored)], tmp_path)
    # JSON gives a made-up title the list cut whole, made again from its abstract.
    reading = LIST_READING[:1] if "--json" in command else LIST_READING
    assert _loaded(modules, (*NEVER, *WEB_AND_CITATIONS, *reading, "rapidfuzz")) == []


@pytest.mark.parametrize(
    "command",
    [["search", "transformer"], ["related", "3"], ["note", "3"], ["mark", "3", "star"]],
    ids=["search", "related", "note", "mark"],
)
def test_search_and_notes_load_no_reader_web_or_citations(
    command: list[str], stored: Path, tmp_path: Path
) -> None:
    modules = _imported([*command, str(stored)], tmp_path)
    assert _loaded(modules, (*NEVER, *WEB_AND_CITATIONS, *LIST_READING)) == []


@pytest.mark.parametrize("command", [["search", "transformer"], ["related", "3"]])
def test_a_search_reads_the_notes_without_the_notes_commands(
    command: list[str], stored: Path, tmp_path: Path
) -> None:
    modules = _imported([*command, str(stored)], tmp_path)
    assert "paperdeck.core.notes.store" in modules
    notes_commands = ("paperdeck.cli.notes", "paperdeck.core.notes.exchange", "subprocess")
    assert _loaded(modules, notes_commands) == []
