"""Abstract rendering: LaTeX and markdown source to plain Unicode text with styled spans."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Literal

from paperdeck.core.text.dollars import MAX_MATH as _MAX_MATH
from paperdeck.core.text.dollars import MAX_TRIES as _MAX_TRIES
from paperdeck.core.text.dollars import closing_dollar

SpanStyle = Literal["bold", "italic", "math", "link", "code"]


@dataclass(frozen=True, slots=True)
class Span:
    """A styled stretch of rendered text: offsets into `RenderedText.text`."""

    start: int
    end: int
    style: SpanStyle


@dataclass(frozen=True, slots=True)
class RenderedText:
    """Plain Unicode text and its styles; spans are sorted and nest without crossing."""

    text: str
    spans: tuple[Span, ...]


# --- links -----------------------------------------------------------------------------------

# `\_` and friends appear inside URLs copied from LaTeX sources; they are unescaped afterwards.
_URL_RE = re.compile(r"https?://(?:[^\s<>\"{}\\`|^]|\\[_%&#~])+")
_URL_TRAILING = ".,;:!?'\"*”’»"


def _trim_url(url: str) -> str:
    """Drop trailing punctuation that ends the sentence rather than the URL."""
    while url:
        last = url[-1]
        unbalanced = last in ")]" and url.count(last) > url.count("(" if last == ")" else "[")
        if last in _URL_TRAILING or unbalanced:
            url = url[:-1]
        else:
            break
    return url


def _clean_url(url: str) -> str:
    return re.sub(r"\\([_%&#~])", r"\1", url)


def find_links(text: str) -> tuple[str, ...]:
    """The http(s) URLs in `text`, in order, without trailing punctuation."""
    if "http" not in text:
        return ()
    links: list[str] = []
    for m in _URL_RE.finditer(text):
        url = _clean_url(_trim_url(m.group()))
        if len(url) > len("https://") and "." in url:
            links.append(url)
    return tuple(links)


# --- scripts ---------------------------------------------------------------------------------

_SUPERSCRIPTS = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεϵθιφϕχ⊤*′∗⋆†‡",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᵋᶿᶥᵠᵠᵡᵀ*′∗⋆†‡",
        strict=True,
    )
)
_SUBSCRIPTS = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφϕχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵩᵪ",
        strict=True,
    )
)

# Placeholders live in a private-use plane that real abstracts never use: plain characters that
# pylatexenc must leave alone map to _PROTECT_BASE + ord(c); rendered sub/superscripts are stored
# aside and stand in the source as _SCRIPT_BASE + k until pylatexenc is done.
_PROTECT_BASE = 0xF0000
_SCRIPT_BASE = 0xF1000
_PRIVATE_RE = re.compile("[\U000f0000-\U000fffff]")

# --- pylatexenc --------------------------------------------------------------------------------

_FORMAT_NOOPS = (
    "em", "it", "bf", "rm", "sf", "sc", "tt", "sl", "up", "md", "normalfont", "left", "right",
    "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl",
    "Biggr", "middle", "limits", "nolimits", "displaystyle", "textstyle", "scriptstyle",
    "scriptscriptstyle", "noindent", "small", "large", "Large", "LARGE", "huge", "Huge", "tiny",
    "footnotesize", "scriptsize", "normalsize", "quad", "qquad", "mleft", "mright", "centering",
    "newline", "par", "hfill", "protect", "relax", "nobreak", "xspace", "medskip", "smallskip",
    "bigskip", "vspace", "hspace", "phantom",
)  # fmt: skip

# Macros whose braced argument is not text a reader needs (a colour, a label, a box size).
_NONTEXT_ARG_RE = re.compile(
    r"\\(?:begin|end|color|label|ref|eqref|vspace|hspace|hyperlink|hypertarget|definecolor)"
    r"\s*\{[^{}]*\}"
)

# Broken sources lose the braces of one-argument macros: `\mathcalO`, `\sqrtT`, `\emphPrefMRF`.
_GLUED_PREFIXES = sorted(
    (
        "mathcal", "mathbb", "mathbf", "mathrm", "mathsf", "mathit", "mathfrak", "mathscr",
        "mathtt", "sqrt", "emph", "tilde", "widetilde", "widehat", "hat", "bar", "overline",
        "textsc", "textbf", "textit", "texttt", "textrm", "textsf", "text",
    ),
    key=len,
    reverse=True,
)  # fmt: skip


@lru_cache(maxsize=1)
def _latex() -> tuple[Any, frozenset[str]]:
    """The pylatexenc converter and the macro names it knows (imported on first use only)."""
    from pylatexenc import latex2text, latexwalker, macrospec

    # Abstracts are not LaTeX documents: pylatexenc's complaints about them are noise on stderr.
    logging.getLogger("pylatexenc").setLevel(logging.CRITICAL + 1)

    def cite(node: Any, l2tobj: Any) -> str:
        arg = node.nodeargd.argnlist[-1] if node.nodeargd and node.nodeargd.argnlist else None
        return "[" + (arg.latex_verbatim()[1:-1] if arg is not None else "") + "]"

    def href(node: Any, l2tobj: Any) -> str:
        args = node.nodeargd.argnlist if node.nodeargd else []
        if len(args) < 2 or args[0] is None or args[1] is None:
            return ""
        url = args[0].latex_verbatim()[1:-1]
        return f"{l2tobj.nodelist_to_text([args[1]])} ({url})"

    def textsup(table: dict[str, str]) -> Callable[[Any, Any], str]:
        def render(node: Any, l2tobj: Any) -> str:
            args = node.nodeargd.argnlist if node.nodeargd else []
            inner = l2tobj.nodelist_to_text([args[0]]) if args and args[0] is not None else ""
            return _script(inner, table, "^" if table is _SUPERSCRIPTS else "_")

        return render

    text_macros: list[Any] = [
        latex2text.MacroTextSpec(name, simplify_repl=cite)
        for name in ("cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear")
    ]
    text_macros += [
        latex2text.MacroTextSpec("href", simplify_repl=href),
        latex2text.MacroTextSpec("|", simplify_repl="‖"),
        latex2text.MacroTextSpec("S", simplify_repl="§"),
        latex2text.MacroTextSpec("ie", simplify_repl="i.e."),
        latex2text.MacroTextSpec("eg", simplify_repl="e.g."),
        latex2text.MacroTextSpec("etal", simplify_repl="et al."),
        latex2text.MacroTextSpec("etc", simplify_repl="etc."),
        latex2text.MacroTextSpec("wrt", simplify_repl="w.r.t."),
        latex2text.MacroTextSpec("eps", simplify_repl="ε"),
        latex2text.MacroTextSpec("checkmark", simplify_repl="✓"),
        latex2text.MacroTextSpec("LaTeX", simplify_repl="LaTeX"),
        latex2text.MacroTextSpec("TeX", simplify_repl="TeX"),
        latex2text.MacroTextSpec("mbox", simplify_repl="%s"),
        latex2text.MacroTextSpec("operatorname", simplify_repl="%s"),
        latex2text.MacroTextSpec("mathds", simplify_repl="%s"),
        latex2text.MacroTextSpec("bm", simplify_repl="%s"),
        latex2text.MacroTextSpec("pmb", simplify_repl="%s"),
        latex2text.MacroTextSpec("norm", simplify_repl="‖%s‖"),
        latex2text.MacroTextSpec("abs", simplify_repl="|%s|"),
        latex2text.MacroTextSpec("tfrac", simplify_repl="%s/%s"),
        latex2text.MacroTextSpec("dfrac", simplify_repl="%s/%s"),
        latex2text.MacroTextSpec("binom", simplify_repl="(%s choose %s)"),
        latex2text.MacroTextSpec("textsuperscript", simplify_repl=textsup(_SUPERSCRIPTS)),
        latex2text.MacroTextSpec("textsubscript", simplify_repl=textsup(_SUBSCRIPTS)),
        latex2text.MacroTextSpec("color", simplify_repl=""),
        latex2text.MacroTextSpec("label", simplify_repl=""),
    ]
    walker_macros = [
        macrospec.MacroSpec("href", "{{"),
        macrospec.MacroSpec("operatorname", "*{"),
        macrospec.MacroSpec("mathds", "{"),
        macrospec.MacroSpec("bm", "{"),
        macrospec.MacroSpec("pmb", "{"),
        macrospec.MacroSpec("norm", "{"),
        macrospec.MacroSpec("abs", "{"),
        macrospec.MacroSpec("tfrac", "{{"),
        macrospec.MacroSpec("dfrac", "{{"),
        macrospec.MacroSpec("binom", "{{"),
        macrospec.MacroSpec("textsuperscript", "{"),
        macrospec.MacroSpec("textsubscript", "{"),
    ]
    l2t_db = latex2text.get_default_latex_context_db().filter_context()
    l2t_db.add_context_category("paperdeck", macros=text_macros, prepend=True)
    walker_db = latexwalker.get_default_latex_context_db().filter_context()
    walker_db.add_context_category("paperdeck", macros=walker_macros, prepend=True)
    known = {s.macroname for s in l2t_db.iter_macro_specs()}
    known |= {s.macroname for s in walker_db.iter_macro_specs()}
    known |= set(_FORMAT_NOOPS)

    class _Converter:
        def __init__(self) -> None:
            self.l2t = latex2text.LatexNodes2Text(
                latex_context=l2t_db, math_mode="text", strict_latex_spaces=_LATEX_SPACES
            )

        def __call__(self, source: str) -> str:
            walker = latexwalker.LatexWalker(source, latex_context=walker_db, tolerant_parsing=True)
            nodes, _, _ = walker.get_latex_nodes()
            return str(self.l2t.nodelist_to_text(nodes))

    return _Converter(), frozenset(known)


# TeX's own rules but one: the space after a command in prose is a space ("a \alpha run" reads
# "a α run", not TeX's "a αrun"): an abstract is written as prose, not typeset.
_LATEX_SPACES = {
    "between-macro-and-chars": False,
    "between-latex-constructs": True,
    "after-comment": True,
    "in-equations": "based-on-source",
}
# A letter's command inside a word ends at the space TeX takes as its end: "Stra\ss e",
# "J\o rgensen", "\L ukasz" are one word each; an opening quote's is against its word.
_JOINING_MACRO_RE = re.compile(
    r"\\(ss|aa|AA|ae|AE|oe|OE|o|O|l|L|i|j|textquotedblleft|textquoteleft)[ \t]+(?=[A-Za-z])"
)
_MACRO_RE = re.compile(r"\\\\|\\([A-Za-z]+)(\s*)|\\.", re.S)
_SPACES_RE = re.compile(r"  +")


def _fix_unknown_macros(source: str, known: frozenset[str]) -> str:
    """Unknown macros degrade to readable text: `\\foo{bar}` -> bar, `\\ourmethod` -> ourmethod."""

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None or name in known:
            return m.group()
        for prefix in _GLUED_PREFIXES:
            if name.startswith(prefix) and len(name) > len(prefix):
                return f"\\{prefix}{{{name[len(prefix) :]}}}{m.group(2)}"
        following = m.string[m.end() : m.end() + 2]
        if following[:1] in ("{", "[") and following != "{}":
            return ""
        return name + m.group(2)

    return _MACRO_RE.sub(repl, source)


# pylatexenc glues operator names to what precedes them: `d\log(k)` would read "dlog(k)".
_OPERATOR_RE = re.compile(
    r"(?<=[A-Za-z0-9)}])\\(log|ln|exp|min|max|sup|inf|lim|sin|cos|tan|det|dim|arg|argmin|argmax"
    r"|poly|polylog|Pr|deg|gcd|ker|tr)(?![A-Za-z])"
)


# pylatexenc drops the space between a symbol macro and the next command, so `x \in \mathbb{R}`
# read "x ∈ℝ" and `\alpha \in S` "α∈ S": relations and operators are put in as the characters
# pylatexenc gives them, spaced on both sides when the source spaces them on either.
_RELATIONS = {
    "in": "∈", "notin": "∉", "ni": "∋", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "leqslant": "⩽", "geqslant": "⩾", "ll": "≪", "gg": "≫", "neq": "≠", "approx": "≈",
    "sim": "∼", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "subset": "⊂",
    "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "subsetneq": "⊊", "to": "→",
    "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "longrightarrow": "⟶", "mapsto": "↦",
    "times": "×", "cup": "∪", "cap": "∩", "setminus": "∖", "otimes": "⊗", "oplus": "⊕",
    "circ": "∘", "pm": "±", "mp": "∓", "cdot": "·", "preceq": "≼", "succeq": "≽", "prec": "≺",
    "succ": "≻", "perp": "⊥", "vee": "∨", "wedge": "∧", "lesssim": "≲", "gtrsim": "≳",
    "asymp": "≍",
}  # fmt: skip
# Not after `\not`, which pylatexenc joins to the relation (`\not\le`); `\not\in` is `\notin`.
_NOT_IN_RE = re.compile(r"\\not\s*\\in(?![A-Za-z])")
_RELATION_RE = re.compile(
    r"(?<!\\not)(?<!\\not )(\s*)\\("
    + "|".join(sorted(_RELATIONS, key=len, reverse=True))
    + r")(?![A-Za-z])(\s*)"
)


def _relation(match: re.Match[str]) -> str:
    symbol = _RELATIONS[match.group(2)]
    return f" {symbol} " if match.group(1) or match.group(3) else symbol


# Not an apostrophe in a word of `\\text{...}` ("teacher's").
_PRIME_RE = re.compile(r"(?<!\\)'+(?![A-Za-z])|\\prime(?![A-Za-z])")


def _prime(match: re.Match[str]) -> str:
    return "′" * max(1, match.group().count("'"))


def _protect(text: str, chars: str) -> str:
    """Hide bare `chars` from pylatexenc (escaped ones like `\\%` are its to render)."""

    def repl(m: re.Match[str]) -> str:
        token = m.group()
        if token == "\\*":
            return chr(_PROTECT_BASE + ord("*"))
        if len(token) == 2:
            return token
        return chr(_PROTECT_BASE + ord(token))

    return re.sub(r"\\.|[" + re.escape(chars) + "]", repl, text, flags=re.S)


def _restore(text: str, scripts: list[str]) -> str:
    def repl(m: re.Match[str]) -> str:
        code = ord(m.group())
        if code >= _SCRIPT_BASE:
            return scripts[code - _SCRIPT_BASE]
        return chr(code - _PROTECT_BASE)

    # Scripts can hold protected characters, so restore until none is left.
    while _PRIVATE_RE.search(text):
        text = _PRIVATE_RE.sub(repl, text)
    return text


def _script(inner: str, table: dict[str, str], mark: str) -> str:
    """A sub/superscript in Unicode where every character has one, else `^x` / `^(xy)`."""
    inner = inner.strip()
    if not inner:
        return ""
    if all(c in table for c in inner):
        return "".join(table[c] for c in inner)
    if len(inner) == 1:
        return mark + inner
    return f"{mark}({inner})"


# --- words kept check -----------------------------------------------------------------------------

_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+|\\.")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _keeps_words(source: str, rendered: str) -> bool:
    """True when every word of `source` (commands aside) appears in `rendered`, in order."""
    plain = _COMMAND_RE.sub(" ", _NONTEXT_ARG_RE.sub(" ", source))
    target = _fold(rendered)
    pos = 0
    for word in _WORD_RE.findall(_fold(plain)):
        found = target.find(word, pos)
        if found < 0:
            return False
        pos = found + len(word)
    return True


def _crude_text(source: str) -> str:
    """LaTeX to text without pylatexenc: the fallback that cannot lose a word."""
    text = re.sub(r"\\([A-Za-z]+)\s*(?=[{\[])", "", source)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    text = re.sub(r"\\(.)", r"\1", text)
    return text.replace("{", "").replace("}", "")


# --- the renderer ---------------------------------------------------------------------------------

_STYLE_MACROS: dict[str, SpanStyle | None] = {
    "textbf": "bold",
    "textsc": "bold",
    "mathbf": "bold",
    "emph": "italic",
    "textit": "italic",
    "textsl": "italic",
    "texttt": "code",
    "url": "link",
    "href": "link",
    "underline": None,
    "textrm": None,
    "textsf": None,
    "textnormal": None,
    "text": None,
}
_SWITCHES: dict[str, SpanStyle] = {
    "bf": "bold",
    "sc": "bold",
    "bfseries": "bold",
    "em": "italic",
    "it": "italic",
    "sl": "italic",
    "itshape": "italic",
    "tt": "code",
}
# Markdown's `_emphasis_` opens at an underscore that starts a word after a space, a bracket
# or a quote: never inside a word (snake_case, x_t, file_name), doubled (__init__), nor in
# math that lost its dollars (`\|x\|_1`, `\mathcal{L}_{1}`).
_UNDERSCORE_OPEN = r"(?<![^\s(\[\"'“‘])_(?![\s_{])"
# The lookahead names every character a construct starts with: the engine tries the
# alternatives only there, not at each character of the prose between.
_TOKEN_RE = re.compile(
    r"(?=[h\\{$*_`~])(?:"
    r"(?P<url>https?://)"
    r"|(?P<escape>\\\\|\\[$*`{}_%&#~^])"
    r"|(?P<mathopen>\\[(\[])"
    r"|\\(?P<macro>" + "|".join(sorted(_STYLE_MACROS, key=len, reverse=True)) + r")\s*(?=\{)"
    r"|\{\s*\\(?P<switch>" + "|".join(_SWITCHES) + r")(?![A-Za-z])\s*"
    r"|(?P<dollar>\$)"
    r"|(?P<star>\*)"
    r"|(?P<under>" + _UNDERSCORE_OPEN + ")"
    r"|(?P<tick>`)"
    r"|(?P<tie>(?<=\S)~(?=\S))"
    r")"
)
# Whether a source has anything to render: led by a class of the characters that start one,
# each then checked, so that the engine scans for them at once.
_FAST_PATH_RE = re.compile(
    r"[\\$*`~{_'h-]"
    r"(?:(?<=[\\$*`~{])|(?<=-)-|(?<=')'|(?<=h)ttps?://"
    r"|(?:(?<=[\s(\[\"'“‘]_)|(?<=^_))(?![\s_{]))"
)
_PROTECTING_BRACES_RE = re.compile(r"\{([A-Za-z][A-Za-z0-9\- ]*)\}")
# `-` too: pylatexenc makes dashes of `--` only in runs with a command; _typeset does it in all.
_TEXT_PROTECT = "%&#_^$*`~'-"
_MATH_PROTECT = "%&#$"
_MAX_DEPTH = 16
"""Constructs nested deeper than this are rendered as plain text (300 nested \\emph{ ...)."""
_MAX_BOLD = 500
"""How far a `**` looks for its closing `**` (bold runs are a few words)."""
CHUNK_CHARS = 8000
"""A longer source is rendered in pieces of at most this many characters, cut at spaces:
every construct's search then spans one piece, so the work grows linearly with the text."""
MAX_RENDERED_CHARS = 20_000
"""Past this many characters the text is shown as it stands (the longest of 100,000 real
abstracts has 4,615)."""


def _group_ends(s: str) -> dict[int, int]:
    """Every `{` of `s` that opens a group, and where it closes (-1: never), in one pass.

    Escaped characters are skipped as _find_group_end skips them, so each answer is what
    that scan would give from the same `{`.
    """
    ends: dict[int, int] = {}
    stack: list[int] = []
    for found in _BRACE_RE.finditer(s):
        token = found.group()
        if token == "{":
            stack.append(found.start())
            ends[found.start()] = -1
        elif token == "}" and stack:
            ends[stack.pop()] = found.start()
    return ends


_BRACE_RE = re.compile(r"\\.|[{}]", re.S)


def _find_group_end(s: str, open_pos: int, end: int) -> int:
    """Index of the `}` matching the `{` at open_pos, or -1."""
    depth = 0
    i = open_pos
    while i < end:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


# TeX's dashes in prose: "---" an em dash, "--" an en dash ("Wang--Landau", "pages 3--5",
# "a -- b", "work---for", "GNNs ---a method"); not an option ("--help": two, a space before
# and a word after them), an arrow ("-->", "<--"), a comment ("<!--") or a rule ("----").
_PROSE_DASH_RE = re.compile(r"(?<![-<!])(?:(?<=\S)---?|(?<!\S)(?:---|--(?![a-z])))(?![->])")

# Dashes around an aside written against its words ("convex and --from a worst case
# perspective-- often", "encodings --symbols -- capable"): the opening one is no option, the
# closing one says so.
_ASIDE_DASHES_RE = re.compile(r"(?<!\S)(---?)(?=[a-z])((?:(?!--)[^\n]){1,200}?)(---?)(?![-\w>])")


def _aside(match: re.Match[str]) -> str:
    return _DASHES[match.group(1)] + match.group(2) + _DASHES[match.group(3)]


_DASHES = {"---": "—", "--": "–"}


def _dash(match: re.Match[str]) -> str:
    return "—" if len(match.group()) == 3 else "–"


# TeX's closing quote after a straight opening one: "online'' (the `"` opens when a space or a
# bracket is before it and a word after it).
_STRAIGHT_PAIR_RE = re.compile(r"(?<![^\s(\[])\"(?=\S)([^\"\n]{0,300}?)''")
# TeX's quotes the tick pairs did not take: ''teacher'', "online'' done, a `` never closed.
_TEX_QUOTES_RE = re.compile(r"''|``")


def _tex_quote(match: re.Match[str]) -> str:
    at = match.start()
    before = match.string[at - 1]
    return "“" if match.group() == "``" or before.isspace() or before in "([" else "”"


def _typeset(text: str, before: str) -> str:
    """Prose `text` with TeX's dashes as dashes and its quotes as quotes; `before` is the
    character shown before it (" " at the start), whose kind decides a mark at the edge."""
    dashes = "--" in text
    quotes = "''" in text or "``" in text
    if not dashes and not quotes:
        return text
    # The character before stands in front so that the patterns see it; it is never changed.
    text = (before if before not in "-<!'`" else "x") + text
    if dashes:
        text = _PROSE_DASH_RE.sub(_dash, _ASIDE_DASHES_RE.sub(_aside, text))
    if quotes:
        text = _TEX_QUOTES_RE.sub(_tex_quote, _STRAIGHT_PAIR_RE.sub(r"“\1”", text))
    return text[1:]


class _Renderer:
    def __init__(self, source: str) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.spans: list[Span] = []
        self.scripts: list[str] = []
        self.depth = 0
        self.verbatim = 0
        """Above 0 inside `\\texttt{...}` and the like: code keeps its dashes as typed."""
        self.group_ends = _group_ends(source)

    def group_end(self, s: str, open_pos: int, end: int) -> int:
        """Index of the `}` matching the `{` at open_pos before `end`, or -1 (one lookup)."""
        close = self.group_ends.get(open_pos)
        if close is None:
            return _find_group_end(s, open_pos, end)  # not a brace the first pass saw open
        return close if close < end else -1

    def emit(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.length += len(text)

    def styled(self, style: SpanStyle | None, render: Callable[[], None]) -> None:
        start = self.length
        verbatim = style in ("code", "link")
        self.verbatim += verbatim
        try:
            render()
        finally:
            self.verbatim -= verbatim
        if style is not None and self.length > start:
            self.spans.append(Span(start, self.length, style))

    # text runs: everything between constructs, through pylatexenc when it holds a command
    def run(self, raw: str) -> None:
        if not raw:
            return
        if "\\" not in raw:
            # BibTeX's case-protecting braces, "{BERT}", go; "{0, 1}" is a set and stays
            self.prose(_PROTECTING_BRACES_RE.sub(r"\1", raw) if "{" in raw else raw)
            return
        converter, known = _latex()
        protected = _fix_unknown_macros(_protect(raw, _TEXT_PROTECT), known)
        protected = _JOINING_MACRO_RE.sub(r"\\\1{}", protected)
        # Math written without its dollars: a relation spaced as in math ("n\gg S" and
        # "\epsilon \in (0,1)" read "n ≫ S", "ϵ ∈ (0,1)"; pylatexenc spaces one side only).
        protected = _RELATION_RE.sub(_relation, protected)
        try:
            text = _restore(converter(protected), self.scripts)
        except Exception:  # pylatexenc on hostile input: never lose the text over it
            text = _crude_text(raw)
        if "\n" in text and "\n" not in raw:
            text = re.sub(r"\s*\n\s*", " ", text)
        # Spaces kept after commands meet those before a command that printed nothing ("of \em
        # normal"): several are one, as TeX has them. The run's own edges are the source's.
        text = _SPACES_RE.sub(" ", text.strip())
        text = raw[: len(raw) - len(raw.lstrip())] + text + raw[len(raw.rstrip()) :]
        if not _keeps_words(raw, text):
            text = _crude_text(raw)
        self.prose(text)

    def prose(self, text: str) -> None:
        """Emit a run's text, typeset unless it is code."""
        if not self.verbatim:
            text = _typeset(text, self.parts[-1][-1] if self.parts else " ")
        self.emit(text)

    def math(self, content: str) -> None:
        self.styled("math", lambda: self.emit(self.math_text(content)))

    def math_text(self, content: str) -> str:
        content = content.strip()
        if not content:
            return ""
        if self.depth >= _MAX_DEPTH:  # scripts nested in scripts: x^{y^{z^{...}}}
            return re.sub(r"\s+", " ", _crude_text(content)).strip()
        self.depth += 1
        try:
            return self.math_text_of(content)
        finally:
            self.depth -= 1

    def math_text_of(self, content: str) -> str:
        converter, known = _latex()
        if "'" in content or "\\prime" in content:
            # A prime, not a closing quote: pylatexenc reads `f''` as f”.
            content = _PRIME_RE.sub(_prime, content)
        prepared = self.prepare_scripts(_protect(content, _MATH_PROTECT))
        prepared = _fix_unknown_macros(_OPERATOR_RE.sub(r" \\\1", prepared), known)
        if "\\" in prepared:
            if "\\not" in prepared:
                prepared = _NOT_IN_RE.sub(r"\\notin", prepared)
            prepared = _RELATION_RE.sub(_relation, prepared)
        try:
            text = _restore(converter("$" + prepared + "$"), self.scripts)
        except Exception:  # as in run()
            text = _crude_text(content)
        return re.sub(r"\s+", " ", text).strip()

    def prepare_scripts(self, content: str) -> str:
        """Render `^x`, `_{ij}` ... and leave a placeholder for each in the source."""
        if "^" not in content and "_" not in content:
            return content
        out: list[str] = []
        i = 0
        n = len(content)
        while i < n:
            c = content[i]
            if c == "\\":
                m = re.compile(r"\\[A-Za-z]+|\\.?", re.S).match(content, i)
                assert m is not None
                out.append(m.group())
                i = m.end()
                continue
            if c not in "^_":
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and content[j] == " ":
                j += 1
            if j >= n:
                out.append(c)
                i += 1
                continue
            if content[j] == "{":
                close = _find_group_end(content, j, n)
                if close < 0:
                    out.append(c)
                    i += 1
                    continue
                arg, i = content[j + 1 : close], close + 1
            elif content[j] == "\\":
                # A backslash may end the text (`$x_\$`): the script is the backslash alone.
                m = re.compile(r"\\[A-Za-z]+|\\.?", re.S).match(content, j)
                assert m is not None
                end = m.end()
                if end < n and content[end] == "{":
                    close = _find_group_end(content, end, n)
                    end = close + 1 if close >= 0 else end
                arg, i = content[j:end], end
            else:
                arg, i = content[j], j + 1
            inner = self.math_text(arg)
            table = _SUPERSCRIPTS if c == "^" else _SUBSCRIPTS
            rendered = _script(inner, table, c)
            self.scripts.append(rendered)
            out.append(chr(_SCRIPT_BASE + len(self.scripts) - 1))
        return "".join(out)

    def parse(self, s: str, start: int, end: int) -> None:
        """Render s[start:end]; deeper than _MAX_DEPTH constructs, as one text run."""
        if self.depth >= _MAX_DEPTH:
            self.run(s[start:end])
            return
        self.depth += 1
        try:
            self.parse_constructs(s, start, end)
        finally:
            self.depth -= 1

    def parse_constructs(self, s: str, start: int, end: int) -> None:
        run_start = pos = start
        while pos < end:
            m = _TOKEN_RE.search(s, pos, end)
            if m is None:
                break
            tok_start = m.start()
            flush = partial(self.run, s[run_start:tok_start])
            handled = self.construct(s, m, end, flush)
            if handled < 0:
                pos = m.end() if m.lastgroup in ("escape", "macro", "switch") else tok_start + 1
                continue
            run_start = pos = handled
        self.run(s[run_start:end])

    def construct(self, s: str, m: re.Match[str], end: int, flush: Callable[[], None]) -> int:
        """Render the construct m starts; the index after it, or -1 when it is plain text."""
        kind = m.lastgroup
        i = m.start()
        if kind == "url":
            found = _URL_RE.match(s, i, end)
            url = _trim_url(found.group()) if found else ""
            if len(url) <= len("https://"):
                return -1
            flush()
            self.styled("link", lambda: self.emit(_clean_url(url)))
            return i + len(url)
        if kind == "tie":
            flush()
            self.emit(" ")
            return m.end()
        if kind == "dollar":
            return self.dollar(s, i, end, flush)
        if kind == "mathopen":
            closer = "\\)" if s[i + 1] == "(" else "\\]"
            close = s.find(closer, i + 2, end)
            if close < 0 or close - i > _MAX_MATH:
                return -1
            flush()
            self.math(s[i + 2 : close])
            return close + 2
        if kind == "macro":
            name = m.group("macro")
            close = self.group_end(s, m.end(), end)
            if close < 0:
                return -1
            flush()
            if name == "href":
                return self.href(s, m.end(), close, end)
            if name == "url":
                url = _clean_url(s[m.end() + 1 : close].strip())
                self.styled("link", lambda: self.emit(url))
                return close + 1
            if name == "mathbf":
                self.styled("bold", lambda: self.math(s[m.end() + 1 : close]))
                return close + 1
            self.styled(_STYLE_MACROS[name], lambda: self.parse(s, m.end() + 1, close))
            return close + 1
        if kind == "switch":
            close = self.group_end(s, i, end)
            if close < 0:
                return -1
            flush()
            self.styled(_SWITCHES[m.group("switch")], lambda: self.parse(s, m.end(), close))
            return close + 1
        if kind == "star":
            return self.star(s, i, end, flush)
        if kind == "under":
            return self.underscore(s, i, end, flush)
        if kind == "tick":
            return self.tick(s, i, end, flush)
        return -1  # an escape: pylatexenc renders it inside the run

    def href(self, s: str, open_pos: int, close: int, end: int) -> int:
        url = _clean_url(s[open_pos + 1 : close].strip())
        after = close + 1
        while after < end and s[after] == " ":
            after += 1
        if after < end and s[after] == "{":
            text_close = self.group_end(s, after, end)
            if text_close > 0:
                self.styled("link", lambda: self.parse(s, after + 1, text_close))
                self.emit(" (")
                self.styled("link", lambda: self.emit(url))
                self.emit(")")
                return text_close + 1
        self.styled("link", lambda: self.emit(url))
        return close + 1

    def dollar(self, s: str, i: int, end: int, flush: Callable[[], None]) -> int:
        if s.startswith("$$", i):
            close = s.find("$$", i + 2, end)
            if close < 0 or close - i > _MAX_MATH or not s[i + 2 : close].strip():
                return -1
            flush()
            self.math(s[i + 2 : close])
            return close + 2
        close = closing_dollar(s, i, end)
        if close < 0:
            return -1
        flush()
        self.math(s[i + 1 : close])
        return close + 1

    def star(self, s: str, i: int, end: int, flush: Callable[[], None]) -> int:
        if s.startswith("**", i):
            inner = i + 2
            if inner >= end or s[inner].isspace() or s[inner] == "*":
                return -1
            limit = min(end, inner + _MAX_BOLD)
            close = s.find("**", inner, limit)
            tries = 0
            while close > 0 and s[close - 1].isspace():
                tries += 1
                close = s.find("**", close + 2, limit) if tries < _MAX_TRIES else -1
            if close < 0 or "\n\n" in s[inner:close]:
                return -1
            flush()
            self.styled("bold", lambda: self.parse(s, inner, close))
            return close + 2
        inner = i + 1
        if inner >= end or s[inner].isspace() or (i > 0 and s[i - 1].isalnum()):
            return -1
        close = inner
        for _ in range(_MAX_TRIES):
            close = s.find("*", close + 1, min(end, inner + 300))
            if close < 0:
                return -1
            if s.startswith("**", close):
                close += 1
                continue
            if s[close - 1].isspace() or (close + 1 < end and s[close + 1].isalnum()):
                continue
            break
        else:
            return -1
        flush()
        self.styled("italic", lambda: self.parse(s, inner, close))
        return close + 1

    def underscore(self, s: str, i: int, end: int, flush: Callable[[], None]) -> int:
        """`_a few words_` in italics: closed by an underscore that ends a word, in the same
        paragraph, with the math between whole."""
        inner = i + 1
        limit = min(end, inner + 300)
        close = inner
        for _ in range(_MAX_TRIES):
            close = s.find("_", close + 1, limit)
            if close < 0:
                return -1
            after = s[close + 1] if close + 1 < end else " "
            if s[close - 1].isspace() or s[close - 1] in "_\\" or after.isalnum() or after == "_":
                continue
            break
        else:
            return -1
        if "\n\n" in s[inner:close] or s.count("$", inner, close) % 2:
            return -1
        flush()
        self.styled("italic", lambda: self.parse(s, inner, close))
        return close + 1

    def tick(self, s: str, i: int, end: int, flush: Callable[[], None]) -> int:
        if s.startswith("``", i):
            found = re.compile(r"''|\"").search(s, i + 2, min(end, i + 500))
            if found is None:
                return -1
            close = found.start()
            closer_len = len(found.group())
            flush()
            self.emit("“")
            self.parse(s, i + 2, close)
            self.emit("”")
            return close + closer_len
        close = s.find("`", i + 1, min(end, i + 200))
        quote = s.find("'", i + 1, min(end, i + 200))
        if 0 <= quote < close or (close < 0 and quote >= 0):
            flush()
            self.emit("‘")
            self.parse(s, i + 1, quote)
            self.emit("’")
            return quote + 1
        if close < 0 or close == i + 1 or "\n" in s[i:close]:
            return -1
        flush()
        self.styled("code", lambda: self.emit(s[i + 1 : close]))
        return close + 1


# Lists scraped from web pages often lost the line break between two sentences
# ("…in discrete increments.Here we consider…"). A word of three lowercase letters or more,
# the sentence's mark, then a capitalised word: a sentence end, not "e.g.", "U.S." or "nn.Module".
_JOINED_SENTENCES_RE = re.compile(r"(?<=[a-z]{3}[.!?])(?=[A-Z][a-z])")
_UNSPACED_STYLES = frozenset({"math", "link", "code"})


def space_joined_sentences(rendered: RenderedText) -> RenderedText:
    """`rendered` with a space put back between two sentences run together, outside math,
    links and code; its spans moved to match."""
    text = rendered.text
    cuts = [match.start() for match in _JOINED_SENTENCES_RE.finditer(text)]
    if not cuts:
        return rendered
    kept = [
        cut
        for cut in cuts
        if not any(
            span.start < cut < span.end and span.style in _UNSPACED_STYLES
            for span in rendered.spans
        )
    ]
    if not kept:
        return rendered
    pieces = [text[start:end] for start, end in zip([0, *kept], [*kept, len(text)], strict=True)]

    def moved(offset: int, *, end: bool) -> int:
        # A span ending at a cut keeps its end there; one starting there moves with its text.
        return offset + sum(1 for cut in kept if cut < offset or (cut == offset and not end))

    spans = tuple(
        Span(moved(span.start, end=False), moved(span.end, end=True), span.style)
        for span in rendered.spans
    )
    return RenderedText(" ".join(pieces), spans)


def render_abstract(source: str) -> RenderedText:
    """The abstract as plain Unicode text with bold, italic, math, link and code spans, and
    sentences run together spaced apart.

    Linear in the length of `source`: a long one is rendered in pieces (CHUNK_CHARS), and
    past MAX_RENDERED_CHARS it is shown as it stands.
    """
    return space_joined_sentences(_render_whole(source))


def _render_whole(source: str) -> RenderedText:
    if not _FAST_PATH_RE.search(source) and not _PRIVATE_RE.search(source):
        return RenderedText(source, ())
    if len(source) <= CHUNK_CHARS:
        return _render_piece(source)
    texts: list[str] = []
    spans: list[Span] = []
    length = 0
    for piece in _pieces(source[:MAX_RENDERED_CHARS]):
        rendered = _render_piece(piece)
        texts.append(rendered.text)
        spans.extend(
            Span(span.start + length, span.end + length, span.style) for span in rendered.spans
        )
        length += len(rendered.text)
    texts.append(_PRIVATE_RE.sub("\ufffd", source[MAX_RENDERED_CHARS:]))
    return RenderedText("".join(texts), tuple(spans))


def _render_piece(source: str) -> RenderedText:
    if not _FAST_PATH_RE.search(source) and not _PRIVATE_RE.search(source):
        return RenderedText(source, ())
    source = _PRIVATE_RE.sub("\ufffd", source)
    renderer = _Renderer(source)
    renderer.parse(source, 0, len(source))
    text = "".join(renderer.parts)
    spans = sorted(renderer.spans, key=lambda span: (span.start, -span.end))
    return RenderedText(text, tuple(spans))


def _pieces(source: str) -> Iterator[str]:
    """`source` in pieces of at most CHUNK_CHARS, each cut after a blank line, a sentence or
    a space in its second half when there is one there (a word is split only if very long)."""
    start = 0
    while len(source) - start > CHUNK_CHARS:
        window_end = start + CHUNK_CHARS
        middle = start + CHUNK_CHARS // 2
        cut = -1
        for mark in ("\n\n", ". ", " ", "\n"):
            found = source.rfind(mark, middle, window_end)
            if found >= 0:
                cut = found + len(mark)
                break
        if cut <= start:
            cut = window_end
        yield source[start:cut]
        start = cut
    yield source[start:]


def latex_to_text(source: str) -> str:
    """LaTeX/markdown source as plain Unicode text (titles, BibTeX fields)."""
    return render_abstract(source).text


# --- titles ----------------------------------------------------------------------------------

# Every character a title's LaTeX, markdown or a made-up title's bare script starts with, TeX's
# dashes ("--") and quotes ("''"), led by a class of characters so that the engine scans for
# them at once.
_TITLE_MARKUP_RE = re.compile(r"[-\\$*`~{^_'](?:(?<=-)-|(?<=')'|(?<![-']))")
# A made-up title is cut from its abstract with the math's `$` dropped ("R^d", "P={P_1,⋯,P_n}",
# "NS^3L"): its scripts are given the Unicode forms the abstract's have. Digits or up to three
# letters up (not before another script: "β^Tx_i" is β^T x_i), digits or one letter down (more
# is a name's snake_case); never after a space (an emphasis mark: "a _variable-length sequence").
_BARE_SCRIPT_RE = re.compile(
    r"(?<=[^\s^_])"
    r"(?:(\^)(\d{1,3}|[A-Za-z](?![A-Za-z])|[A-Za-z]{2,3}(?![A-Za-z_^])|[*∗′†‡])"
    r"|(_)(\d{1,3}|[A-Za-z](?![A-Za-z])))"
)


def _bare_script(match: re.Match[str]) -> str:
    mark, inner = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
    table = _SUPERSCRIPTS if mark == "^" else _SUBSCRIPTS
    # "max_y" stays as it is: no subscript y, and "_(y)" would read worse.
    return _script(inner, table, mark) if all(c in table for c in inner) else match.group()


has_title_markup: Callable[[str], re.Match[str] | None] = _TITLE_MARKUP_RE.search
"""Whether `display_title` may show a title otherwise than it stands (a match, else None): the
pattern's own method, called for each title of a list measured."""


def display_title(title: str, *, made_up: bool = False) -> str:
    """A title as the reader and the commands show it: its LaTeX and markdown rendered as an
    abstract's (`$\\mathcal{O}(n \\log n)$` -> 𝒪(n log n), `\\emph{X}` -> X), TeX's dashes
    and quotes too (`Wang--Landau` -> Wang–Landau, `X---a method` -> X—a method, as a citation
    gives them, `''X''` -> “X”; an arrow `-->` and code as they stand), and a title paperdeck
    made up (`made_up`) with its bare scripts too (`R^d` -> Rᵈ). Citations keep a title as it
    stands (BibTeX keeps its math)."""
    if has_title_markup(title) is None:
        return title
    return _display_title(title, made_up)


@lru_cache(maxsize=4096)
def _display_title(title: str, made_up: bool) -> str:
    # Kept: a page of rows is painted again at each key, each row's title measured and drawn.
    text = render_abstract(title).text
    if made_up and ("^" in text or "_" in text):
        text = _BARE_SCRIPT_RE.sub(_bare_script, text)
    return text
