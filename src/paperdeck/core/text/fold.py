"""Text folding for search: case, accents, LaTeX, Unicode and punctuation down to plain words."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from itertools import filterfalse

# LaTeX commands that only format or stand for a symbol: they fold to a word break.
_DROP = frozenset(
    """
    emph textit textbf textsc texttt textsf textrm textup textmd textnormal text mbox hbox
    mathcal mathbb mathbf mathrm mathsf mathtt mathit mathfrak mathscr mathnormal boldsymbol bm
    operatorname operatornamewithlimits cal bf it em rm sf tt sc sl small large normalsize
    footnotesize scriptsize tiny huge ensuremath frac dfrac tfrac nicefrac hat widehat
    tilde widetilde Tilde bar overline underline vec dot ddot breve check acute grave mathring
    overrightarrow left right big Big bigg Bigg bigl bigr Bigl Bigr middle cite citet citep
    citealp citeauthor citeyear url href footnote ref eqref label begin end item times cdot
    cdots ldots dots vdots ddots circ bullet star ast otimes oplus odot in notin ni subset
    subseteq supset supseteq cup cap setminus emptyset varnothing le leq ge geq ll gg neq ne
    approx sim simeq cong equiv propto pm mp to rightarrow leftarrow Rightarrow Leftarrow
    leftrightarrow Leftrightarrow mapsto longrightarrow implies iff uparrow downarrow mid vert
    Vert lvert rvert lVert rVert langle rangle lceil rceil lfloor rfloor forall exists neg land
    lor wedge vee top bot perp parallel nabla partial prime quad qquad hspace vspace hfill
    newline linebreak noindent par smash phantom displaystyle textstyle scriptstyle limits
    nolimits
    """.split()  # noqa: SIM905
)
# Commands that are a word, spelled differently.
_RENAME = {
    "varepsilon": "epsilon",
    "eps": "epsilon",
    "vartheta": "theta",
    "varphi": "phi",
    "varrho": "rho",
    "varsigma": "sigma",
    "varpi": "pi",
    "varkappa": "kappa",
    "ell": "l",
    "infty": "infinity",
    "ie": "ie",
    "eg": "eg",
}
# Formatting commands some sources glue to their argument (`\mathcalO`, `\sqrtT`).
_GLUED = ("mathcal", "mathbb", "mathbf", "mathrm", "sqrt", "tilde", "widetilde", "hat", "cal")

_GREEK = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "ϰ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "π": "pi",
    "ϖ": "pi",
    "ρ": "rho",
    "ϱ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
}
_LETTERS = {
    "ı": "i",
    "ȷ": "j",
    "ø": "o",
    "Ø": "O",
    "ß": "ss",
    "ẞ": "SS",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ð": "d",
    "þ": "th",
    "∞": " infinity ",
}
# Symbols the abstract's renderer draws for commands that fold to their names (`\sqrt` -> √):
# each folds to the same word, so that a search for `sqrt` finds the rendered √ as the
# source's command (those met in real abstracts; `\infty`'s ∞ is a letter above).
_SYMBOL_WORDS = {
    "√": "sqrt",
    "∑": "sum",
    "∏": "prod",
    "∫": "int",
    "≲": "lesssim",
    "≳": "gtrsim",
    "≍": "asymp",
    "≜": "triangleq",
    "†": "dagger",
    "⊎": "uplus",
    "⊺": "intercal",
    "⊘": "oslash",
    "≼": "preccurlyeq",
    "≻": "succ",
    "≐": "doteq",
    "♯": "sharp",
    "♮": "natural",
    "♢": "diamond",
}


def _build_unicode_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for low, name in _GREEK.items():
        table[ord(low)] = f" {name} "
        upper = low.upper()
        if upper != low and len(upper) == 1 and ord(upper) not in table:
            table[ord(upper)] = f" {name.capitalize()} "
    for char, repl in _LETTERS.items():
        table[ord(char)] = repl
    for char, word in _SYMBOL_WORDS.items():
        table[ord(char)] = f" {word} "
    # Combining marks vanish so that an accented letter folds to its base letter.
    for start, end in ((0x300, 0x370), (0x1AB0, 0x1B00), (0x1DC0, 0x1E00), (0x20D0, 0x2100)):
        for code in range(start, end):
            if unicodedata.category(chr(code)) == "Mn":
                table[code] = None
    for code in range(0xFE20, 0xFE30):
        table[code] = None
    return table


_UNICODE_TABLE = _build_unicode_table()
_COMBINING = "".join(chr(c) for c, v in _UNICODE_TABLE.items() if v is None)
_ASCII_ALNUM = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# Byte table: every ASCII byte that is not a letter or digit becomes a space; UTF-8 bytes stay.
_BYTE_TABLE = bytes(c if c in _ASCII_ALNUM or c >= 0x80 else 0x20 for c in range(256))
_LOWER_BYTE_TABLE = bytes(_BYTE_TABLE).lower()

_ACCENT_CMD = re.compile(
    r"""\\['"^`~=.]\s*\{?\s*([A-Za-z])\s*\}?|\\[uvHck]\s*\{\s*([A-Za-z])\s*\}"""
)
_LATEX_CMD = re.compile(r"\\([A-Za-z]+)|\\.?", re.DOTALL)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
# A word for the span tokenizer: letters and digits, with combining marks kept inside it.
_SYMBOLS = "∞" + "".join(_SYMBOL_WORDS)
# The letters and digits the abstract's renderer writes scripts in (`$\\sigma^2\\log n$` is
# "σ²log n"): a run of them is a word of its own, as the source's `^2` is, not glued to its
# neighbours ("σ²log" was the one word "sigma 2log", and `log` marked nothing there).
_SCRIPT_RUN = re.compile(
    "[⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ"
    "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ]+"
)
_RAW_TOKEN = re.compile(
    rf"\\([A-Za-z]+)|\\.?|[{_SYMBOLS}]|(?:[^\W_]|[{re.escape(_COMBINING)}])+", re.DOTALL
)


def command_word(name: str) -> str:
    """What a LaTeX command folds to: words (`\\tau` -> tau), or "" for formatting and symbols."""
    if name in _DROP:
        return ""
    renamed = _RENAME.get(name)
    if renamed is not None:
        return renamed
    for glued in _GLUED:
        if name.startswith(glued) and len(name) <= len(glued) + 2:
            rest = name[len(glued) :]
            return f"{glued} {rest}" if glued not in _DROP else rest
    return name


def _latex_repl(match: re.Match[str]) -> str:
    name = match.group(1)
    if name is None:
        return " "
    return f" {command_word(name)} "


def _accent_repl(match: re.Match[str]) -> str:
    return match.group(1) or match.group(2)


class _CharFolds(dict[int, str]):
    """What each non-ASCII character folds to, worked out the first time it is met: a Greek
    letter to its name, a Latin combining mark to nothing, other letters and digits to
    themselves, anything else to a space."""

    def __missing__(self, code: int) -> str:
        if code in _UNICODE_TABLE:
            folded = _UNICODE_TABLE[code] or ""
        else:
            char = chr(code)
            folded = char if char.isalnum() else " "
        # Texts use a few hundred characters; a hostile one must not grow this without end.
        if len(self) < _CHAR_FOLDS_KEPT:
            self[code] = folded
        return folded


_CHAR_FOLDS_KEPT = 8192


_CHAR_FOLDS = _CharFolds()


def _fold_run(match: re.Match[str]) -> str:
    return match.group(0).translate(_CHAR_FOLDS)


def _fold_unicode(text: str) -> str:
    """Accents, Greek letters and symbols folded; other non-ASCII non-word characters to spaces.

    ASCII punctuation is left for a byte translation table, much faster than a regex.
    """
    return _NON_ASCII.sub(_fold_run, unicodedata.normalize("NFKD", text))


def _unlatex(text: str) -> str:
    """`text` with LaTeX accents and commands folded."""
    text = _ACCENT_CMD.sub(_accent_repl, text)
    return _LATEX_CMD.sub(_latex_repl, text)


def _unplain(text: str) -> str:
    """`text` with LaTeX and Unicode folded, ASCII punctuation and case not yet."""
    if "\\" in text:
        text = _unlatex(text)
    return text if text.isascii() else _fold_unicode(text)


def fold(text: str, *, keep_case: bool = False) -> str:
    """Words of `text` separated by spaces: LaTeX commands, accents and punctuation folded away.

    `$\\mathcal{O}(n \\log n)$` folds to ` O  n  log n ` (lower-cased unless keep_case); `naïve`
    to `naive`; `τ` and `\\tau` to `tau`; `self-supervised` to `self supervised`.
    """
    text = _unplain(text).encode().translate(_BYTE_TABLE).decode()
    return text if keep_case else text.lower()


def word_set(text: str) -> set[bytes]:
    """The distinct words of `fold(text)` as UTF-8 bytes, fast (the index builder's hot path)."""
    if "\\" in text:
        text = _unlatex(text)
    if text.isascii():
        return set(text.encode().translate(_LOWER_BYTE_TABLE).split())
    # Every fold is one character's own: fold the ASCII ones for all the text at once, then
    # the few words that still hold others (a regex finding those runs costs ~10 µs a text).
    # A lone surrogate (no UTF-8 for it) gets through as bytes and folds to a space, as in fold().
    data = unicodedata.normalize("NFKD", text).encode("utf-8", "surrogatepass")
    found = set(data.translate(_LOWER_BYTE_TABLE).split())
    others = list(filterfalse(bytes.isascii, found))
    # All of them out first: one's fold may be another as it stands.
    found.difference_update(others)
    for word in others:
        folded = word.decode("utf-8", "surrogatepass").translate(_CHAR_FOLDS).lower()
        found.update(folded.encode().split())
    return found


def words(text: str, *, keep_case: bool = False) -> list[str]:
    """The folded words of `text`, in order."""
    return fold(text, keep_case=keep_case).split()


def raw_tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """Folded words (case kept) with the span of `text` each came from, in order.

    Yields what `words(text, keep_case=True)` yields, except in rare corners (an accent command
    such as `\\"o` splits the word here, as does a rendered script: "σ²log" is sigma, 2, log),
    so that matches can be highlighted in the raw text or the rendered one.
    """
    for match in _RAW_TOKEN.finditer(text):
        name = match.group(1)
        start, end = match.span()
        if name is not None:
            for word in command_word(name).split():
                yield word, start, end
            continue
        if match.group(0).startswith("\\"):
            continue
        piece = match.group(0)
        if piece.isascii():
            yield piece, start, end
            continue
        at = 0
        for script in _SCRIPT_RUN.finditer(piece):
            yield from _piece_tokens(piece[at : script.start()], start + at)
            yield from _piece_tokens(script.group(), start + script.start())
            at = script.end()
        yield from _piece_tokens(piece[at:] if at else piece, start + at)


def _piece_tokens(piece: str, start: int) -> Iterator[tuple[str, int, int]]:
    """The folded words of a non-ASCII piece of a word, each with the piece's span."""
    for word in _fold_unicode(piece).split():
        yield word, start, start + len(piece)
