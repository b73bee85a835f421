"""Tests for abstract rendering: Unicode output, styles, links, and that no word is ever lost."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from paperdeck.core.text.render import (
    RenderedText,
    Span,
    display_title,
    find_links,
    has_title_markup,
    latex_to_text,
    render_abstract,
)

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "seeds" / "icml2026.txt"
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "abstracts_sample.txt"


def _seed_abstracts() -> list[str]:
    return [p.strip() for p in SEED.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]


def _sample_abstracts() -> list[str]:
    return [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if p.strip()]


def _styled(rendered: RenderedText, style: str) -> list[str]:
    return [rendered.text[s.start : s.end] for s in rendered.spans if s.style == style]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _source_words(source: str) -> list[str]:
    """Alphabetic words of 3+ letters outside math and outside LaTeX command names."""
    text = source.replace("\\$", " ")
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", " ", text, flags=re.S)
    text = re.sub(r"\\(?:begin|end|color|label|ref|eqref)\{[^{}]*\}", " ", text)
    # \href{URL}{text} renders as "text (URL)": the URL is a link, its words come second
    text = re.sub(r"\\href\s*\{[^{}]*\}", " ", text)
    text = re.sub(r"\\[A-Za-z]+", " ", text)
    return re.findall(r"[A-Za-z]{3,}", _fold(text))


def _first_lost_word(source: str) -> str | None:
    rendered = _fold(render_abstract(source).text)
    pos = 0
    for word in _source_words(source):
        found = rendered.find(word, pos)
        if found < 0:
            return word
        pos = found + len(word)
    return None


# --- unicode from LaTeX -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"$\mathcal{O}(n \log n)$", "𝒪(n log n)"),
        (r"$\tau$", "τ"),
        (r"$2 \times 3$", "2 × 3"),
        (r"$a \leq b$", "a ≤ b"),
        (r"$\sim$", "∼"),
        (r"50\% more", "50% more"),
        (r"$x^2$", "x²"),
        (r"$x_i$", "xᵢ"),
        (r"$x^{n+1}$", "xⁿ⁺¹"),
        (r"$\sum_{i=1}^{n} x_i$", "∑ᵢ₌₁ⁿ xᵢ"),
        (r"$W^\top$", "Wᵀ"),
        (r"$\epsilon^{-2}$", "ϵ⁻²"),
        (r"$\tilde{O}(\sqrt{T})$", "Õ(√(T))"),
        (r"$O(d\log d)$", "O(d log d)"),
        (r"$\|x\|_2$", "‖x‖₂"),
        (r"Schr\"odinger", "Schrödinger"),
        (r"``safe'' RL", "“safe” RL"),
        (r"a `win-loss' signal", "a ‘win-loss’ signal"),
        (r"\cite{smith2020} shows", "[smith2020] shows"),
        (r"\foo{bar} baz", "bar baz"),
        (r"we call it \ourmethod here", "we call it ourmethod here"),
        (r"$\mathcalO(\sqrtT)$", "𝒪(√(T))"),
        ("optimization~(ODPO) scheme", "optimization (ODPO) scheme"),
        ("an $f$-divergence", "an f-divergence"),
    ],
)
def test_latex_becomes_unicode(source: str, expected: str) -> None:
    assert latex_to_text(source) == expected


def test_script_without_unicode_form_keeps_its_mark() -> None:
    assert latex_to_text(r"$x^{1/2}$") == "x^(1/2)"
    assert latex_to_text(r"$\|A\|_F$") == "‖A‖_F"


# --- things that are not markup ----------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "accuracy rises by 50% over the baseline, and the rest of the line stays",
        r"accuracy rises by 50\% over the baseline, and the rest of the line stays",
        "it costs $5 and the rest of the sentence stays",
        "it costs $5 and $10, and the rest stays",
        "an unclosed ** stays literal and the text after it too",
        "products like a*b*c and 2*3 stay as they are",
        "snake_case names and x^2 outside math stay",
    ],
)
def test_plain_text_constructs_keep_everything(source: str) -> None:
    text = latex_to_text(source)
    assert re.findall(r"[A-Za-z]{3,}", source) == re.findall(r"[A-Za-z]{3,}", text)
    assert text.endswith(source[-10:].replace("\\%", "%"))


def test_unmatched_dollar_stays_literal() -> None:
    assert latex_to_text("it costs $5 and the rest stays") == "it costs $5 and the rest stays"


def test_unclosed_double_star_stays_literal() -> None:
    rendered = render_abstract("an unclosed ** stays")
    assert rendered.text == "an unclosed ** stays"
    assert rendered.spans == ()


def test_fast_path_returns_the_source_untouched() -> None:
    source = "Plain abstract, with (parentheses), 3.5 numbers and 10% gains."
    assert render_abstract(source) == RenderedText(source, ())


# --- styles -----------------------------------------------------------------------------------


def test_bold_from_textsc_and_double_stars() -> None:
    rendered = render_abstract(r"we introduce \textsc{InteractScience} and **BubbleSpec** here")
    assert rendered.text == "we introduce InteractScience and BubbleSpec here"
    assert _styled(rendered, "bold") == ["InteractScience", "BubbleSpec"]


def test_italic_from_emph_textit_and_single_stars() -> None:
    rendered = render_abstract(r"\emph{all policy} and \textit{x} and *why* and {\em this}")
    assert rendered.text == "all policy and x and why and this"
    assert _styled(rendered, "italic") == ["all policy", "x", "why", "this"]


def test_code_from_texttt_and_backticks() -> None:
    rendered = render_abstract(r"run \texttt{SD} or `pip install x_y` now")
    assert rendered.text == "run SD or pip install x_y now"
    assert _styled(rendered, "code") == ["SD", "pip install x_y"]


def test_math_spans_nest_inside_bold() -> None:
    rendered = render_abstract(r"reduces steps by **$\sim$50\%** and **1.8$\times$**")
    assert rendered.text == "reduces steps by ∼50% and 1.8×"
    assert _styled(rendered, "bold") == ["∼50%", "1.8×"]
    assert _styled(rendered, "math") == ["∼", "×"]


def test_links_are_styled_and_trailing_punctuation_is_not_part_of_them() -> None:
    rendered = render_abstract("Code: https://github.com/V1centNevwake/MARI.")
    assert rendered.text == "Code: https://github.com/V1centNevwake/MARI."
    assert _styled(rendered, "link") == ["https://github.com/V1centNevwake/MARI"]


def test_url_and_href_commands() -> None:
    rendered = render_abstract(r"see \url{https://x.org/a\_b} or \href{https://y.org}{the site}")
    assert rendered.text == "see https://x.org/a_b or the site (https://y.org)"
    assert _styled(rendered, "link") == ["https://x.org/a_b", "the site", "https://y.org"]


def test_url_with_percent_and_underscore_is_not_latex() -> None:
    url = "https://example.org/a_b%20c~d"
    assert latex_to_text(f"at {url} now") == f"at {url} now"


# --- links -----------------------------------------------------------------------------------


def test_find_links_in_order_without_trailing_punctuation() -> None:
    text = (
        "Code (https://github.com/a/b), data at https://x.org/p_(q). "
        "More: http://site.com/page?x=1; and https://github.com/MM-Speech/SwanSphere"
    )
    assert find_links(text) == (
        "https://github.com/a/b",
        "https://x.org/p_(q)",
        "http://site.com/page?x=1",
        "https://github.com/MM-Speech/SwanSphere",
    )


def test_find_links_none_and_markdown() -> None:
    assert find_links("no links here, only http as a word") == ()
    assert find_links("see [repo](https://github.com/a/b).") == ("https://github.com/a/b",)
    assert find_links(r"at \url{https://github.com/a/b\_c}.") == ("https://github.com/a/b_c",)


def test_seed_links() -> None:
    abstracts = _seed_abstracts()
    links = [link for a in abstracts for link in find_links(a)]
    assert links == [
        "https://github.com/V1centNevwake/MARI",
        "https://github.com/MM-Speech/SwanSphere",
    ]


# --- the seed renders as a reader expects ------------------------------------------------------


def test_seed_renders_without_latex_left() -> None:
    for abstract in _seed_abstracts():
        text = latex_to_text(abstract)
        assert "\\" not in text
        assert "$" not in text
        assert "**" not in text
    texts = [latex_to_text(a) for a in _seed_abstracts()]
    assert "we introduce InteractScience, the first benchmark" in texts[0]
    assert (
        "reduces decoding steps by ∼50% and increases rollout throughput by up to 1.8×"
        in (texts[3])
    )
    assert "with 𝒪(n log n) complexity" in texts[17]
    assert "limited to d ≤ 3." in texts[17]
    assert "τ-leaping" in texts[8]
    assert "reduces attack success rates by 15% while preserving" in texts[11]


# --- the property: every word of the source survives -------------------------------------------


def test_every_word_survives_in_the_seed() -> None:
    for abstract in _seed_abstracts():
        assert _first_lost_word(abstract) is None, abstract[:80]


def test_every_word_survives_in_real_abstracts() -> None:
    abstracts = _sample_abstracts()
    assert len(abstracts) >= 250
    lost = {a[:60]: w for a in abstracts if (w := _first_lost_word(a)) is not None}
    assert lost == {}


def test_the_word_check_catches_a_swallowed_line() -> None:
    # pylatexenc alone reads a bare % as a comment; the check must notice that kind of loss.
    from pylatexenc.latex2text import LatexNodes2Text

    source = r"gains of 50% and \emph{more} words after the percent sign"
    naive = LatexNodes2Text().latex_to_text(source)
    assert "words" not in naive
    assert _first_lost_word(source) is None


def _check_spans(rendered: RenderedText) -> None:
    n = len(rendered.text)
    open_spans: list[Span] = []
    for span in rendered.spans:
        assert 0 <= span.start < span.end <= n
        while open_spans and open_spans[-1].end <= span.start:
            open_spans.pop()
        if open_spans:
            assert span.end <= open_spans[-1].end, "spans cross"
        open_spans.append(span)
    assert list(rendered.spans) == sorted(rendered.spans, key=lambda s: (s.start, -s.end))


_MARKUP = st.sampled_from(
    [
        "$", "$$", "\\", "*", "**", "`", "``", "''", "%", "\\%", "_", "^", "{", "}", "~",
        "\\emph{", "\\textsc{", "\\frac{", "\\mathcal{O}", "\\(", "\\)", "\\[", "\\]",
        "https://a.org/x", "\\url{", "\\href{", "{\\em ", "\\\\", "\\$", "x^{", "_{",
        "\\cite{", "\\begin{itemize}", "\\item", " ", "\n", "word", "Ünï", "\U000f1000",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_MARKUP, st.text(max_size=8)), max_size=30).map("".join))
@example("$$_\\$$")  # a script of a backslash that ends the math: raised
@example("$x^\\$ and $y_ \\$")
def test_arbitrary_text_never_raises_and_spans_are_sound(source: str) -> None:
    rendered = render_abstract(source)
    _check_spans(rendered)
    assert latex_to_text(source) == rendered.text


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_unicode_never_raises(source: str) -> None:
    _check_spans(render_abstract(source))
    for link in find_links(source):
        assert link.startswith(("http://", "https://"))


def test_sample_spans_are_sound() -> None:
    for abstract in _sample_abstracts() + _seed_abstracts():
        _check_spans(render_abstract(abstract))


def test_bibtex_fields() -> None:
    assert latex_to_text("{BERT}: Pre-training of {D}eep Transformers") == (
        "BERT: Pre-training of Deep Transformers"
    )
    assert latex_to_text(r"Schr{\"o}dinger and G{\"u}nther") == "Schrödinger and Günther"
    assert latex_to_text("the set {0, 1} stays") == "the set {0, 1} stays"


def test_space_after_an_accent_macro_is_kept() -> None:
    assert latex_to_text(r"Jos\'e {van der} Berg") == "José van der Berg"
    assert latex_to_text(r"M{\"u}ller and Sch\"olkopf") == "Müller and Schölkopf"


# -- hostile sources: bounded depth and linear work (issue 19, items 11 and 17) -------------


@pytest.mark.parametrize(
    "source",
    [
        "\\emph{" * 300 + "deep" + "}" * 300,
        "\\textbf{" * 2000 + "deep" + "}" * 2000,
        "{\\bf " * 500 + "deep" + "}" * 500,
        "**" + "\\emph{" * 300 + "deep" + "}" * 300 + "**",
        "$" + "x^{" * 400 + "deep" + "}" * 400 + "$",
    ],
    ids=["300 emph", "2000 textbf", "500 bf switches", "bold around 300 emph", "400 scripts"],
)
def test_deep_nesting_renders_without_recursion_error(source: str) -> None:
    rendered = render_abstract(source)  # raised RecursionError at 300 levels
    assert "deep" in rendered.text


def _counting_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text run handed to pylatexenc from now on."""
    from paperdeck.core.text import render

    sizes: list[int] = []
    original = render._Renderer.run

    def run(self: render._Renderer, raw: str) -> None:
        if "\\" in raw:
            sizes.append(len(raw))
        original(self, raw)

    monkeypatch.setattr(render._Renderer, "run", run)
    return sizes


@pytest.mark.parametrize(
    "source",
    [
        "\\" + "a" * 2_000_000,
        "\\emph{a} $x^2$ **b** word " * 100_000,
        ("\\alpha " * 10 + "\n\n") * 50_000,
    ],
    ids=["one 2 MB word", "2.4 MB of markup", "many paragraphs"],
)
def test_a_huge_source_is_rendered_in_bounded_pieces_and_keeps_its_text(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.text.render import CHUNK_CHARS, MAX_RENDERED_CHARS

    sizes = _counting_runs(monkeypatch)
    rendered = render_abstract(source)
    # pylatexenc (quadratic on long runs) never sees more than one piece at a time, and no
    # more than the rendered part of the text in all.
    assert max(sizes) <= CHUNK_CHARS and sum(sizes) <= MAX_RENDERED_CHARS
    # Past the rendered part, the text is there as it stands.
    assert rendered.text.endswith(source[MAX_RENDERED_CHARS:])
    assert all(0 <= span.start < span.end <= len(rendered.text) for span in rendered.spans)


def test_unclosed_groups_are_matched_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from paperdeck.core.text import render

    scans: list[int] = []
    original = render._find_group_end

    def scan(s: str, open_pos: int, end: int) -> int:
        scans.append(end - open_pos)
        return original(s, open_pos, end)

    monkeypatch.setattr(render, "_find_group_end", scan)
    rendered = render_abstract("\\emph{open " * 3000)
    # Each unclosed group was scanned to the end of the text: 3,000 scans of ~30,000 chars.
    assert sum(scans) < 10 * 30_000
    assert rendered.text.count("open") == 3000


def test_a_long_abstract_renders_as_one_piece_would() -> None:
    # The longest of 100,000 real abstracts has 4,615 characters: one piece.
    from paperdeck.core.text.render import CHUNK_CHARS

    source = "We study $x^2$ and \\emph{very} **bold** claims. " * (4615 // 48)
    assert len(source) <= CHUNK_CHARS
    rendered = render_abstract(source)
    assert rendered.text.count("x²") == source.count("$x^2$")
    assert sum(1 for span in rendered.spans if span.style == "italic") == source.count("\\emph")


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (
            "time is not naturally divided into discrete increments.Here we consider",
            "time is not naturally divided into discrete increments. Here we consider",
        ),
        (
            "and more.We begin. It works!Then okay?Yes",
            "and more. We begin. It works! Then okay? Yes",
        ),
        ("e.g.We kept, U.S.The, et al.Then", "e.g.We kept, U.S.The, et al.Then"),
        ("an nn.Module and `torch.Tensor` stay", "an nn.Module and torch.Tensor stay"),
        ("see https://example.org/docs.Intro please", "see https://example.org/docs.Intro please"),
    ],
)
def test_sentences_run_together_are_spaced_apart_but_code_links_and_initials_are_not(
    source: str, shown: str
) -> None:
    assert render_abstract(source).text == shown


def test_spacing_sentences_apart_moves_the_styles_with_their_words() -> None:
    rendered = render_abstract("We use **sparse.Attention** here.Then $x^2$ and *it*.")
    assert rendered.text == "We use sparse. Attention here. Then x² and it."
    assert _styled(rendered, "bold") == ["sparse. Attention"]
    assert _styled(rendered, "math") == ["x²"]
    assert _styled(rendered, "italic") == ["it"]


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("Wang--Landau sampling", "Wang–Landau sampling"),
        (
            "The Distribution Transformer---an architecture",
            "The Distribution Transformer—an architecture",
        ),
        ("SSD--CPU--GPU offloading", "SSD–CPU–GPU offloading"),
        ("Harm reduced by 78--89%", "Harm reduced by 78–89%"),
        ("Mixed strategies -- when aligned", "Mixed strategies – when aligned"),
        ("A tool run with --help", "A tool run with --help"),  # an option, not a dash
        ("Learning for GNNs ---a general approach", "Learning for GNNs —a general approach"),
        ("State-of-the-art pre-training", "State-of-the-art pre-training"),
        # as the abstract's renderer reads them: an arrow and code as they stand
        ("Accuracy 73.9% --> 81.8%, and a <-- b", "Accuracy 73.9% --> 81.8%, and a <-- b"),
        (r"The flag \texttt{a--b} of it", "The flag a--b of it"),
    ],
)
def test_a_titles_tex_dashes_read_as_dashes(title: str, shown: str) -> None:
    assert display_title(title) == shown
    assert display_title(title) == render_abstract(title).text
    assert bool(has_title_markup(title)) == ("--" in title)


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("Don't Just \"Fix it in Post'': A Science", "Don't Just “Fix it in Post”: A Science"),
        ("The ''price of opacity'' of it", "The “price of opacity” of it"),
        ("``Paired'' quotes", "“Paired” quotes"),
        ("Don't stop", "Don't stop"),
    ],
)
def test_a_titles_tex_quotes_read_as_quotes(title: str, shown: str) -> None:
    assert display_title(title) == shown
    assert display_title(title) == render_abstract(title).text


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("inductive bias---particularly for graphs", "inductive bias—particularly for graphs"),
        ("drift -- a phenomenon", "drift – a phenomenon"),
        ("the Mumford--Shah functional", "the Mumford–Shah functional"),
        ("pages 3--5 of it", "pages 3–5 of it"),
        ("$k$---means and $1$--$5$", "k—means and 1–5"),  # a dash next to math
        (r"with \emph{layers}---the rest", "with layers—the rest"),  # a run with a command
        ("run it with --help or --out-dir", "run it with --help or --out-dir"),
        ("NOTEARS ---is widely used", "NOTEARS —is widely used"),  # three are no option
        (
            "non-convex and --from a worst case view-- often hard",
            "non-convex and –from a worst case view– often hard",
        ),  # an aside's dashes written against its words
        ("encodings --symbols -- capable", "encodings –symbols – capable"),
        ("the history --the interactions", "the history --the interactions"),  # alone: kept
        (r"a \cite{x} run with --help", "a [x] run with --help"),  # pylatexenc made it a dash
        ("from 73.9% --> 81.8% <-- and <!-- x", "from 73.9% --> 81.8% <-- and <!-- x"),
        ("a rule ---- here", "a rule ---- here"),
        (r"the flag \texttt{a--b} and `x--y`", "the flag a--b and x--y"),  # code as typed
        ("see https://a.org/x--y here", "see https://a.org/x--y here"),
    ],
)
def test_an_abstracts_tex_dashes_read_as_dashes(source: str, shown: str) -> None:
    assert render_abstract(source).text == shown


def test_styles_after_a_tex_dash_stay_on_their_words() -> None:
    rendered = render_abstract("Bias---and \\emph{graphs}--see $x$ -- **bold** here")
    assert rendered.text == "Bias—and graphs–see x – bold here"
    assert _styled(rendered, "italic") == ["graphs"]
    assert _styled(rendered, "math") == ["x"]
    assert _styled(rendered, "bold") == ["bold"]


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("a larger ''teacher'' model", "a larger “teacher” model"),
        ("in \"online'' settings", "in “online” settings"),
        ("the “redundancy'' of receivers", "the “redundancy” of receivers"),
        ("Matrix Stochastic Gradient'' (MSG)", "Matrix Stochastic Gradient” (MSG)"),
        ("(``condition on selection). Then", "(“condition on selection). Then"),
        ("the \"a\" and b'' x", 'the "a" and b” x'),  # a straight pair stays one
        ("the ''$k$-means'' way", "the “k-means” way"),  # next to math
        (r"a \emph{b} ''teacher'' \cite{x}", "a b “teacher” [x]"),  # a run with a command
        ("Don't stop, it's fine", "Don't stop, it's fine"),
    ],
)
def test_an_abstracts_tex_quotes_read_as_quotes(source: str, shown: str) -> None:
    assert render_abstract(source).text == shown


def test_styles_after_a_tex_quote_stay_on_their_words() -> None:
    rendered = render_abstract("A ''teacher'' and \"online'' \\emph{student} $x$")
    assert rendered.text == "A “teacher” and “online” student x"
    assert _styled(rendered, "italic") == ["student"]
    assert _styled(rendered, "math") == ["x"]


@pytest.mark.parametrize(
    ("source", "italic"),
    [
        ("research on _algorithms with predictions_. When", ["algorithms with predictions"]),
        ("we introduce _TrojFSP_, a method", ["TrojFSP"]),
        ("during _fine-tuning_ is", ["fine-tuning"]),
        ("the form ''_A_ is _B_'', it", ["A", "B"]),
        ("_the $k$-means way_ here", ["the k-means way"]),  # math inside
        ("a snake_case name, file_names and x_t or y_{i}", []),  # inside words
        ("a _variable-length sequence", []),  # never closed
        ("_foo $x_t$ bar", []),  # the underscore closing it is math's
        ("the __init__ method", []),
        ("_one paragraph\n\nand another_", []),
        ("an escaped \\_x_ mark", []),
        ("column norms ||(BC)_.j ||_1, which N_.j violates", []),  # math without its dollars
        ("controller with an \\mathcal{L}_{1} part_ and", []),
        ("inter-annotator agreement (_k_=0.88).", ["k"]),
    ],
)
def test_markdown_underscores_emphasise_words(source: str, italic: list[str]) -> None:
    rendered = render_abstract(source)
    assert _styled(rendered, "italic") == italic
    assert ("_" in rendered.text) == (not italic)


def test_styles_after_an_underscore_emphasis_stay_on_their_words() -> None:
    rendered = render_abstract("We call it _inter-class poison transfer_, then **bold** and $x$.")
    assert rendered.text == "We call it inter-class poison transfer, then bold and x."
    assert _styled(rendered, "italic") == ["inter-class poison transfer"]
    assert _styled(rendered, "bold") == ["bold"]
    assert _styled(rendered, "math") == ["x"]


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"data $x_1, \ldots, x_n \in \mathbb{R}^p$ here", "data x₁, …, xₙ ∈ ℝᵖ here"),
        (r"for $p \in \{1,2,\infty\}$", "for p ∈ {1,2,∞}"),
        (r"for any $\delta \in [0,1]$", "for any δ ∈ [0,1]"),
        (r"maps $f: \mathcal{X} \to \mathcal{Y}$", "maps f: 𝒳 → 𝒴"),
        (r"bound $a \le \beta \times \mathbf{b}$", "bound a ≤ β × 𝐛"),
        (r"tight $x\in\mathbb{R}$", "tight x∈ℝ"),  # no space in the source, none shown
        (r"not $x \not\in S$ or $a \notin B$", "not x ∉ S or a ∉ B"),
        (r"in $A\in \mathbb{R}^{n\times n}$, $K\to \infty$", "in A ∈ ℝ^(n × n), K → ∞"),
        (r"the integral $\int_0^1 f$", "the integral ∫₀¹ f"),  # \int is not \in
    ],
)
def test_math_keeps_the_space_around_a_relation(source: str, shown: str) -> None:
    assert render_abstract(source).text == shown


def test_a_titles_relation_keeps_its_space() -> None:
    assert display_title(r"Rates for $p \in \{1,2,\infty\}$ norms") == "Rates for p ∈ {1,2,∞} norms"


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"a \alpha run", "a α run"),
        (r"a \alpha{} run", "a α run"),
        (r"a \alpha{}run", "a αrun"),
        (r"a \alpha\beta run", "a αβ run"),
        (r"a \alpha, run", "a α, run"),
        (r"$\alpha$ run and $\alpha \beta$", "α run and αβ"),
        (r"the \LaTeX document", "the LaTeX document"),
        (r"hand made (\eg rules) and \etal here", "hand made (e.g. rules) and et al. here"),
        (
            r"at most \epsilon with \epsilon \in (0,1) and n\gg S",
            "at most ϵ with ϵ ∈ (0,1) and n ≫ S",
        ),
        (r"the \textit{x} run and \cite{y} too", "the x run and [y] too"),
        (r"the notion of \em normal SPN, \bf x^T and", "the notion of normal SPN, x^T and"),
        # a letter's command in a word, an opening quote: the space is TeX's end of it
        (r"a \textquotedblleft rate\textquotedblright\ here", "a “rate” here"),
        (
            r"Stra\ss e, J\o rgensen, \L ukasz, Erd\H os, na\"{\i}ve",
            "Straße, Jørgensen, Łukasz, Erdős, naïve",
        ),
    ],
)
def test_a_command_in_prose_keeps_the_space_after_it(source: str, shown: str) -> None:
    assert render_abstract(source).text == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"curvature $\sigma''(z)$ here", "curvature σ′′(z) here"),
        (r"maps $X'$ and $x^{\prime}$", "maps X′ and x′"),
        (r"and $x'_i$", "and x′ᵢ"),
        (r"an accent $\'e$", "an accent é"),
        (r"loss $\ell(\text{teacher's output})$", "loss ℓ(teacher's output)"),
    ],
)
def test_a_prime_in_math_reads_as_a_prime(source: str, shown: str) -> None:
    assert render_abstract(source).text == shown
