"""The browsing commands: `list`, `show`, `search` and `related`."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.cli.common import (
    AddCommand,
    add_paths_argument,
    index_of,
    open_library,
    open_paper,
    refuse_empty_query,
    stored_list,
    warn,
)
from paperdeck.core.text.wording import plural

if TYPE_CHECKING:
    from paperdeck.core.model import Paper
    from paperdeck.core.notes.entry import NoteEntry
    from paperdeck.core.papers import Papers
    from paperdeck.core.search.evaluate import SearchResult
    from paperdeck.core.search.index import SearchIndex
    from paperdeck.core.search.near import NearSpelling

DEFAULT_SEARCH_LIMIT = 20
SOME_WORDS_DIVIDER = "-- papers with some of the words --"
"""The line `search` prints between the papers with every word and those with some."""
NO_PAPER_HAS_ALL = "-- no paper has every word; papers with some of them --"
"""The line `search` prints above its papers when none has every word. Both rules are printed
only to a terminal: in a pipe they would be read as papers (`awk '{print $2}'` took
"papers" for an id); `--json` says which papers have every word."""


def json_help(added: str = "") -> str:
    """--json's help: the keys scripts read most, and where every key is told."""
    return (
        f"print a JSON array, an object per paper: position, id, title, authors, ...{added} "
        '(the README\'s "JSON output" says each key)'
    )


def register(add: AddCommand) -> None:
    """Add `list`, `show`, `search` and `related` to the CLI."""
    listing = add("list", "Print one line per paper: position, id, title.", run_list)
    listing.add_argument("--json", action="store_true", help=json_help())
    add_paths_argument(listing)

    show = add("show", "Print one paper: title, method, venue, links, abstract.", run_show)
    show.add_argument("ref", metavar="REF", help="a paper id, unique id prefix or position")
    shown = show.add_mutually_exclusive_group()
    shown.add_argument("--raw", action="store_true", help="print the abstract's source text")
    shown.add_argument(
        "--json",
        action="store_true",
        help="print a JSON object: the paper as `export --format json` gives it, abstract, "
        'tags, state and note included (the README\'s "JSON output" says each key)',
    )
    add_paths_argument(show)

    search = add(
        "search",
        "Search papers and print them best first: position, id, score, title. Papers with "
        "every word come first; on a terminal a rule comes before those with some of them "
        "(--json marks each), and a line below says what --limit left out; into a pipe "
        "only the papers are printed. When none matches, says so (and why, when the list "
        "lacks what a filter asks for) in one line on stderr and exits 1, like grep.",
        run_search,
    )
    search.add_argument("query", metavar="QUERY", help="a query (see the README for the syntax)")
    search.add_argument(
        "--limit",
        type=_count,
        default=DEFAULT_SEARCH_LIMIT,
        help=f"at most N results (default {DEFAULT_SEARCH_LIMIT}; 0: all)",
    )
    search.add_argument("--json", action="store_true", help=json_help(", score, match"))
    search.add_argument(
        "--all-terms",
        action="store_true",
        help="only papers with every word of the query (default: then those with some)",
    )
    search.add_argument(
        "--sort",
        choices=("relevance", "list", "noted"),
        default="relevance",
        help="best first (default), list order, or recently noted first",
    )
    add_paths_argument(search)

    like = add(
        "related",
        "Print the papers most like one paper (or like all starred ones), best first.",
        run_related,
    )
    like.add_argument(
        "ref", metavar="REF", nargs="?", help="a paper id, unique id prefix or position"
    )
    like.add_argument(
        "--starred", action="store_true", help="papers like all the starred ones (no REF)"
    )
    like.add_argument(
        "--limit", type=_count, default=DEFAULT_SEARCH_LIMIT, help="at most N papers (0: all)"
    )
    like.add_argument("--json", action="store_true", help=json_help(", score, shared"))
    add_paths_argument(like)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a count: {text!r}")
    return value


def run_list(args: argparse.Namespace) -> int:
    if not args.json:
        from paperdeck.core.store.columns import Damaged
        from paperdeck.core.store.database import StoreUnavailable

        with stored_list(args) as stored:
            if stored is not None:
                try:
                    ids, titles, flags = stored.papers.ids_titles_and_flags()
                except (Damaged, StoreUnavailable) as error:
                    warn(f"the list store could not be read ({error}); the list is read again")
                else:
                    for warning in stored.warnings:
                        warn(warning)
                    _print_lines(ids, titles, flags, corrected_titles(args))
                    return 0
    library = open_library(args, abstracts=False)
    papers = library.papers
    if args.json:
        from paperdeck.cli.notes_file import open_store

        entries = open_store(args).entries
        _print_json_rows(
            [json_row(paper, entries) for paper in _whole(batch, library.with_abstracts)]
            for batch in (
                papers[start : start + _JSON_BATCH] for start in range(0, len(papers), _JSON_BATCH)
            )
        )
        return 0
    _print_lines(papers.ids(), papers.titles(), papers.derived_flags(), corrected_titles(args))
    return 0


DERIVED_MARK = "≈ "
"""Before a title paperdeck made up from the abstract, in the lines `list`, `search` and
`related` print (as the reader's rows mark it)."""


def marked_title(title: str, derived: bool | int) -> str:
    """A title as the commands print it: its LaTeX and markdown rendered, as the reader shows
    it (`--json` gives it as it stands), and marked when paperdeck made it up."""
    from paperdeck.core.text.render import display_title

    shown = display_title(title, made_up=bool(derived))
    return DERIVED_MARK + shown if derived else shown


def json_row(paper: Paper, entries: Mapping[str, NoteEntry]) -> dict[str, Any]:
    """A paper's object in `list`, `search` and `related --json`: its title and authors as the
    user corrected them, as the lines print them and `export` gives them."""
    entry = entries.get(paper.id)
    if entry is None or not entry.corrections:
        return paper.to_json(title_corrected=False)
    from paperdeck.core.notes.corrected import corrected_paper, corrected_title
    from paperdeck.core.text.sanitize import clean_line

    fixes = entry.corrections
    shown = corrected_paper(paper, fixes)
    row = shown.to_json(title_corrected=bool(corrected_title(fixes)))
    # Cleaned as `export` cleans them: the user's text, not the list's read cleaned.
    if row["title_corrected"]:
        row["title"] = clean_line(row["title"])
    if shown.authors is not paper.authors:
        row["authors"] = [clean_line(name) for name in shown.authors]
    if shown is not paper:
        # The list's source ("derived": a made-up title) no longer says where the title or
        # authors given came from. The method stays: it is the name the abstract introduces.
        row["meta_source"] = "user"
    return row


def _match_texts(
    index: SearchIndex, paper_index: int, paper: Paper, row: dict[str, Any]
) -> list[str]:
    """The texts of the paper's fields a search marks, as the row gives them: the title and
    authors the user corrected in place of the list's."""
    from paperdeck.core.search.word_index import AUTHORS, FIELDS, TITLE

    texts = [index.word_index.field_text(paper_index, field) for field in range(len(FIELDS))]
    if row["title_corrected"]:
        texts[TITLE] = row["title"]
    if row["authors"] != list(paper.authors):
        texts[AUTHORS] = ", ".join(row["authors"])
    return texts


def corrected_titles(args: argparse.Namespace) -> dict[str, str]:
    """The titles the user corrected papers to in the notes file, by paper id: the lines
    `list`, `search` and `related` print give them, as the reader's rows do."""
    from paperdeck.cli.notes_file import open_store

    fixes = {}
    for paper_id, entry in open_store(args).entries.items():
        title = entry.corrections.get("title")
        if isinstance(title, str) and title:
            fixes[paper_id] = title
    return fixes


def _print_lines(ids: list[str], titles: list[str], flags: bytes, fixes: dict[str, str]) -> None:
    """`list`'s lines: position, id, title (rendered, marked when derived; the user's when
    they corrected it)."""
    from paperdeck.core.text.render import display_title, has_title_markup

    width = len(str(len(ids)))
    titles = list(titles)
    if fixes:
        derived = bytearray(flags)
        for at in [at for at, paper_id in enumerate(ids) if paper_id in fixes]:
            titles[at], derived[at] = fixes[ids[at]], 0
        flags = bytes(derived)
    # Only the few titles with LaTeX or markdown are rendered, each once (not all 100,000).
    for at in compress(range(len(titles)), map(has_title_markup, titles)):
        titles[at] = display_title(titles[at], made_up=bool(flags[at]))
    # One write: a print per line costs ~0.5 s for 100,000 papers.
    sys.stdout.write(
        "".join(
            f"{number:>{width}}  {paper_id}  {DERIVED_MARK if derived else ''}{title}\n"
            for number, (paper_id, title, derived) in enumerate(
                zip(ids, titles, flags, strict=True), start=1
            )
        )
    )


def run_show(args: argparse.Namespace) -> int:
    from paperdeck.cli.notes import note_section
    from paperdeck.cli.notes_file import open_store
    from paperdeck.core.notes.corrected import corrected_paper
    from paperdeck.core.text.render import render_abstract

    paper = open_paper(args, args.ref)
    store = open_store(args)
    entry = store.get(paper.id)
    if args.json:
        from paperdeck.core.reading_list import items, records

        fixes = {paper.id: entry.corrections} if entry is not None and entry.corrections else {}
        (record,) = records(items([paper], store.entries, fixes))
        _print_json(record)
        return 0
    # Its title and authors as the user corrected them, as the reader shows them; the list's
    # own are those a correction replaced, said below with the note.
    header = paper_header(corrected_paper(paper, entry.corrections if entry else {}), raw=args.raw)
    print(_wrap_header(header))
    print()
    abstract = paper.abstract if args.raw else render_abstract(paper.abstract).text
    print(_wrap(abstract))
    print(note_section(store, paper))
    return 0


def paper_header(paper: Paper, *, raw: bool = False) -> str:
    """The lines `show` prints above the abstract: its title rendered as the abstract is,
    unless `raw` (the source, as `--raw` prints the abstract)."""
    from paperdeck.core.reading_list import DERIVED_REMARK, abstract_links
    from paperdeck.core.text.render import display_title

    # Whole, as the reader's pane and a citation give it, not cut with "…" to fit a row.
    whole = paper.whole_title
    title = whole if raw else display_title(whole, made_up=paper.title_derived)
    method = paper.method if raw or not paper.method else display_title(paper.method, made_up=True)
    lines = [title + (f"  {DERIVED_REMARK}" if paper.title_derived else "")]
    if method:
        lines.append(f"Method:  {method}")
    if paper.authors:
        lines.append(f"Authors: {', '.join(paper.authors)}")
    venue = paper.venue_line
    if venue:
        lines.append(f"Venue:   {venue}")
    lines.append(f"Id:      {paper.id}  (#{paper.position} in {paper.list_name})")
    if paper.url:
        lines.append(f"Page:    {paper.url}")
    # The abstract's links are its code and the like, never the paper's page: each says so.
    for kind, link in abstract_links(paper, paper.url):
        lines.append(f"{kind + ':':<8} {link}")
    return "\n".join(lines)


def run_search(args: argparse.Namespace) -> int:
    refuse_empty_query("search", args.query, "`paperdeck list` lists all")
    return _run_finding(args, _search)


Fill = Callable[[Sequence["Paper"]], list["Paper"]]
"""The papers given, with their abstracts read back when they were loaded without."""

Said = tuple[list[str], str, list[str]]
"""What a command says on stderr before what it prints, what it prints, and what it says
after it (how much it left out: on a terminal that reads best below the papers)."""
Work = Callable[["Papers", str | None, bool, Fill], Said]
"""A command's work on the papers of its lists, the list store key of their index (or None),
whether they hold their abstracts and what reads them back: what it says and prints."""
Finding = Callable[[argparse.Namespace, "Papers", str | None, bool, Fill], tuple[Said, bool]]
"""A command's work that also says whether it found anything (search, related)."""


def _run_finding(args: argparse.Namespace, finding: Finding) -> int:
    """`_run_on_papers`, with grep's convention: 1 when nothing is found (2 stays the errors')."""
    found: list[bool] = []

    def work(papers: Papers, key: str | None, loaded: bool, fill: Fill) -> Said:
        said, any_found = finding(args, papers, key, loaded, fill)
        found.append(any_found)
        return said

    status = _run_on_papers(args, work)
    return 1 if status == 0 and not found[-1] else status


def _whole(papers: Sequence[Paper], fill: Fill) -> list[Paper]:
    """The papers, those whose made-up title the list cut and did not keep whole with their
    abstracts, so that their JSON carries the title whole (the others are left without:
    reading them back costs)."""
    out = list(papers)
    cut = [at for at, paper in enumerate(out) if not paper.whole_title_known]
    for at, paper in zip(cut, fill([out[at] for at in cut]), strict=True):
        out[at] = paper
    return out


def _run_on_papers(args: argparse.Namespace, work: Work) -> int:
    """Do `work` on the one stored list the command names, reading only the papers it looks
    at; else, or when the store fails it midway, on the lists loaded whole."""
    from paperdeck.core.plumbing.collector import collector_paused
    from paperdeck.core.store.columns import Damaged
    from paperdeck.core.store.database import StoreUnavailable, last_read_failure, read_failures

    with stored_list(args) as stored, collector_paused():
        if stored is not None:
            failures = read_failures()
            try:
                said = work(stored.papers, stored.papers.key, False, stored.with_abstracts)
                if read_failures() != failures:
                    # A kept index answers a read it could not make as nothing kept: this
                    # result may lack papers.
                    raise StoreUnavailable(last_read_failure())
            except (Damaged, StoreUnavailable) as error:
                warn(f"the list store could not be read ({error}); the list is read again")
            else:
                for warning in stored.warnings:
                    warn(warning)
                _tell(said)
                return 0
    # JSON rows carry the abstracts; the lines printed otherwise need none.
    library = open_library(args, abstracts=bool(args.json))
    _tell(
        work(library.papers, library.index_key(), library.abstracts_loaded, library.with_abstracts)
    )
    return 0


def _tell(said: Said) -> None:
    before, text, after = said
    for message in before:
        warn(message)
    sys.stdout.write(text)
    if after:
        sys.stdout.flush()  # so that on a terminal the lines after come after
        for message in after:
            warn(message)


def _search(
    args: argparse.Namespace, papers: Papers, key: str | None, abstracts_loaded: bool, fill: Fill
) -> tuple[Said, bool]:
    """What `search` says on stderr, prints and whether it found a paper, worked
    out before anything is printed: reading a stored paper may fail, and the command then
    starts again."""
    from paperdeck.cli.notes_file import open_store
    from paperdeck.core.search.near import notice
    from paperdeck.core.search.nothing import nothing_found
    from paperdeck.core.search.spans import match_spans

    index = index_of(args, papers, key, abstracts_loaded)
    store = open_store(args)
    result = index.search(
        args.query,
        annotations=store.entries,
        sort=args.sort,
        all_terms=args.all_terms,
        shown=args.limit or None,
    )
    limit = args.limit if args.limit and args.limit > 0 else len(result.indices)
    chosen = list(zip(result.indices, result.scores, strict=True))[:limit]
    said = "; ".join(filter(None, [result.message, notice(result.near)])) or None
    if not chosen and said is None:
        said = nothing_found(index.word_index, result.parsed)
    # Only to a terminal: in a pipe a full-screen reader (fzf, less) shares the terminal with
    # stderr, and a line there is drawn over it.
    on_terminal = sys.stdout.isatty()
    left_out = _left_out(len(chosen), result, args.all_terms) if on_terminal else None
    before, after = [said] if said else [], [left_out] if left_out else []
    if args.json:
        rows = []
        found = _whole([papers[paper_index] for paper_index, _ in chosen], fill)
        for rank, ((paper_index, score), paper) in enumerate(zip(chosen, found, strict=True)):
            row = json_row(paper, store.entries)
            texts = _match_texts(index, paper_index, paper, row)
            row["score"] = round(score, 4)
            row["match"] = "all" if rank < result.matched_all else "some"
            row["matches"] = match_spans(result.parsed, texts)
            row["near_spellings"] = _near_used(result.near, row["matches"], texts)
            rows.append(row)
        return (before, json.dumps(rows, ensure_ascii=False, indent=2) + "\n", after), bool(chosen)
    width = len(str(len(papers)))
    lines = []
    for rank, (paper_index, score) in enumerate(chosen):
        if rank == result.matched_all and on_terminal:
            lines.append(SOME_WORDS_DIVIDER if rank else NO_PAPER_HAS_ALL)
        # A stored list's are read from two columns, mostly of chunks ranking read already.
        paper_id = papers.text(paper_index, "ids")
        title = _fixed_title(store.get(paper_id))
        if title is None:
            title = marked_title(
                papers.text(paper_index, "titles"), papers.title_derived(paper_index)
            )
        lines.append(f"{paper_index + 1:>{width}}  {paper_id}  {score:6.2f}  {title}")
    return (before, "".join(line + "\n" for line in lines), after), bool(chosen)


def _left_out(printed: int, result: SearchResult, all_terms: bool) -> str | None:
    """The line said below the papers on a terminal when --limit left some out."""
    found = len(result.indices)
    if printed == found:
        return None
    more = "; --limit 0 prints all"
    # The search works out the papers with some of the words only when --limit reaches them.
    if not all_terms and result.matched_all == found and len(result.parsed.positive_terms()) > 1:
        return f"printed {printed:,} of the {found:,} papers with every word (more have some){more}"
    return f"printed {printed:,} of {plural(found, 'paper')}{more}"


def _fixed_title(entry: NoteEntry | None) -> str | None:
    """The title the user corrected a paper to (rendered as the list's are), if they did."""
    title = entry.corrections.get("title") if entry is not None else None
    return marked_title(title, False) if isinstance(title, str) and title else None


def _near_used(
    near: Sequence[NearSpelling], spans: dict[str, list[tuple[int, int]]], texts: Sequence[str]
) -> dict[str, list[str]]:
    """Each query word no paper has, with the near spellings of it this paper matched by in
    its fields' `texts`."""
    from paperdeck.core.search.word_index import FIELDS
    from paperdeck.core.text.fold import words

    matched: set[str] = set()
    for field, text in zip(FIELDS, texts, strict=True):
        for start, end in spans.get(field, ()):
            matched.update(words(text[start:end]))
    return {item.word: [other for other in item.near if other in matched] for item in near}


def run_related(args: argparse.Namespace) -> int:
    from paperdeck.core.errors import UsageError

    if args.starred and args.ref is not None and Path(args.ref).is_file():
        # `related --starred LIST`: REF is optional, so argparse took the list for it.
        args.paths, args.ref = [Path(args.ref), *args.paths], None
    if args.starred == (args.ref is not None):
        raise UsageError("related: name one paper (REF) or give --starred, not both")
    return _run_finding(args, _related)


def _related(
    args: argparse.Namespace, papers: Papers, key: str | None, abstracts_loaded: bool, fill: Fill
) -> tuple[Said, bool]:
    from paperdeck.cli.notes_file import open_store
    from paperdeck.core.errors import UsageError
    from paperdeck.core.library import resolve_index
    from paperdeck.core.search.related import related

    ids = papers.ids()  # a stored list's read without making the papers
    if args.starred:
        entries = open_store(args).entries
        seeds = [i for i, paper_id in enumerate(ids) if (e := entries.get(paper_id)) and e.starred]
        if not seeds:
            raise UsageError("related --starred: no paper in these lists is starred")
    else:
        seeds = [resolve_index(ids, args.ref)]
    index = index_of(args, papers, key, abstracts_loaded)
    limit = args.limit if args.limit and args.limit > 0 else len(papers)
    found = related(index.word_index, seeds, limit)
    nothing = [] if found else ["related: no other paper in these lists shares its words"]
    if args.json:
        rows = []
        whole = _whole([papers[like.index] for like in found], fill)
        entries = open_store(args).entries
        for like, paper in zip(found, whole, strict=True):
            row = json_row(paper, entries)
            row["score"] = round(like.score, 4)
            row["shared"] = list(like.shared)
            rows.append(row)
        return (nothing, json.dumps(rows, ensure_ascii=False, indent=2) + "\n", []), bool(found)
    width = len(str(len(papers)))
    lines = []
    store = open_store(args)
    for like in found:
        paper = papers[like.index]
        shared = ", ".join(like.shared)
        title = _fixed_title(store.get(paper.id)) or marked_title(paper.title, paper.title_derived)
        lines.append(
            f"{like.index + 1:>{width}}  {paper.id}  {like.score:6.2f}  {title}  [{shared}]"
        )
    return (nothing, "".join(line + "\n" for line in lines), []), bool(found)


def _print_json(value: object) -> None:
    # One write: json.dump writes each of its millions of pieces apart (~4 s of 100,000 papers).
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


_JSON_BATCH = 1024
"""Papers whose JSON is made and written at once: all of 100,000 took 300 MB more."""


def _print_json_rows(batches: Iterable[list[dict[str, Any]]]) -> None:
    """`_print_json` of the list of these batches' rows, each batch made and written in turn."""
    from paperdeck.core.text.json_text import INDENT, indented

    lead = "[\n" + INDENT
    for batch in batches:
        sys.stdout.write(lead + f",\n{INDENT}".join(indented(row, 1) for row in batch))
        lead = f",\n{INDENT}"
    sys.stdout.write("[]\n" if lead.startswith("[") else "\n]\n")


def _width() -> int:
    return min(shutil.get_terminal_size((100, 24)).columns, 100)


def _wrap(text: str) -> str:
    width = _width()
    return "\n".join(_fill(part, width) if part else "" for part in text.split("\n"))


_LABEL = re.compile(r"[A-Za-z]+:\s+")


def _wrap_header(header: str) -> str:
    """`show`'s lines above the abstract wrapped as it is: the terminal broke a long title or
    list of authors inside a word ("Synchr" / "onous"). A field's next lines go under its
    value; a link is never broken."""
    width = _width()
    lines = []
    # The remark after a made-up title is said whole, on the title's last line or the next.
    from paperdeck.core.reading_list import DERIVED_REMARK

    unbroken = DERIVED_REMARK.replace(" ", "\u00a0")
    header = header.replace(DERIVED_REMARK, unbroken, 1)
    for at, line in enumerate(header.split("\n")):
        # The title's own colon is no field's ("BubbleSpec: Turning ...").
        label = _LABEL.match(line) if at else None
        lines.append(
            textwrap.fill(
                line,
                width,
                subsequent_indent=" " * (label.end() if label else 0),
                break_long_words=False,
                break_on_hyphens=False,
            )
            if len(line) > width
            else line
        )
    return "\n".join(lines).replace(unbroken, DERIVED_REMARK, 1)


_PLAIN_WRAP_CHARS = 20_000
"""Paragraphs longer than this are wrapped by a plain greedy loop instead of textwrap."""


def _fill(paragraph: str, width: int) -> str:
    if len(paragraph) <= _PLAIN_WRAP_CHARS:
        return textwrap.fill(paragraph, width)
    # textwrap takes seconds on megabytes, and splits a long word by copying what is left of
    # it for every line (minutes for a 10 MB word): a greedy loop over the words is linear.
    lines: list[str] = []
    line: list[str] = []
    used = -1
    for word in paragraph.split():
        if len(word) > width:
            if line:
                lines.append(" ".join(line))
                line, used = [], -1
            pieces = [word[start : start + width] for start in range(0, len(word), width)]
            lines.extend(pieces[:-1])
            word = pieces[-1]
        if used + 1 + len(word) > width:
            lines.append(" ".join(line))
            line, used = [], -1
        line.append(word)
        used += 1 + len(word)
    if line:
        lines.append(" ".join(line))
    return "\n".join(lines)
