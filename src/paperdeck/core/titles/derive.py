"""Method names and derived titles for papers that come without one (regular expressions only)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from paperdeck.core.text.dollars import closing_dollar
from paperdeck.core.titles import UNTITLED

MAX_TITLE = 90
CITED_TITLE = 200
"""How long a made-up title may grow in a citation, where a cut ("…") would stand in the
middle of what reads as the paper's title."""

# --- plain text for titles (no pylatexenc: this runs for every paper at load) -------------------

_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
    "eps": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "ell": "ℓ", "infty": "∞", "times": "×", "cdot": "·", "sim": "∼", "approx": "≈",
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ll": "≪", "gg": "≫", "pm": "±",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "in": "∈", "sqrt": "√", "partial": "∂",
    "nabla": "∇", "sum": "∑", "prod": "∏", "ldots": "…", "dots": "…", "cdots": "⋯",
    "star": "⋆", "ast": "∗", "top": "⊤", "%": "%", "&": "&", "_": "_", "#": "#", "$": "$",
}  # fmt: skip
_DROP_MACRO_NAMES = """
    left right big Big bigg Bigg mathcal mathbb mathbf mathrm mathsf mathit mathfrak mathscr mathtt
    textsc textbf textit texttt textrm textsf text emph em it bf rm sc tt operatorname bm
    boldsymbol tilde widetilde hat widehat bar overline underline cite citep citet mbox url href
    ensuremath quad qquad
"""
_DROP_MACROS = frozenset(_DROP_MACRO_NAMES.split())
# An accent over a letter (`Nystr\"om`, `Szepesv\'{a}ri`, `\c{c}`) as the letter and the
# combining mark that composes with it.
_ACCENTS = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "v": "\u030c", "u": "\u0306", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a",
}  # fmt: skip
_LATEX_TOKEN_RE = re.compile(
    r"\\(?:([\"'`^~=.])|([vuHckr])(?=\s*\{))\s*"
    r"(?:\{\s*(\\i|[A-Za-z])\s*\}|(\\i(?![A-Za-z])\s?|[A-Za-z]))"
    r"|\\([A-Za-z]+|.)\s?|\*\*?|[${}~]|``|''"
)


def _plain_token(m: re.Match[str]) -> str:
    token = m.group()
    letter = m.group(3) or m.group(4)
    if letter is not None:
        mark = _ACCENTS[m.group(1) or m.group(2)]
        return unicodedata.normalize("NFC", ("i" if letter[0] == "\\" else letter) + mark)
    name = m.group(5)
    if name is not None:
        if name in _SYMBOLS:
            return _SYMBOLS[name] + (" " if token[-1].isspace() else "")
        if name in _DROP_MACROS:
            return ""
        return name + (" " if token[-1].isspace() else "")
    if token[0] in "*${}":
        return ""
    if token == "``":
        return "“"
    if token == "''":
        # opening where a word starts: sources write ''price of opacity'' for ``...''
        at = m.start()
        return "“" if at == 0 or m.string[at - 1] in "([" or m.string[at - 1].isspace() else "”"
    return " "  # `~`


def plain_title_text(text: str) -> str:
    """LaTeX and markdown stripped for a title: `$\\mathcal{O}(n)$` -> O(n), `**X**` -> X."""
    if (  # all that _LATEX_TOKEN_RE can match (a lone quote needs no work)
        "\\" in text or "*" in text or "$" in text or "{" in text or "}" in text
        or "~" in text or "``" in text or "''" in text
    ):  # fmt: skip
        text = _LATEX_TOKEN_RE.sub(_plain_token, text)
    return " ".join(text.split())


# --- shared text analysis -------------------------------------------------------------------------
# Everything here runs for each of 100,000 papers at load: str.find and anchored matches on short
# slices instead of patterns scanned over the whole abstract, and no pattern built per paper.

# any command's braced argument (\\textsc{X}, \\algname{FedNL}, \\mathtt{X}) and {\\em X}
_MARKUP_RE = re.compile(r"\\[A-Za-z]+\s*\{([^{}]*)\}|\{\\(?:em|it|bf|sc|tt|rm|sf)\s+([^{}]*)\}")
# a backslash before a macro named with two capitals or more (\\UCRL, \\ourMethod), not \\Gamma
_NAME_MACRO_RE = re.compile(r"\\(?=[A-Za-z]*[A-Z][a-z]*[A-Z])(?=[A-Za-z]+\b)")
# led by the literal "_" (the look-behind after it) so that the engine skips ahead to each "_"
_UNDERSCORE_EMPHASIS_RE = re.compile(r"_(?<![\w\\]_)([A-Za-z][\w-]*)_(?!\w)")


def _flatten(abstract: str) -> str:
    """The abstract with emphasis markup and math delimiters removed: names read as plain words."""
    if "\\" in abstract and "{" in abstract:
        for _ in range(3):  # nested: \texttt{\textbf{HDFlow}}
            flat = _MARKUP_RE.sub(r"\1\2", abstract)  # an unmatched group gives ""
            if flat == abstract:
                break
            abstract = flat
    if "\\" in abstract:  # a name the authors made a macro of: "we present \\UCRLnew"
        abstract = _NAME_MACRO_RE.sub("", abstract)
    if "*" in abstract:
        abstract = abstract.replace("*", "")
    if "$" in abstract:
        abstract = abstract.replace("$", "")
    if "_" in abstract:
        abstract = _UNDERSCORE_EMPHASIS_RE.sub(r"\1", abstract)
    if "~" in abstract:
        abstract = abstract.replace("~", " ")
    return abstract


_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "resp.", "approx.")
# (also "a hard problem.We propose X", "a nearly optimal algorithm.Furthermore, we": a sentence a
# scraped list ran into the last one, told as the renderer tells it: a word of three lowercase
# letters or more before the mark, a capitalised word after it; not "e.g.", "U.S.", "nn.Module")
_SENTENCE_END_RE = re.compile(
    r"[.!?](?=\s+[A-Z0-9\"“(\\$]|\s*$|(?:We|Our|In this|Here) |(?<=[a-z]{3}[.!?])[A-Z][a-z])"
)
# the same led by the literal ".", which the engine finds faster, for text with no "!" or "?"
_PERIOD_END_RE = re.compile(
    r"\.(?=\s+[A-Z0-9\"“(\\$]|\s*$|(?:We|Our|In this|Here) |(?<=[a-z]{3}\.)[A-Z][a-z])"
)


def _sentence_end(text: str, pos: int) -> int:
    """Index just past the sentence that contains pos."""
    pattern = _SENTENCE_END_RE if "!" in text or "?" in text else _PERIOD_END_RE
    while True:
        m = pattern.search(text, pos)
        if m is None:
            return len(text)
        if not text.endswith(_ABBREVIATIONS, 0, m.end()):
            return m.end()
        pos = m.end()


_ADVERBS = (
    r"(?:(?:also|further|then|first|hereby|therefore|thus|now|newly|additionally|instead|here)\s+)?"
)
_INTRO_VERBS = r"(?:propose|introduce|present)"
_MAKE_VERBS = r"(?:develop|design|build|create|release|devise|construct)"
_OTHER_VERBS = (
    r"(?:study|studie|investigate|"
    r"characterize|analyze|analyse|explore|examine|formalize|establish|provide|address|consider|"
    r"tackle|revisit)"
)
_VERB_AT_RE = re.compile(
    _ADVERBS
    + r"(?:(?P<intro>"
    + _INTRO_VERBS
    + r")|(?P<make>"
    + _MAKE_VERBS
    + r")|"
    + _OTHER_VERBS
    + r"|(?P<argue>argue)(?=s?\s+that\b))(?:s|d)?\b"
)
_ARGUES, _INTRODUCES, _MAKES, _STUDIES = 3, 2, 1, 0

# "called X", "dubbed as X", "we call it X", "Our algorithm, X, ..." (after a space)
_CALLED_HEADS = (
    r"(?:method|algorithm|model|approach|framework|metric|measure|system|architecture|benchmark"
    r"|dataset|tool|estimator|optimizer|agent)s?,"
)
_CALLED_RE = re.compile(
    r"[ .](?:(?:call|nam|dubb|term|coin|propos)ed|(?:propos|introduc)ing|namely|referred to as|"
    r"we (?:call|name|term)|to (?:further )?(?:propose|introduce)|[Oo]ur (?:proposed |novel |new "
    r"|resulting )?" + _CALLED_HEADS + r") (?:as )?"
)
# "the recently proposed Thermodynamic Variational Objective (TVO)" is someone else's
_EARLIER = ("recently ", "previously ", "originally ", "widely ", "commonly ", "often ", "been ")

# The scan for contribution verbs and naming phrases runs over every abstract at load. A pattern
# led by a lone space tries a match at every space; one pass per subject led by a literal that
# starts with a rarer letter ("we ", "his " of "this", "ur " of "our") lets the regex engine jump
# between occurrences in C, with a look-behind for the space (a literal led by a space is found
# about 3x slower). These passes and _NAMING_PASSES together cost about 3/4 of the two space-led
# patterns they replace (measured over the 100,000-paper list) and find the same matches.
# Each pass: (pattern, distance from the subject's space to where the literal starts).
_OUR_CALLED = r"|(?P<call>(?:proposed |novel |new |resulting )?" + _CALLED_HEADS + ")"
_PAPER = r"(?:position )?(?:paper|work|article|study) "
_VERB = _VERB_AT_RE.pattern
_SCAN_PASSES = (
    (re.compile(r"we (?<= we )(?:" + _VERB + r"|(?P<call>(?:call|name|term) ))"), 1),
    (re.compile(r"We (?<=[ .]We )" + _VERB), 1),  # ".We": see _SENTENCE_END_RE
    (re.compile(r"his (?<= this )" + _PAPER + _VERB), 2),
    (re.compile(r"This (?<= This )" + _PAPER + _VERB), 1),
    (re.compile(r"The (?<= The )(?:paper|article) " + _VERB), 1),  # "The paper presents X"
    (re.compile(r"ur (?<= our )(?:(?:paper|work) " + _VERB + _OUR_CALLED + ")"), 2),
    (re.compile(r"Our (?<=[ .]Our )(?:(?:paper|work) " + _VERB + _OUR_CALLED + ")"), 1),
    # "... and introduce SDPO" (after "and" only the introducing verbs count); "called", "named" ...
    (re.compile(
        r"d (?:(?<= and )" + _ADVERBS + r"(?P<intro>" + _INTRO_VERBS + r")(?:s|d)?\b|(?P<call>"
        r"(?<= called )|(?<= named )|(?<= dubbed )|(?<= termed )|(?<= coined )|(?<= proposed )"
        r"|(?<= referred )(?=to as )))"
    ), 3),
)  # fmt: skip
_KINDS = {"intro": _INTRODUCES, "make": _MAKES, "argue": _ARGUES, None: _STUDIES, "call": -1}
# the naming phrases no pass above finds, each by a literal that starts with a rarer letter
_NAMING_PASSES = (
    re.compile(r"pos(?:ing (?<= proposing )|e (?:(?<= to propose )|(?<= to further propose )))"),
    re.compile(
        r"duc(?:ing (?<= introducing )|e (?:(?<= to introduce )|(?<= to further introduce )))"
    ),
    re.compile(r"mely (?<= namely )"),
)


def _scan(flat: str) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Contribution verbs, (subject start, verb end, kind) in order, and where naming phrases end.

    The same matches as one pass of the verb pattern over " " + flat and one of _CALLED_RE over
    flat, each without overlaps, would give (the tests compare both on real abstracts).
    """
    spaced = " " + flat  # the space lets a first "We" match
    contributions: list[tuple[int, int, int]] = []
    naming: list[int] = []  # where a naming phrase may start, in flat
    for pattern, back in _SCAN_PASSES:
        for m in pattern.finditer(spaced):
            space = m.start() - back
            kind = _KINDS[m.lastgroup]  # the one named group that took part, if any
            if kind >= 0:
                contributions.append((space, m.end() - 1, kind))
                if m.group().endswith("proposed"):  # "we proposed X": also a naming phrase
                    naming.append(spaced.rfind(" ", 0, m.end()) - 1)
            elif back == 3:  # "called ", "named " ...: from the space before the word
                space = spaced.rfind(" ", 0, m.start())
                if space:
                    naming.append(space - 1)
            elif space:  # "we call", "our method,": flat has no space before its first word
                naming.append(space - 1)
    if len(contributions) > 1:
        contributions.sort()
    for pattern in _NAMING_PASSES:
        for m in pattern.finditer(flat):
            at = flat.rfind(" to ", 0, m.start() + 1) if m.group()[-2] == "e" else -1
            naming.append(at if at >= 0 else flat.rfind(" ", 0, m.start()))
    points: list[int] = []
    if naming:
        naming.sort()
        taken = 0  # a naming phrase that starts inside the last one is not one
        for at in naming:
            if at < taken:
                continue
            called = _CALLED_RE.match(flat, at)
            if called is None:
                continue
            taken = called.end()
            if not flat.endswith(_EARLIER, 0, at + 1):
                points.append(taken)
    return contributions, points


# --- method names --------------------------------------------------------------------------------

_COMMON_ACRONYM_NAMES = """
    AI ML DL RL NLP CV LLM LLMs VLM VLMs MLLM MLLMs LM LMs SLM SLMs GPU GPUs CPU CPUs TPU TPUs SOTA
    MMLU ARC GSM8K GNN GNNs CNN CNNs RNN RNNs DNN DNNs LSTM LSTMs MLP MLPs ViT ViTs GPT BERT NN NNs
    DP SGD ODE ODEs PDE PDEs SDE SDEs API APIs KL MDP MDPs POMDP POMDPs IID OOD FID MSE PAC UCB
    CLIP RAG LoRA VAE VAEs GAN GANs NeRF NeRFs MoE ICL CoT QA VQA ASR TTS KV SSM SSMs RKHS RLHF
    RLVR DPO PPO GRPO SFT IRL MARL HMM HMMs EM PCA SVD SVM SVMs RBF MCMC VI ELBO NTK ReLU BN TD ERM
    ImageNet CIFAR MNIST COCO GPT2 GPT3 GPT4 ChatGPT OpenAI NeurIPS ICML ICLR CVPR AAAI IJCAI
    GitHub URL PDF FLOPs FLOP TFLOPs NP PSPACE AUC ROC BLEU ROUGE LLaMA AGI US USA UK EU ANN ANNs
    SNN SNNs NMT OCR CRF CRFs IoT ADMM LP QP SDP MILP TSP SAT SMT FPGA CUDA HPC PyTorch TensorFlow
    JAX AdamW Adam SGDM BatchNorm LayerNorm ResNet ResNets DQN DDPG SAC TRPO CIFAR10 CIFAR100 MuJoCo
    WikiText HuggingFace DeepMind SciPy NumPy LaTeX ID IDs IoU mAP NER POS SQL XML HTML JSON PTQ QAT
    KD NAS MAE MIM SSL ViLT DETR YOLO UNet GCN GCNs GAT RLAIF LVLM LVLMs MLLMs AR NAR OT SGLD HMC
"""
_COMMON_ACRONYMS = frozenset(_COMMON_ACRONYM_NAMES.split())
_SMALL_WORD_NAMES = """
    of for via and with in on the to by from a an at as under over through into using without
    across towards toward beyond
"""
_SMALL_WORDS = frozenset(_SMALL_WORD_NAMES.split())
# a name somewhere in the text: internal capitals or digits (BubbleSpec, MARI, TR-CIE, S3Audio)
_NAMEISH_RE = re.compile(r"[A-Z](?:[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]*(?:[-–][A-Za-z0-9]+)*")
# the word a contribution verb or "called" introduces (any case: dnaHNet, mHC, 3ViewSense)
_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9]*(?:[-–][A-Za-z0-9]+)*")
_PAREN_NAME_RE = re.compile(r"\(\s*([A-Za-z0-9][A-Za-z0-9]*(?:[-–][A-Za-z0-9]+)*)\s*\)")
_PAREN_WORD_RE = re.compile(r"\(([A-Z][a-z]+)\)")
_MARKED_RE = re.compile(r"\\textsc\{\s*([^{}\s]+)\s*\}|\*\*([^*\s]+)\*\*")
# "Connect4", "Llama-3-8B", "Qwen3": versions of things used, rarely things made
_USED_NOT_MADE_RE = re.compile(r"[A-Z]?[a-z]+-?[0-9]+[a-zA-Z]*(?:-[0-9A-Za-z]+)*")

_ARTICLE = r"(?:(?:the|a|an|our)\s+)?"
_ADJECTIVES = (
    r"(?:(?:novel|new|simple|general|unified|first|efficient|effective|scalable|principled|"
    r"lightweight|practical|generic|flexible|powerful|versatile|robust|fast)[\s,]+)*"
)
# between "we propose" and what it proposes: "the", "a novel, simple", "a parameter-efficient"
_GAP_RE = re.compile(
    r"\s*" + _ARTICLE + _ADJECTIVES + r"(?:(?!(?:of|for|to|on|in|with|and|or|that|which|from|by|"
    r"as|at|is|are|we|our|its|their|this|these)\b)[a-z][a-z-]*(?<!ing)\s+){0,2}"
)
# "we introduce a new benchmark, Compositional Reasoning Under Uncertainty (CURI)"
_HEAD_LEAD_RE = re.compile(
    r"[^,.;()]{0,80}\b(?:framework|method|model|algorithm|benchmark|dataset|approach|"
    r"architecture|system|agent|metric|measure|estimator|optimizer|network|technique)s?,\s+"
)
# "a novel personalized FL algorithm, pFedGraph, which ...", "a framework SQRL that ..."
# (the head nouns grouped by first letter: fewer tests at each word boundary)
_HEAD_THEN_NAME_RE = re.compile(
    r"\b(?:f(?:ramework)|m(?:ethod|odel)|a(?:lgorithm|pproach|rchitecture|gent)|b(?:enchmark)"
    r"|d(?:ataset)|s(?:ystem|trategy|cheme|olver|ampler|uite)|p(?:ipeline|rotocol|latform)"
    r"|t(?:echnique|oolkit)|l(?:ibrary)|e(?:stimator|nvironment)|o(?:ptimizer)|n(?:etwork))"
    r"s?,?\s+(?:called\s+|named\s+|dubbed\s+|\()?"
    r"([A-Za-z0-9][A-Za-z0-9]*(?:[-–][A-Za-z0-9]+)*)(?=\s*[,.():;]|\s+(?:that|which|to|for)\b)"
)
_FOLLOWING_OK_RE = re.compile(
    r"\s*(?:[,:;.()\[]|—|--|$)|\s+[-–—]+\s|\s+(?:is|was|which|that|to|for|with|as|and|in|on|by|"
    r"achieves|outperforms|uses|enables|leverages|consists|combines|can|improves|learns|"
    r"framework|method|model|algorithm|approach|architecture|system|benchmark|dataset|agent|"
    r"library|toolkit|estimator|optimizer|solver|sampler|network|pipeline|strategy|scheme|"
    r"technique|suite|platform|attack|loss|module|metric|protocol)\b"
)
_APPOSITIVE_AFTER_RE = re.compile(r"\)?\s*[,:]\s+(?:an?|the)\s+\S")
_STOP_BACK_WORDS = """
    we propose proposes introduce introduces present presents develop design called named dubbed
    termed the a an our this is are
"""
_STOP_BACK = frozenset(_STOP_BACK_WORDS.split())
_DASH_RE = re.compile("[-–]")


@lru_cache(maxsize=4096)
def _looks_like_name(token: str) -> bool:
    """A coined name: BubbleSpec, MARI, TR-CIE, dnaHNet, 3ViewSense, Holi-Spatial."""
    if len(token) < 2 or token.isdigit() or token in _COMMON_ACRONYMS:
        return False
    if token[-1] == "s" and token[:-1] in _COMMON_ACRONYMS:
        return False
    if any(c.isupper() for c in token[1:]) and "-" not in token:
        return True
    parts = _DASH_RE.split(token)
    if len(parts) > 1:
        return sum(p[:1].isupper() for p in parts) >= 2 or any(
            any(c.isupper() for c in p[1:]) for p in parts
        )
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def _occurrences(flat: str, name: str) -> list[int]:
    """Where name stands as a whole word (not inside "MARIN" or "pre-MARI")."""
    found = []
    pos = flat.find(name)
    n = len(name)
    while pos >= 0:
        before = flat[pos - 1] if pos else " "
        after = flat[pos + n] if pos + n < len(flat) else " "
        if not (before.isalnum() or before in "-–") and not (after.isalnum() or after in "-–"):
            found.append(pos)
        pos = flat.find(name, pos + n)
    return found


def _acronym_expansion(flat: str, paren: int, name: str) -> tuple[int, str] | None:
    """(start, phrase) of the words before "(NAME)" that NAME abbreviates, when they do."""
    before = flat[max(0, paren - 160) : paren]
    words = before.split()[-12:]
    phrase: list[str] = []
    for word in reversed(words):
        if word[-1] in ",;:)" or word.lower() in _STOP_BACK:
            break
        phrase.insert(0, word)
    # ACFlow abbreviates by its capitals; MARI, TR-CIE by every letter
    letters = name if name.isupper() or name[1:].islower() else "".join(filter(str.isupper, name))
    letters = "".join(c for c in letters.lower() if c.isalpha())
    if not letters:
        return None
    # the longest phrase that starts with the initial and is not much longer than the acronym
    for first in range(len(phrase)):
        if phrase[first][0].lower() != letters[0]:
            continue
        words = phrase[first:]
        if sum(w.lower() not in _SMALL_WORDS for w in words) > len(letters) + 2:
            continue
        lowered = " ".join(words).lower()
        pos = 0
        for c in letters:
            pos = lowered.find(c, pos)
            if pos < 0:
                break
            pos += 1
        else:
            joined = " ".join(words)
            break
    else:
        return None
    start = flat.rfind(joined, 0, paren)
    return (start, joined) if start >= 0 else None


class _Analysis:
    """What find_method and derive_title both read: the flattened abstract, its contribution
    verbs in order (subject start, verb end, kind), and the method name it introduces."""

    __slots__ = ("abstract", "contributions", "flat", "math_spans", "maths", "method")

    def __init__(self, abstract: str) -> None:
        self.abstract = abstract
        self.flat = flat = _flatten(abstract).strip()
        self.contributions, points = _scan(flat)
        self.method = _method(abstract, flat, self.contributions, points)
        # read when a title is made (_with_math): where the maths are, each math once asked
        self.math_spans: list[tuple[int, int]] | None = None
        self.maths: dict[int, _Math] = {}


@lru_cache(maxsize=8)
def _analyse(abstract: str) -> _Analysis:
    return _Analysis(abstract)


# --- the abstract's maths in a made-up title ---------------------------------------------------
# A title is cut from the flattened abstract, whose maths lost what the abstract shows: a font
# ($\mathbb{R}^d$ -> R^d where the abstract reads ℝᵈ), a script's braces (K^{2/3} -> K^2/3, read
# K²/3), an accent, a symbol. Each math the title took whole is put back as the abstract writes
# it, so that display_title renders it as the abstract's.

# what flattening may change in a math: a macro, a brace, a superscript (`$C^*$` -> C^); its `$`
# and a bare subscript (`$x_i$` -> x_i) display_title renders as the abstract does
_MATH_MARKUP_RE = re.compile(r"[\\{^*]")
# a math flattening loses nothing of: a word (`$\texttt{FedNL}$`, `$\mathrm{KL}$`), a symbol
# with a bare script or none (`$\epsilon$`, `$\ell_p$`)
_KEPT_MATH_RE = re.compile(
    r"\\(?:text[a-z]*|math(?:rm|tt|sf|it)|operatorname)\{[\w-]+\}"
    r"|\\(?:" + "|".join(name for name in _SYMBOLS if name.isalpha()) + r")(?:[_^][A-Za-z0-9])?"
)
_PAREN_MATH_RE = re.compile(r"\\\((.{1,400}?)\\\)", re.S)
# what a math's text in a title has and a title's words alone have not: a symbol, a script, a
# letter alone ("in R^d", "H-consistency", "O(n)"; "a", "A" and "I" are words). A math of
# digits and brackets alone reads as its text does.
# (two patterns: each is scanned faster than the two as one)
_SYMBOL_RE = re.compile(r"[^\sA-Za-z0-9(),.;:'\"“”‘’!?…-]")
_LONE_LETTER_RE = re.compile(r"(?<![A-Za-z])[B-HJ-Zb-z](?![A-Za-z])")


class _Math:
    """A math of the abstract: where it starts, its source, its text in a title (flattened
    as the title's is) and in the flattened abstract, and whether a word is glued to it."""

    __slots__ = ("flat", "glued_after", "glued_before", "near", "source", "start", "text")

    def __init__(self, abstract: str, start: int, end: int) -> None:
        self.start = start
        source = abstract[start:end]
        self.source = " ".join(source.split())
        self.flat = _flatten(source).strip()
        self.text = plain_title_text(self.flat)
        self.glued_before = start > 0 and abstract[start - 1].isalnum()  # Note$_{EM}$
        self.glued_after = end < len(abstract) and abstract[end].isalnum()  # $^p$GNN
        self.near = -1  # where it stands in the flattened abstract, once asked (_math_at)


def _math_spans(abstract: str) -> list[tuple[int, int]]:
    """Where the abstract's maths that flattening changes start and end, their `$` paired as
    the renderer pairs them."""
    found: list[tuple[int, int]] = []
    n = len(abstract)
    at = abstract.find("$")
    while at >= 0:
        end = -1
        if at == 0 or abstract[at - 1] != "\\":
            if abstract.startswith("$$", at):
                close = abstract.find("$$", at + 2)
                end = close + 2 if close > 0 else -1
            else:
                close = closing_dollar(abstract, at, n)
                end = close + 1 if close > 0 else -1
        if end < 0:
            at = abstract.find("$", at + 1)
            continue
        mark = 1 if end - at > 2 and abstract[at + 1] != "$" else 2
        if _changed_math(abstract[at + mark : end - mark]):
            found.append((at, end))
        at = abstract.find("$", end)
    if "\\(" in abstract:
        for m in _PAREN_MATH_RE.finditer(abstract):
            if _changed_math(m.group(1)):
                found.append(m.span())
    return found


def _changed_math(inner: str) -> bool:
    inner = inner.strip()
    if not inner or _MATH_MARKUP_RE.search(inner) is None:
        return False
    return _KEPT_MATH_RE.fullmatch(inner) is None


# three words or more of lowercase letters: a stretch of a title as its abstract writes it
_PLAIN_RUN_RE = re.compile(r"[a-z]+(?: [a-z]+){2,}")


def _title_maths(analysis: _Analysis, title: str) -> list[_Math]:
    """The abstract's maths the title can hold: those near where a stretch of the title stands
    in the flattened abstract (every one when no stretch stands there once)."""
    spans = analysis.math_spans
    if spans is None:
        spans = analysis.math_spans = _math_spans(analysis.abstract)
    if not spans:
        return []
    flat = analysis.flat
    low, high = 0, len(analysis.abstract)
    for run in _PLAIN_RUN_RE.finditer(title):
        at = flat.find(run.group())
        if at >= 0 and flat.find(run.group(), at + 1) < 0:
            # a math stands at least as far into the abstract as into the flattened one, and
            # at most as much further as flattening took out
            low = at - len(title)
            high = at + len(title) + len(analysis.abstract) - len(flat)
            break
    maths = analysis.maths
    found = []
    for start, end in spans:
        if low <= start <= high:
            math = maths.get(start)
            if math is None:
                math = maths[start] = _Math(analysis.abstract, start, end)
            if math.text:
                found.append(math)
    return found


def _last_word(text: str) -> str:
    space = text.rstrip().rfind(" ")
    return text[space + 1 :].rstrip().lower()


def _first_word(text: str) -> str:
    text = text.lstrip()
    space = text.find(" ")
    return (text if space < 0 else text[:space]).lower()


def _math_at(analysis: _Analysis, math: _Math, title: str, at: int, end: int) -> bool:
    """Whether title[at:end], the math's text or the start of it, was cut from that math: it
    stands as the math does among the words (glued to one or not), the math's text stands
    where the math does in the flattened abstract, and a word next to it is the one there."""
    if at > 0 and title[at - 1].isalnum() != math.glued_before:
        return False
    if end < len(title) and title[end].isalnum() != math.glued_after:
        return False
    flat = analysis.flat
    near = math.near
    if near < 0:
        # (the flattened abstract's start is stripped as the analysis strips it)
        near = math.near = len(_flatten(analysis.abstract[: math.start]).lstrip())
    where = flat.find(math.flat, max(0, near - 4), near + len(math.flat) + 4)
    if where < 0:
        return False
    before = _last_word(title[:at])
    after = _first_word(title[end:])
    if not before and not after:
        return True
    if before and before == _last_word(plain_title_text(flat[max(0, where - 60) : where])):
        return True
    after_flat = plain_title_text(flat[where + len(math.flat) : where + len(math.flat) + 60])
    return bool(after) and after == _first_word(after_flat)


def _with_math(analysis: _Analysis, title: str) -> str:
    """The title with each math it took whole from the abstract as the abstract writes it,
    and cut before a math its cut would end in ("of the form min_xmax_y langle…")."""
    if analysis.math_spans == []:
        return title
    abstract = analysis.abstract
    if "$" not in abstract and ("\\" not in abstract or "\\(" not in abstract):
        analysis.math_spans = []
        return title
    if (
        not analysis.maths  # (a title whole read them first: its cut one is read alike)
        and _SYMBOL_RE.search(title) is None
        and _LONE_LETTER_RE.search(title) is None
    ):
        return title  # most titles: the maths are not read
    maths = _title_maths(analysis, title)
    if not maths:
        return title
    if title.endswith("…"):
        title = _cut_before_math(analysis, maths, title)
    taken: list[tuple[int, int, str]] = []
    for math in maths:
        text = math.text
        at = title.find(text)
        while at >= 0:
            end = at + len(text)
            free = all(end <= start or at >= stop for start, stop, _ in taken)
            if free and _math_at(analysis, math, title, at, end):
                taken.append((at, end, math.source))
                break
            at = title.find(text, at + 1)
    if not taken:
        return title
    taken.sort()
    pieces: list[str] = []
    last = 0
    for start, stop, source in taken:
        pieces += [title[last:start], source]
        last = stop
    pieces.append(title[last:])
    return "".join(pieces)


def _cut_before_math(analysis: _Analysis, maths: list[_Math], title: str) -> str:
    """A title cut with "…" inside a math's text, cut before that math instead (a math's
    start reads wrong); as it stands when too little would be left."""
    body = title[:-1].rstrip()
    at = body.rfind(" ")
    while at >= 20:
        tail = body[at + 1 :]
        for math in maths:
            if (
                len(tail) < len(math.text)
                and math.text.startswith(tail)
                and _math_at(analysis, math, body, at + 1, len(body))
            ):
                kept = _drop_dangling(body[:at]).rstrip(" ,;:(-")
                return kept + "…" if len(kept) >= 20 else title
        at = body.rfind(" ", 0, at)
    return title


def _introduced(flat: str, point: int) -> tuple[str, int] | None:
    """The name introduced at point, directly or as the acronym of the phrase there."""
    gap = _GAP_RE.match(flat, point)
    start = gap.end() if gap else point
    n = len(flat)
    while start < n and flat[start] in "'\"“‘`":
        start += 1
    m = _TOKEN_RE.match(flat, start)
    if m and _looks_like_name(m.group()):
        after = m.end()
        while after < n and flat[after] in "'\"”’`":
            after += 1
        article = flat[point:start].split()[:1]
        # "a BBO method" names a kind of thing; "BBO, a ..." or "the DeltaGrad algorithm" a thing
        kind_of = (
            article in (["a"], ["an"]) and m.group().isupper() and flat[after : after + 1] == " "
        )
        if _FOLLOWING_OK_RE.match(flat, after) and not kind_of:
            return m.group(), start
    # The rest looks no further than the end of the sentence; most points have neither a head
    # noun nor a parenthesis within reach, and then the sentence end is not needed. (A pattern
    # that finds nothing before point + 120 finds nothing before an earlier sentence end either.)
    end = -1
    named = _HEAD_THEN_NAME_RE.search(flat, point, point + 120)
    if named:
        end = _sentence_end(flat, point)
        if end < point + 120:
            named = _HEAD_THEN_NAME_RE.search(flat, point, end)
        if named and _looks_like_name(named.group(1)) and "," not in flat[point : named.start()]:
            return named.group(1), named.start(1)
    # "we propose Multi-Adapter Representation Interventions via Energy Calibration (MARI)"
    paren = flat.find("(", point, point + 200)
    if paren < 0:
        return None
    if end < 0:
        end = _sentence_end(flat, point)
    stop = min(end, point + 200)
    while 0 <= paren < stop:
        p = _PAREN_NAME_RE.match(flat, paren)
        if p:
            name = p.group(1)
            if _looks_like_name(name) or (
                name[0].isupper() and name[1:].islower() and flat.count(name) >= 3
            ):
                expansion = _acronym_expansion(flat, paren, name)
                if expansion is not None and (
                    _GAP_RE.fullmatch(flat, point, expansion[0])
                    or _HEAD_LEAD_RE.fullmatch(flat, point, expansion[0])
                ):
                    return name, p.start(1)
        paren = flat.find("(", paren + 1, stop)
    return None


_CAPITALISED_WORD_RE = re.compile(r"[A-Z][a-z]+")
# an apposition after a name: "FooNet, a network for ...", "(FooNet): the first ..."
_APPOSITION_SITE_RES = {
    ",": re.compile(r",\s+(?:an?|the)\s+\S"),
    ":": re.compile(r":\s+(?:an?|the)\s+\S"),
}


def _apposed_names(flat: str) -> set[str]:
    """Names written as a whole word right before an apposition ("X, a ...", "(X): the ...")
    that are name-like (as _NAMEISH_RE finds them) or capitalised words also written "(X)"."""
    found: set[str] = set()
    for mark, pattern in _APPOSITION_SITE_RES.items():
        if mark not in flat:
            continue
        for m in pattern.finditer(flat):
            end = m.start()
            while end and flat[end - 1].isspace():
                end -= 1
            if end and flat[end - 1] == ")":
                end -= 1
            start = end
            while start and (flat[start - 1].isalnum() or flat[start - 1] in "-–"):
                start -= 1
            if start == end:
                continue
            word = flat[start:end]
            if (
                _NAMEISH_RE.fullmatch(word)
                and _looks_like_name(word)
                and not _USED_NOT_MADE_RE.fullmatch(word)
            ) or (_CAPITALISED_WORD_RE.fullmatch(word) and f"({word})" in flat):
                found.add(word)
    return found


def _method(
    abstract: str, flat: str, contributions: list[tuple[int, int, int]], naming: list[int]
) -> str | None:
    """The name the abstract introduces: at a contribution verb or naming phrase; else a name
    apposed or marked (\\textsc, **) and said at least three times."""
    introduced: set[str] = set()
    for point in [end for _, end, kind in contributions if kind in (_INTRODUCES, _MAKES)] + naming:
        found = _introduced(flat, point)
        if found is not None:
            introduced.add(found[0])
    if introduced:
        best: tuple[int, int, str] | None = None
        for name in introduced:
            occurrences = _occurrences(flat, name)
            if occurrences:
                key = (min(len(occurrences), 4), -occurrences[0], name)
                if best is None or key > best:
                    best = key
        return best[2] if best is not None else None
    # Nothing introduced: a name can still win by being apposed or marked and said three times.
    # (Names neither apposed nor marked never score enough, so only those two are looked at.)
    candidates = _apposed_names(flat)
    if "\\textsc" in abstract or "**" in abstract:
        for m in _MARKED_RE.finditer(abstract):
            word = (m.group(1) or m.group(2)).strip(".,;:")
            if word[:1].isupper() and len(word) > 1 and word not in _COMMON_ACRONYMS:
                candidates.add(word)
    best = None
    for name in candidates:
        occurrences = _occurrences(flat, name)
        if len(occurrences) >= 3:
            key = (min(len(occurrences), 4), -occurrences[0], name)
            if best is None or key > best:
                best = key
    return best[2] if best is not None else None


def find_method(abstract: str) -> str | None:
    """The method, system or benchmark name the abstract introduces, or None when unsure."""
    return _analyse(abstract).method


# --- derived titles -----------------------------------------------------------------------------

# (one level of parentheses inside: "(e.g., SE(3)-equivariant)")
_PARENTHETICAL_RE = re.compile(
    r"\((?:e\.g\.|i\.e\.|see|cf\.|[^()]*\bet al\b|[^()]*\d{4})(?:[^()]|\([^()]*\))*\)"
)
# "and theoretically show", ", empirically characterize": how a second verb's claim is made
_EVIDENCE_ADVERB = r"(?:theoretical|empirical|experimental)ly\s+"
# ", and discuss ...": led by the literal "and" (the engine skips ahead to each), the comma and
# spaces before it found after; the same tail as `,?\s+and\s+(?:then\s+)?VERB\w*\b` searched for
_TAIL_VERB_RE = re.compile(
    r"and(?<=\sand)\s+(?:then\s+|" + _EVIDENCE_ADVERB + r")?(?:(?:discuss|show|provide|demonstrate"
    r"|prove|analy[sz]e|evaluate|establish|derive|stud(?:y|ie)|use|apply|present|propose|introduce"
    r"|develop|find|obtain|give|validate|test|verify|compare|explore|investigate|conduct|design"
    r"|illustrate|identify|describe|revisit|characterize|outline|highlight|uncover|reveal|examine"
    r"|quantify|argue)\w*(?<!able)|applies|(?:perform|offer)s?)\b"
)
# "a link model, develop an estimator, and ...": a second verb after a comma (apart: the engine
# skips ahead to each literal "and" in the pattern above, not with an alternative led by ",")
_TAIL_COMMA_VERB_RE = re.compile(
    r",(?<=\w,)\s+(?:" + _EVIDENCE_ADVERB + r")?(?:develop|derive|prove|propose|introduce|establish"
    r"|demonstrate|analy[sz]e|show|provide|obtain|study|characterize)s?\s+(?:an?|the|new|novel"
    r"|that|how|its|their)\b"
)

_TO_VERB_LIST_RE = re.compile(r" to [a-z]+(?:, [a-z]+)+,?$")


def _tail_verb_start(phrase: str) -> int:
    """Where a trailing coordinated verb phrase starts (", and discuss ..."), or -1."""
    m = _TAIL_VERB_RE.search(phrase)
    if "," in phrase:
        comma = _TAIL_COMMA_VERB_RE.search(phrase, 0, m.start() if m else len(phrase))
        if comma is not None:
            m = comma
    if m is None:
        return -1
    start = m.start()
    while start and phrase[start - 1].isspace():  # the look-behind saw at least one
        start -= 1
    # "results to characterize and identify X": both verbs belong to "to" (not so in "robust to
    # noise and use it", "guaranteed to hold and show that")
    word = phrase.rfind(" ", 0, start)  # before the word before "and"
    if (
        phrase.startswith(" to ", word - 3)
        and phrase[word + 1 : word + 2].islower()  # not "applicable to SL and provide"
        and not phrase.startswith((" that", " it "), m.end())
    ):
        return -1
    # "to model, analyze, and design X": the last of the verbs "to" lists
    if _TO_VERB_LIST_RE.search(phrase, max(0, start - 60), start):
        return -1
    return start - 1 if start and phrase[start - 1] == "," else start


_CLAUSE_CUTS = (
    ", which", " which ", " in which ", " for which ", ", where", " where ", " such that ",
    " so that ", " while ", ", and ", ", ",
)  # fmt: skip
_DANGLING_WORD_NAMES = (
    "of for to and or but the a an with in on by from via as at that which its their"
)
_DANGLING_WORDS = frozenset(_DANGLING_WORD_NAMES.split())


def _drop_dangling(text: str) -> str:
    """Without the small words a cut left at its end ("... a method for the" -> "... a method").

    Titles reach here with single spaces (plain_title_text joined their words)."""
    end = len(text)
    while True:
        at = text.rfind(" ", 0, end)
        if at < 0 or text[at + 1 : end] not in _DANGLING_WORDS:
            return text[:end]
        end = at


_HEAD_NOUN_NAMES = """
    sampler framework method model algorithm benchmark dataset approach architecture system agent
    pipeline strategy scheme loss mechanism module network attack library toolkit protocol
    estimator optimizer technique paradigm metric suite environment platform procedure transformer
    solver
"""
_HEAD_NOUNS = frozenset(_HEAD_NOUN_NAMES.split())
_DESCRIPTION_RE = re.compile(r"\)?\s*(?:,|:|—|--|\s+is)\s+((?:an?|the)\s+[^.;]+)")
_EXPANSION_AFTER_RE = re.compile(r"\s*\(([A-Z][^()]{5,80})\)")
_NAMED_PHRASE_RE = re.compile(
    r"(?:the\s+)?((?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*)\s*,\s+((?:an?|the)\s+[^.;]+)"
)


_ASIDE_OPENER_RE = re.compile(r"\s(?:that|which|and|but|who)$")


def _inside_list_or_aside(title: str, kept: str, at: int) -> int:
    """Where a title cut at the comma at `at` should end instead: len(kept) when the comma ends a
    clause; before "that" when it closes an aside the clause opened ("a system that, by design,
    ..." -> "a system"); -1 inside a list ("across robots, tasks, and environments")."""
    last = kept.rfind(", ")
    opener = _ASIDE_OPENER_RE.search(kept, 0, last)
    if opener is not None:
        # not "results showing that", nor "X and": what comes before needs what follows the aside
        word = opener.group().strip()
        if opener.start() < 20 or word in ("and", "but") or kept.endswith("ing", 0, opener.start()):
            return -1
        return opener.start()
    if title.startswith(("and ", "or "), at + 2) and kept.count(" ", last + 2) <= 3:
        return -1
    return len(kept)


def _shorten(title: str, limit: int = MAX_TITLE) -> str:
    title = title.strip().rstrip(".;:,")
    if len(title) <= limit:
        return title
    head = title[: limit + 1]
    for cut in _CLAUSE_CUTS:
        at = head.rfind(cut, limit // 2)
        if at >= 0:
            kept = head[:at]
            if cut in (", ", ", and ") and ", " in kept:
                inside = _inside_list_or_aside(title, kept, at)
                if inside < 0:
                    break  # "robots, tasks, and environments": no clause ends in a list
                kept = kept[:inside]
            aside = _open_aside(kept) if "(" in kept else -1
            if aside < 0:
                return _drop_dangling(kept).rstrip(" ,;:")
            # A comma inside an aside ends no clause: cut before the aside, and say it is cut.
            if aside >= 20:
                return _drop_dangling(kept[:aside].rstrip(" ,;:-")) + "…"
            break
    at = head.rfind(" ", 0, limit)
    at = at if at > limit // 2 else limit - 1
    return _drop_dangling(head[:at]).rstrip(" ,;:-") + "…"


def _capitalised(text: str) -> str:
    """First letter up, unless the first word is a name with its own case (mSOP-765k, dnaHNet)."""
    if not text[:1].islower():
        return text
    space = text.find(" ")
    first = text if space < 0 else text[:space]
    # (a lower-case first letter: islower() is False only for a capital further on)
    if not first.islower() or (not first.isalpha() and any(c.isdigit() for c in first)):
        return text
    return text[:1].upper() + text[1:]


_TRAILING_ABBREVIATION_RE = re.compile(r"[\s,;:(—-]*(?:e\.g|i\.e|etc|cf|vs|resp)\.$")
_WE_TAIL_RE = re.compile(r"\s*(?:,?\s+and|:|---|—)\s*[Ww]e\b")
_RELATIVE_RE = re.compile(
    r",\s+(?:(?:all|each|both|some|many|most|one|none) of )?(?:which|where|whose)\b"
)


# "... to address this problem", "to tackle these issues": a purpose that points back names nothing
# (matched at the last " to ": not after "the ability", "designed", "a way", "which", "tries")
_POINTING_PURPOSE_RE = re.compile(
    r"(?<!ability)(?<!ed)(?<! able)(?<! way)(?<! which)(?<! whom)(?<! and)(?<! made)(?<! aims)"
    r"(?<! tries)(?<! seeks)(?<! hard)(?<! difficult)(?<! easy)"
    r" to\s+(?:[a-z]+ly\s+)?(?!wh)[a-z]+\s+(?:this|these|those|such|the\s+(?:aforementioned|above"
    r"|two|same|problem|issue|challenge|gap)s?\b)(?:\s+[a-z-]+){0,2}[\s.]*$"
)
_ENABLING_NAMES = "enables enable allows allow helps help requires require lets forces encourages"
_ENABLING = frozenset(_ENABLING_NAMES.split())


def _without_pointing_purpose(title: str) -> str:
    """The title without a last "to address this problem" (unless too little would be left)."""
    at = title.rfind(" to ", max(0, len(title) - 70))
    if at < 0 or _POINTING_PURPOSE_RE.match(title, at) is None:
        return title
    if title.endswith(" in order", 0, at):
        at -= 9
    left = title[:at].rstrip(" ,-–—")
    # not "A framework", nor "a method that enables robots" (to acquire such knowledge)
    if left.count(" ") < 2 or not _ENABLING.isdisjoint(left.rsplit(" ", 4)[1:]):
        return title
    return left


# "a novel X", "Two novel X", "simple but novel X", "Novel X": what _PUFFERY_RE does not reach
_NOVEL_RE_ANYWHERE = re.compile(
    r"\b(?:(?P<article>[Aa]n?)|(?P<count>[Tt]wo|[Tt]hree|[Ss]everal))\s+novel(?:\s*,)?"
    r"(?:\s+(?:and|but|yet))?\s+(?=\w)(?!(?:lens|perspective|setting|view|viewpoint|angle|way)\b)"
    r"|\s+(?:but|yet|and)\s+novel(?=\s)|^Novel\s+(?=[a-z])"
)


def _without_novel(m: re.Match[str]) -> str:
    if m.group("count"):
        return m.group("count") + " "
    if m.group("article"):  # the article agrees with what now follows it
        following = m.string[m.end() :]
        wanted = "an" if _takes_an(following) else "a"
        return (wanted.capitalize() if m.group("article")[0] == "A" else wanted) + " "
    return ""


# a head of a few words whose clause a comma parts from it: no aside, a restriction
_SHORT_HEAD_RE = re.compile(r"(?:[^\s:]+: )?(?:An?|The)(?: [\w-]+){1,5}(,)(?= (?:which|that) )")
_SPACE_BEFORE_COMMA_RE = re.compile(r"(?<=,)(?:\s*,)+|\s+(?=,)")
"""What a parenthesis or a name taken out leaves: "hypothesis , showing", "an approach, , that"."""


def _tidied(title: str) -> str:
    if "(" in title:
        title = _PARENTHETICAL_RE.sub("", title)
    if " ," in title:
        title = _SPACE_BEFORE_COMMA_RE.sub("", title)
    title = plain_title_text(title[:400])
    # "BiGG: An autoregressive model, that X" (past 30 characters the clause is cut, below)
    comma = title.find(", ", 0, 31)
    if comma > 0 and title.startswith(("that ", "which "), comma + 2):
        short = _SHORT_HEAD_RE.match(title)
        if short is not None and short.start(1) == comma:
            title = title[:comma] + title[comma + 1 :]
    # a trailing ", which ..." adds detail a skimmer's title leaves out
    relative = _RELATIVE_RE.search(title, 30)
    if relative:
        title = title[: relative.start()]
    if " to " in title:
        title = _without_pointing_purpose(title)
    colon = title.find(": ", 20)
    while colon > 0:
        if title.startswith("First", colon + 2) or (  # "two key modifications: First, it ..."
            # "two key modules: (1) inferring ...": a list whose first item the cut would leave half
            colon >= 60 and _ENUMERATOR_RE.match(title, colon + 2)
        ):
            title = title[:colon]
            break
        colon = title.find(": ", colon + 2)
    if "ovel" in title:  # praise no title of the paper's own would give it
        title = _NOVEL_RE_ANYWHERE.sub(_without_novel, title)
    semicolon = title.find("; ", 20)  # "a method for X; and (b) ...": the first part
    if semicolon > 0:
        title = title[:semicolon]
    if "we" in title or "We" in title:  # "a procedure that detects X and we provide ...": the
        # part before "we"
        we = _WE_TAIL_RE.search(title, 20)
        if we:
            title = title[: we.start()]
    if "(" in title:  # an aside the sentence's end cut open ("(Ilyas et al"): left out
        aside = _open_aside(title)
        if aside >= 20:
            title = title[:aside]
    return title.strip(" .;:,")


def _cut(tidy: str, limit: int) -> str:
    title = _shorten(tidy, limit)
    if title.endswith(_ABBREVIATIONS):  # "an application of X, i.e.": cut before the example
        title = _TRAILING_ABBREVIATION_RE.sub("", title)
    return _capitalised(title)


_PARENTHESIS_RE = re.compile(r"[()]")


def _open_aside(text: str) -> int:
    """Where an aside that `text` leaves open starts ("Markov Random Fields (including the
    prototypical example": the parenthesis), else -1. An aside's parenthesis follows a space and
    comes before a letter: "α∈(0,1/2]", "c(x)" and "∈ (0,1]" are maths."""
    opened: list[int] = []
    for m in _PARENTHESIS_RE.finditer(text):  # only the parentheses: a title has few
        at = m.start()
        if text[at] == "(":
            aside = at > 0 and text[at - 1] == " " and text[at + 1 : at + 2].isalpha()
            opened.append(at if aside else -1)
        elif opened:
            opened.pop()
    return next((at for at in opened if at >= 0), -1)


def _title_case(phrase: str) -> bool:
    words = phrase.split()
    capitals = [w for w in words if w[0].isupper()]
    return len(capitals) >= 2 and all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words)


# "we argue that, despite X, Y": what is argued is Y
_PHRASE_LEAD_RE = re.compile(
    r"(?:and\s+(?:[a-z]+ly\s+)?[a-z]+\s+)?(?:(?P<to>to\s+)|here\s+|that"
    r"(?:\s*,\s*(?:despite|unlike|contrary\s+to|in\s+contrast\s+to)\s[^,;]*,)?\s+)?"
)
# "novel", "new, but surprisingly simple": praise that is no part of the contribution's name
_PUFFERY_RE = re.compile(r"(?:(?:novel|new)(?:\s*,)?(?:\s+(?:and|but|yet))?\s+)+")
_ARTICLE_RE = re.compile(r"(?:the|a|an)\s+")
# words led by a vowel letter that are said with a consonant ("a unified", "a one-shot")
_VOWEL_LETTER_CONSONANT_SOUND = (
    "uni", "use", "usu", "uti", "ubi", "ura", "uro", "eu", "one", "once",
)  # fmt: skip
_SILENT_H = ("hour", "honest", "honou", "honor", "heir")
# letters whose name starts with a vowel sound: "an RL agent", "an MDP", "an LLM"
_VOWEL_SOUND_LETTERS = frozenset("AEFHILMNORSX")


_LEADING_LETTERS_RE = re.compile(r"[A-Za-z]+")


def _takes_an(word: str) -> bool:
    """Whether "an" goes before word, by how it is said, not how it is spelled."""
    lead = _LEADING_LETTERS_RE.match(word)
    letters = lead.group() if lead else ""
    if 2 <= len(letters) <= 5 and letters.isupper():
        return letters[0] in _VOWEL_SOUND_LETTERS
    lowered = word.lower()
    if lowered.startswith(_SILENT_H):
        return True
    if lowered.startswith(_VOWEL_LETTER_CONSONANT_SOUND):
        return False
    return lowered[:1] in ("a", "e", "i", "o", "u") or lowered[:1] == "8"


def _agreeing_article(phrase: str) -> str:
    """The phrase with its leading "a" or "an" matching the next word: for what is left where
    "novel" or "new" was taken out (elsewhere the author's own article stands)."""
    article, _, rest = phrase.partition(" ")
    if article.lower() not in ("a", "an") or not rest:
        return phrase
    wanted = "an" if _takes_an(rest) else "a"
    if article.lower() == wanted:
        return phrase
    return (wanted.capitalize() if article[0].isupper() else wanted) + " " + rest


def _gerund(verb: str) -> str:
    """learn -> learning, leverage -> leveraging, map -> mapping, tie -> tying."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if (
        len(verb) > 2
        and verb[-1] not in "aeiouwxy"
        and verb[-2] in "aeiou"
        and verb[-3] not in "aeiou"
        and (_vowel_groups(verb) == 1 or verb.endswith(_STRESSED_LAST))
    ):  # one syllable (blur, stop, plan) or stressed last (prefer, occur): the consonant doubles
        return verb + verb[-1] + "ing"
    return verb + "ing"


# verbs of two or more syllables stressed on the last, whose final consonant doubles
_STRESSED_LAST = (
    "prefer", "refer", "infer", "confer", "defer", "transfer", "deter", "occur", "incur", "recur",
    "concur", "admit", "commit", "omit", "permit", "submit", "emit", "transmit", "pel", "trol",
    "begin", "forget", "equip", "embed", "regret", "excel",
)  # fmt: skip
_VOWEL_GROUP_RE = re.compile(r"[aeiou]+")


def _vowel_groups(word: str) -> int:
    return len(_VOWEL_GROUP_RE.findall(word))


# "we revisit these results": a phrase that only points back names nothing; nor does "we
# release our code at https://..."
_POINTING_BACK_RE = re.compile(
    r"(?:this|these|those|such|it|them|its|their|his|her)\b|(?:our\s+|the\s+)?(?:source\s+)?code\b"
)
# "extensive experiments", "two case studies", "numerical evidence that ...": how the paper backs
# its claim, not what it is about ("an analysis of X", "a study of X" do say what)
_EVIDENCE_RE = re.compile(
    r"(?:(?:an?|the|some|several|two|three|four|many|various|further|additional|extensive|"
    r"comprehensive|thorough|systematic|careful|detailed|large-scale|numerical|empirical|"
    r"experimental|supporting|real-world|synthetic|illustrative|simulation|encouraging|promising|"
    r"preliminary|strong|convincing|compelling|positive|numerous|ablation)\s+)*"
    r"(?:case\s+stud(?:y|ies)|(?:stud(?:y|ies)|analys[ie]s)(?!\s+of\b)|experiments?|evidence(?!\s+that\b)|"
    r"results|simulations?|evaluations?|examples?|illustrations?|demonstrations?|comparisons?|"
    r"ablations?|findings|observations|insights)"
    r"(?=\s*$|[,;:]|\s+(?:that|which|to|on|in|with|for|from|of|over|across|using|where|"
    r"showing|demonstrating|confirming|suggesting|supporting|indicating|illustrating|validating|"
    r"verifying)\b)"
)
# "(1) a framework to isolate ...": the first item of a list the title is not
_ENUMERATOR_RE = re.compile(r"\((?:\d|[ivx]+|[a-e])\)\s+")


_WHERE_RE = re.compile(r",?\s+(?:where|in\s+which|whereby)\s")
_VAGUE_HEAD_RE = re.compile(
    r"the\s+(?:problems?|challenges?|tasks?|notion|concept|issues?)\s+of\s+"
)


def _object_phrase(flat: str, verb_end: int) -> str | None:
    """What the contribution verb at verb_end is about, or None when it names nothing."""
    phrase = flat[verb_end : _sentence_end(flat, verb_end)].strip().rstrip(".!?")
    # "we propose in this paper a new attack": a new attack
    if phrase[:1] in ("i", "t", "h", "f", "("):
        aside = _ASIDE_RE.match(phrase)
        if aside is not None:
            phrase = phrase[aside.end() :]
    if phrase.startswith(("upon ", "on ")):  # "we build upon X and extend Y": no contribution
        return None
    lead = _PHRASE_LEAD_RE.match(phrase)
    assert lead is not None  # every part of the pattern is optional
    phrase = phrase[lead.end() :]
    if lead.group("to") and phrase.startswith(_WH_WORDS):  # "we examine to what extent X"
        phrase = "to " + phrase
    elif lead.group("to"):
        # "we propose to learn a mapping ..." names its contribution "Learning a mapping ..."
        verb, space, rest = phrase.partition(" ")
        adverb = ""
        if verb.endswith("ly") and rest and verb not in _VERBS_IN_LY:  # "to directly model X"
            adverb = verb + space
            verb, space, rest = rest.partition(" ")
        if verb.isalpha() and verb.islower():
            phrase = adverb + _gerund(verb) + space + rest
    if phrase.startswith(("which ", ", which ")):  # "we propose \method{}, which adds X"
        verb, _, rest = phrase.removeprefix(", ").removeprefix("which ").partition(" ")
        if not verb.endswith("s") or verb.endswith("ss") or verb in _AUXILIARY:
            return None
        phrase = _gerund(_base_verb(verb)) + " " + rest
    if phrase.startswith("our ") and not phrase.startswith("our own "):  # no "Our" in a title
        phrase = "the " + phrase[4:]
    # "we provide: (i) a lower bound ...": the first item, without the colon that lists it
    enumerator = _ENUMERATOR_RE.match(phrase, 2 if phrase.startswith(": ") else 0)
    if enumerator:
        phrase = phrase[enumerator.end() :]
    article = _ARTICLE_RE.match(phrase)
    at = article.end() if article else 0
    puffery = _PUFFERY_RE.match(phrase, at)
    if puffery:
        phrase = _agreeing_article(phrase[:at] + phrase[puffery.end() :])
    if phrase.startswith("the ") and " of " in phrase[:20]:
        # "the problem of learning X": a title names what the problem is about
        vague = _VAGUE_HEAD_RE.match(phrase)
        if vague is not None:
            # "the problem of X, where the learner ...": a title ends before "where"
            where = _WHERE_RE.search(phrase, vague.end())
            topic = phrase[vague.end() : where.start() if where else len(phrase)]
            if topic.count(" ") >= 2:  # else "the problem of active covering" says more
                phrase = topic
    if (
        _POINTING_BACK_RE.match(phrase)
        or len(phrase.split(maxsplit=2)) < 3
        or _EVIDENCE_RE.match(phrase.lower())
    ):
        return None
    tail = _tail_verb_start(phrase)
    if tail > 15:
        phrase = phrase[:tail]
    return phrase


# "an approach to address this issue by estimating X": what follows "by" is what the paper does
_POINTING_BY_RE = re.compile(
    r"\b(?:(?:this|these|those|such)\s+(?:[a-z-]+\s+)?|the\s+)(?:problem|issue|challenge|gap|limitation"
    r"|bottleneck|question|difficult(?:y|ie)|complexit(?:y|ie)|drawback|shortcoming|deficienc(?:y|ie)"
    r"|obstacle|concern|need)s?\s+by\s+(?:(?P<make>(?:propos|introduc|present|develop|design)ing)\s+"
    r"|(?=[a-z]+ing\s))(?!(?:[a-z]+ing\s+)?(?:it|them|this|that|these|those|such|to)\b)"
)


def _past_pointing_by(phrase: str, method: str | None) -> str:
    """The phrase from what "by" leads to, when what comes before only points back ("Filling
    this gap by analyzing X" -> "Analyzing X", "An answer to this question by proposing X" -> X)."""
    if " by " not in phrase:
        return phrase
    m = _POINTING_BY_RE.search(phrase, 0, 90)
    if m is None or len(phrase) - m.end() < 20:
        return phrase
    before = phrase[: m.start()]
    if m.start() > 45 and phrase.startswith("the ", m.start()):
        return phrase  # "an algorithm for SVM learning which solves the problem by X"
    if method is not None and method in before:  # "ContextPool to address this problem by X"
        return phrase[m.end() :]  # the name comes back as "ContextPool: X"
    if any(c.isupper() for c in before):
        return phrase  # "Salsa, which bridges this gap by X": the name stays
    head = _HEAD_END_RE.split(before, 1)[0].split()
    if len(head) - (head[:1] in (["a"], ["an"], ["the"])) >= 4:
        return phrase  # "a guided image synthesis framework which ...": it says enough
    if len(head) == 1 and head[0] not in ("a", "an", "the"):
        return phrase  # "salsa, which bridges this gap by X": a name as its author wrote it
    return phrase[m.end() :]


_HEAD_END_RE = re.compile(r",|\s(?:which|that|to|for)\s")


_WH_WORDS = ("what ", "which ", "whom ", "whose ", "how ", "where ", "when ", "whether ")
# "in this paper", "to the best of our knowledge": an aside between the verb and its object
_ASIDE_RE = re.compile(
    r"(?:in\s+this\s+(?:paper|work|article|note|study)|here(?:in)?|to\s+the\s+best\s+of\s+our\s+knowledge"
    r"|for\s+the\s+first\s+time|\(\s*to\s+(?:the\s+best\s+of\s+)?our\s+knowledge\s*\))\s*,?\s+"
)
_NEXT_WORD_RE = re.compile(r"\W*([A-Za-z]+)")
# how an expansion that stops before its noun ends: "removal-enabled", "robust", "convex"
_ADJECTIVE_ENDINGS = (
    "ed", "able", "ible", "al", "ive", "ic", "ous", "ful", "less", "ent", "ant", "robust",
    "convex", "free", "aware",
)  # fmt: skip
# one word, then punctuation or a small word: a noun that ends the phrase ("forests, a ...")
_NOUN_AFTER_RE = re.compile(
    r" ([a-z]+|[A-Z][a-z]+)(?=[,.;:)]|\s+(?:that|which|for|to|with|in|on|of|and|where|from|by)\b)"
)


def _is_head_noun(word: str) -> bool:
    """A head noun, or its plural: "(FedNL) methods", "(LDR) losses"."""
    return (
        word in _HEAD_NOUNS
        or (word[-1:] == "s" and word[:-1] in _HEAD_NOUNS)
        or (word[-2:] == "es" and word[:-2] in _HEAD_NOUNS)
    )


_CAPITAL_START_RE = re.compile(r"(?:\s|—|--)[A-Z]")


def _named_part(expansion: str, method: str) -> str:
    """The expansion from the capitalised word that starts the name's letters, when lower-case
    words lead it: "family of Federated Newton Learn (FedNL)" -> "Federated Newton Learn"."""
    if not expansion[:1].islower() or not method[:1].isupper():
        return expansion
    for m in _CAPITAL_START_RE.finditer(expansion, 1):
        if expansion[m.end() - 1] == method[0]:
            rest = expansion[m.end() - 1 :]
            return rest if _title_case(rest) else expansion
    return expansion


_NOVEL_RE = re.compile(r"^(an?|the)\s+" + _PUFFERY_RE.pattern)


def _method_title(flat: str, method: str) -> str | None:
    """METHOD: its expansion, or METHOD: what the abstract says it is."""
    occurrences = _occurrences(flat, method)
    n = len(method)
    for pos in occurrences:
        if pos and flat[pos - 1] == "(" and flat.startswith(")", pos + n):
            found = _acronym_expansion(flat, pos - 1, method)
            if found is None or found[1] == method:
                continue
            expansion = _named_part(found[1], method)
            rest = _NEXT_WORD_RE.match(flat, pos + n + 1, pos + n + 40)
            head = rest.group(1) if rest else ""
            lowered = head.lower()
            if _is_head_noun(lowered) and not expansion.lower().endswith(lowered):
                expansion += " " + (head.capitalize() if _title_case(expansion) else lowered)
            elif expansion.endswith(_ADJECTIVE_ENDINGS):
                # "data removal-enabled (DaRE) forests": the noun the name stands for comes after
                noun = _NOUN_AFTER_RE.match(flat, pos + n + 1)
                if noun is not None and noun.group(1) not in _DANGLING_WORDS:
                    expansion += " " + noun.group(1)
            return f"{method}: {_capitalised(expansion)}"
    for pos in occurrences:
        m = _EXPANSION_AFTER_RE.match(flat, pos + n)
        if m and _title_case(m.group(1)):
            return f"{method}: {m.group(1)}"
    for pos in occurrences:
        m = _DESCRIPTION_RE.match(flat, pos + n)
        if m:
            desc = m.group(1)
            novel = _NOVEL_RE.match(desc)
            if novel:
                desc = _agreeing_article(f"{novel.group(1)} {desc[novel.end() :]}")
            tail = _tail_verb_start(desc)  # "an efficient transformer, and explore it for ..."
            if tail > 15:
                desc = desc[:tail]
            return f"{method}: {_capitalised(desc)}"
    return None


# "In this paper, we", "This work", "Here we": the frame of a sentence, not its content
_FRAME_RE = re.compile(
    r"(?:In\s+(?:this|the\s+present)\s+(?:position\s+)?(?:paper|work|article|note|study|contribution)|Here)\s*,?\s*"
    r"(?:we\s+)?",
    re.IGNORECASE,
)
_FIRST_PERSON_RE = re.compile(
    r"(?:[Ww]e|This\s+(?:paper|work|article|note|study)"
    r"|The\s+(?:(?:present|current)\s+)?(?:paper|article|work|study))\s+(?:have\s+|has\s+)?"
    r"(?:(?:first|also|further|then|here|now)\s+)?"
    r"(?P<adverb>(?!(?:ap|re|sup|multi|im|com)ply\b|rely\b|only\b|"
    r"(?:additional|final|consequent|subsequent|according|similar|specifical|important|interesting"
    r"|surprising|notab|last|first|second|ultimate)ly\b)[a-z]+ly\s+)?"
    r"(?P<verb>(?:is|are)\s+concerned\s+with|[a-z]+)(?P<on>\s+on|(?<=deals)\s+with)?,?\s+"
    r"(?:(?:for\s+the\s+first\s+time|empirically|theoretically|formally|rigorously),?\s+)?"
    r"(?:(?:that|how)\s+)?"
)
# "We are interested in", "We call X Y if": no contribution to name; the sentence stays
_KEPT_VERB_NAMES = "am is are was were be been call calls"
_KEPT_VERBS = frozenset(_KEPT_VERB_NAMES.split())
_AIMING_VERB_NAMES = """
    aim aims seek seeks try tries attempt attempts wish want opt opts strive strives
"""
_AIMING_VERBS = frozenset(_AIMING_VERB_NAMES.split())
# verbs that only present what follows them: "We show that X" says X
_PRESENTING_VERB_NAMES = """
    give gives show shows demonstrate demonstrates present presents provide provides prove proves
    establish establishes obtain obtains derive derives describe describes report reports offer
    offers find finds define defines make makes have has focus focuses consider considers discuss
    discusses is concerned shown given developed proposed introduced presented provided derived
    designed described obtained established made
    """
_PRESENTING_VERBS = frozenset(_PRESENTING_VERB_NAMES.split())


def _without_first_person(sentence: str) -> str:
    """A first sentence as a title: "We show that X" -> X, "We compare X" -> Comparing X."""
    frame = _FRAME_RE.match(sentence)
    if frame and frame.end() < len(sentence) - 20:
        sentence = sentence[frame.end() :]
        if not sentence[:1].isupper() and frame.group().rstrip().lower().endswith("we"):
            sentence = "We " + sentence  # let the first person rule below read the verb
    m = _FIRST_PERSON_RE.match(sentence)
    if m is None or m.end() > len(sentence) - 20:
        return sentence
    verb = m.group("verb")
    if verb in _KEPT_VERBS:
        return sentence
    rest = sentence[m.end() :]
    if verb in _AIMING_VERBS and rest.startswith("to "):  # "we aim to study X": Studying X
        return _without_first_person("We " + rest[3:])
    tail = _tail_verb_start(rest)  # "We focus on X and explore Y": X
    if tail > 15:
        rest = rest[:tail]
    if verb in _PRESENTING_VERBS or verb.startswith(("is ", "are ")) or verb.endswith("ed"):
        return rest
    if m.group("on") or (verb.endswith("s") and sentence[0] == "T"):  # "This paper studies"
        return rest
    return (m.group("adverb") or "") + _gerund(verb) + " " + rest


# a sentence led by what the paper does: "In this work, we ...", "Here we ...", "This paper ..."
_OWN_FRAME_RE = re.compile(
    r"(?:(?:(?P<framed>In\s+(?:this|the\s+present)\s+(?:position\s+)?"
    r"(?:paper|work|article|note|study|contribution)"
    r"|Here(?:in)?\b)"
    r"|Instead|To\s+this\s+end|In\s+contrast)\s*,?\s*)?"
)
# "To address this shortcoming, we ...": a purpose that leads into what the paper does
_PURPOSE_RE = re.compile(
    r"(?:To\s+[a-z]+\b|In\s+contrast\s+to|Unlike|Building\s+on|Inspired\s+by|Motivated\s+by"
    r"|Based\s+on|Despite|Towards?)[^,.;:()]{3,100},\s*"
)
_OWN_SUBJECT_RE = re.compile(
    r"(?:[Ww]e|Th(?:is|e)\s+(?:paper|article)|This\s+(?:work|note|study)"
    r"|The\s+(?:present|current)\s+(?:paper|work|study))\s+"
)
# a first sentence led by these is about the paper too ("The proposed method, X, ...")
_OWN_LEADS = (
    *(
        f"{lead} {head}"
        for lead in ("Our", "Our proposed", "The proposed")
        for head in ("method", "approach", "work", "paper", "model", "framework", "algorithm")
    ),
    "This position paper ",
)
# after "we": no verb that says what the paper does ("we can", "we note", "we refer to this as")
_NOT_DOING_NAMES = """
    can could will would may might must should shall do does did need needs note notes refer
    hope believe know assume assumes suppose conjecture observe believe thank make makes take
    herein hereby thereby instead therefore thus hence still again finally first next moreover
    furthermore only even not never always often however in at then also further here now
    built found made took gave ran began wrote brought thought sought taught set sets and or
    conclude complement state states validate verify confirm corroborate illustrate showcase
"""
_NOT_DOING = frozenset(_NOT_DOING_NAMES.split()) | _KEPT_VERBS | _AIMING_VERBS
# a title that starts with these, or points back within its first words, reads as a fragment
_FRAGMENT_START_NAMES = """
    and or but by to in on for with from under as at via of if when where whether how that which
    what while so than then not no both each either neither all some any also only thus hence
    therefore further instead here there mostly mainly primarily particularly especially more
"""
_FRAGMENT_START = frozenset(_FRAGMENT_START_NAMES.split())
# "this challenge by proposing", "it by introducing": what points back is made by what follows
_BY_MAKING_RE = re.compile(
    r"(?:(?:this|that|these|the|such|it|them|both)\b[\w\s-]{0,30}?\s)?by\s+(?:proposing|introducing|"
    r"presenting|developing|designing|building|constructing|devising|creating|providing|deriving"
    r"|formulating)\s+"
)
_COMMA_MAKING_RE = re.compile(r",\s+(?:proposing|introducing|presenting|developing|providing)\s")
_VERBS_IN_LY = frozenset(("apply", "rely", "reply", "supply", "multiply", "imply", "comply"))
_POINTING_NAMES = """
    this these those such it its their them they our above aforementioned said latter former
    contrary proposed resulting
"""
_POINTING = frozenset(_POINTING_NAMES.split())


# "a framework for X is proposed", "two algorithms are introduced for Y": what the paper makes
_PASSIVE_LEAD_NAMES = "A An a an Two two Three three Several several"
_PASSIVE_LEADS = tuple(f"{word} " for word in _PASSIVE_LEAD_NAMES.split())
_PASSIVE_RE = re.compile(
    r"(?:[Aa]n?|[Tt]wo|[Tt]hree|[Ss]everal)\s[^.;:]{3,160}?,?\s(?:is|are)\s+(?:newly\s+)?"
    r"(?:proposed|introduced|presented|developed|designed)\b"
)


def _passive_title(flat: str, start: int, end: int) -> str | None:
    """What a sentence at start says is proposed, as a title ("In this study, a framework for
    X is proposed" -> "A framework for X"; "two algorithms are introduced for Y" -> "Two
    algorithms for Y"), or None when it says no such thing."""
    m = _PASSIVE_RE.match(flat, start, end)
    if m is None:
        return None
    verb = flat.rfind(" is ", start, m.end())
    verb = max(verb, flat.rfind(" are ", start, m.end()))
    made = flat[start:verb].rstrip(" ,")
    rest = flat[m.end() : end].rstrip(".!? ")
    if rest.startswith((" for ", " to ", " that ", " with ", " which ")):
        made += rest
    words = made[: MAX_TITLE + 10].lower().split()
    if len(words) < 4 or not _POINTING.isdisjoint(w.strip(",;:") for w in words):
        return None
    novel = _NOVEL_RE.match(made)
    if novel:
        made = _agreeing_article(f"{novel.group(1)} {made[novel.end() :]}")
    return made


def _own_sentence_title(flat: str, start: int) -> str | None:
    """The first later sentence that says what the paper does, as a title ("In this work, we
    combine X with Y" -> "Combining X with Y"), or None when none reads as one."""
    pos = start
    n = len(flat)
    found = None  # the first "We ..." sentence, unless a framed one follows
    found_led = False
    claims: list[str] = []  # "We show that X" sentences, the last resort
    for _ in range(12):
        while pos < n and flat[pos] == " ":
            pos += 1
        if pos >= n:
            break
        end = _sentence_end(flat, pos)
        frame = _OWN_FRAME_RE.match(flat, pos)
        assert frame is not None  # every part of the pattern is optional
        subject = _OWN_SUBJECT_RE.match(flat, frame.end())
        led = False  # "To remedy this, we augment X": taken when no plain "We X" reads better
        purpose = None
        if subject is None and flat.startswith("To ", pos):
            purpose = _PURPOSE_RE.match(flat, pos, end)
            if purpose is not None:
                subject = _OWN_SUBJECT_RE.match(flat, purpose.end())
                led = subject is not None and subject.group()[0] == "w"
                if not led:
                    subject = None
        if subject is None and found is None:  # "In this study, a framework for X is proposed"
            start = purpose.end() if purpose is not None else frame.end()
            title = None
            if flat.startswith(_PASSIVE_LEADS, start):  # (the pattern's first words, found faster)
                title = _passive_title(flat, start, end)
            if title is not None:
                if frame.group("framed"):
                    return title
                found = title
        if subject is not None:
            framed = frame.group("framed") or subject.group()[0] == "T"
            if framed or found is None or (found_led and not led):
                sentence = flat[subject.start() : end].rstrip(".!? ")
                title = _readable_own(sentence)
                if title is not None:
                    if framed:
                        return title
                    found, found_led = title, led
                elif found is None and len(claims) < 2:
                    claims.append(sentence)
        pos = end
    if found is None:
        for sentence in claims:
            found = _readable_claim(sentence)
            if found is not None:
                break
    return found


_CLAIM_RE = re.compile(
    r"(?:[Ww]e|This\s+(?:paper|work))\s+(?:(?:first|also|further|then|here|now)\s+)?"
    r"(?:show|shows|prove|proves|demonstrate|demonstrates|report|find|establish|argue|argues)"
    r"\s+that\s+(?=[A-Za-z])"
)
# a claim led by these says its subject later, if at all ("we show that despite X, Y")
_CLAIM_NOT_SUBJECT_NAMES = """
    there despite although though because since unlike given using even once after before
    whenever unless until surprisingly perhaps indeed contrary one we i
"""
_CLAIM_NOT_SUBJECT = frozenset(_CLAIM_NOT_SUBJECT_NAMES.split()) | _FRAGMENT_START
# a claim that reads as a title says what it is about before any "we"
_CLAIM_LEAD_NAMES = "In For Under When If Although While Despite Unlike Given As By With On It This"
_CLAIM_LEADS = frozenset(_CLAIM_LEAD_NAMES.split())
_PRONOUNS = frozenset(("it", "its", "their", "them", "they", "our"))
_AUXILIARY_NAMES = "is are was were can cannot could may might will would has have had do does"
_AUXILIARY = frozenset(_AUXILIARY_NAMES.split())
_POINTING_FAR = _POINTING - _PRONOUNS


def _readable_claim(sentence: str) -> str | None:
    """A claim as a title ("We show that DEQs are sensitive to X" -> "DEQs are sensitive to X"),
    when it starts with what it is about and points back to nothing."""
    m = _CLAIM_RE.match(sentence)
    if m is None:
        return None
    claim = sentence[m.end() :]
    words = claim[: MAX_TITLE + 10].split()
    if (
        len(words) < 5
        or words[0].rstrip(",") in _CLAIM_LEADS
        or (claim[0].islower() and words[0].rstrip(",") in _CLAIM_NOT_SUBJECT)
        or words[1] in ("answer", "question")  # "The answer is yes"
        or any(w.lower().strip(",;:") in _POINTING_FAR for w in words)
        or any(w.lower().strip(",;:") in _PRONOUNS for w in words[:8])  # not "... as they are"
        or " we " in claim[:MAX_TITLE]
    ):
        return None
    # "various models, including X, Y" would be cut at a comma before its verb: no claim left
    comma = claim.find(", ", 0, MAX_TITLE)
    if comma > 0 and _AUXILIARY.isdisjoint(claim[:comma].split()):
        return None
    tail = _tail_verb_start(claim)  # "X is NP-hard and give an algorithm": X is NP-hard
    if tail > 15:
        claim = claim[:tail]
    also = claim.find(" and that ")  # "X holds and that Y": the first claim
    return claim[:also] if also > 15 else claim


_SHOWING_HOW = frozenset(("show", "shows", "demonstrate", "demonstrates", "describe", "describes"))


# "by leveraging X", "by considering X": the means, not what is done with them
_BY_DOING_RE = re.compile(
    r"\sby\s+(?:(?P<showing>showing|proving|demonstrating)\s+(?=that\s)|(?!(?:leverag|us|consider"
    r"|focus|investigat|exploit|utiliz|employ|adopt|draw|tak|build|rely|relat|look)ing\s)(?=[a-z]+ing\s))"
)


def _readable_own(sentence: str) -> str | None:
    """The sentence without its first person, when what is left reads as a title."""
    m = _FIRST_PERSON_RE.match(sentence)
    if m is None:
        return None
    verb = m.group("verb")
    rest = sentence[m.end() :]
    if verb in _AIMING_VERBS and rest.startswith("to "):  # "we aim to study X": we study X
        return _readable_own("We " + rest[3:])
    lead = rest.split(" ", 1)[0].rstrip(",")
    if rest.startswith("to ") and m.group().endswith("how ") and verb in _SHOWING_HOW:
        title = "How " + rest  # "we show how to perform X despite Y"
        words = title[: MAX_TITLE + 10].lower().split()
        if len(words) < 5 or any(w.strip(",;:") in _POINTING for w in words):
            return None
        return title
    if (
        verb in _NOT_DOING
        or (verb.endswith("ly") and verb not in _VERBS_IN_LY)  # "We additionally use X"
        or (verb.endswith("ed") and verb not in _PRESENTING_VERBS)  # "we converted X into Y"
        or m.group().rstrip().endswith(("that", "how"))
        or lead in _FRAGMENT_START  # "We assemble and categorize X"
        or lead.endswith("ly")  # "We show, analytically and empirically, that"
        or (verb in ("build", "builds") and (m.group("on") or lead == "upon"))  # on others' work
    ):
        return None  # no doing, or a claim: claims make fragments more often than titles
    by = _BY_MAKING_RE.match(rest)
    if by is not None:  # "We address this challenge by proposing X": X
        return _object_phrase(rest, by.end())
    if ", " in rest:  # "We address this need from a Bayesian perspective, introducing X": X
        making = _COMMA_MAKING_RE.search(rest, 0, 80)
        if making is not None and not _POINTING.isdisjoint(rest[: making.start()].split()):
            return _object_phrase(rest, making.end())
    if sentence[0] == "T" and verb.endswith("s") and verb not in _PRESENTING_VERBS:
        # "This paper combines X" -> "Combining X", as "We combine X" reads
        return _readable_own(f"We {m.group('adverb') or ''}{verb[:-1]}{m.group('on') or ''} {rest}")
    if not _POINTING.isdisjoint(rest.split(" ", 4)[:4]):
        # "We address this problem and provide X", "We formalize this problem by establishing X":
        # what points back is done by what follows
        then = _TAIL_VERB_RE.search(rest, 0, 100)
        if then is not None:
            return _readable_own("We " + rest[then.start() + 4 :])
        by = _BY_DOING_RE.search(rest, 0, 100)
        if by is not None:
            doing = rest[by.end() :]
            if by.group("showing"):  # "by showing that X": the claim X
                return _readable_claim("We show " + doing)
            making = _BY_MAKING_RE.match(rest, by.start() + 1)
            if making is not None:  # "by proposing X": X
                return _object_phrase(rest, making.end())
            words = doing[: MAX_TITLE + 10].lower().split()
            if len(words) >= 4 and _POINTING.isdisjoint(w.strip(",;:") for w in words):
                return doing
    title = _without_first_person(sentence)
    words = title[: MAX_TITLE + 10].lower().split()  # what is left past a cut matters not
    if (
        title is sentence
        or len(words) < 4
        or words[0].strip(",;:") in _FRAGMENT_START
        or any(w.strip(",;:") in _POINTING for w in words)
        or _EVIDENCE_RE.match(rest.lower())
        or title.endswith((" why", " how"))  # "an approach that explains why": points back
    ):
        return None
    return title


_PAPER_SUBJECTS = (
    " we ", " our ", " i ", " this paper", " this work", " this article", " this study",
    " this letter", " this research", " this thesis", " this chapter", " the paper",
    " the present", " the authors", " the proposed", " the current", " this method",
    " this approach", " this system",
)  # fmt: skip


def _said_by_the_paper(flat: str, at: int) -> bool:
    """Whether the sentence up to `at` has the paper for its subject ("we", "our work")."""
    start = flat.rfind(". ", 0, at)
    while start > 0 and flat.endswith(_ABBREVIATIONS, 0, start + 1):  # "Neu et al. (2021)"
        start = flat.rfind(". ", 0, start)
    dot = flat.rfind(".", start + 1, at)
    if dot > 0 and flat[dot + 1 : dot + 2].isupper():  # "problems.We propose"
        start = dot
    head = " " + flat[start + 1 : at].lower()
    return any(subject in head for subject in _PAPER_SUBJECTS)


# what names a thing right before its name: ", termed", " - dubbed", "which we call a"
_NAMING_BEFORE_RE = re.compile(
    r"(?:,\s*|\s+-+\s+|\s+)(?:(?:which|that)\s+we\s+(?:call|name|term)|we\s+call\s+it|called"
    r"|named|termed|dubbed|coined)\s+(?:as\s+)?(?:an?\s+|the\s+)?$"
)
_ARTICLE_BEFORE_RE = re.compile(r"(?:^|\s)(?:an?|the)\s")
_PREPOSITION_RE = re.compile(r"\s(?:for|of|to|with|in|on|from|via|under)\s")
_RESULTING_RE = re.compile(r",\s+(?:resulting\s+in|leading\s+to|yielding)\s+(?:an?|the)\s")
# what may follow a name and still belong to the thing named: "X for Y", "X, which does Z"
_NAMED_TAIL_RE = re.compile(r"[\s,)\-—]*((?:for|to|that|which|with)\s.*)")


def _naming_sentence_title(flat: str, method: str) -> str | None:
    """METHOD: the thing the sentence that names it says it is, for an abstract whose first
    sentence is about the field ("we implement the anchor view, termed SEGA, for graph
    contrastive learning" -> "SEGA: The anchor view for graph contrastive learning"; "we adjust
    NPs to X, resulting in a new method named NP-Match" -> "NP-Match: Adjusting NPs to X")."""
    for at in _occurrences(flat, method):
        start = max(flat.rfind(". ", 0, at) + 2, at - 200)
        before = flat[start:at]
        naming = _NAMING_BEFORE_RE.search(before)
        if naming is None:
            continue
        head = before[: naming.start()]
        articles = list(_ARTICLE_BEFORE_RE.finditer(head, max(0, len(head) - 70)))
        if not articles:
            return None
        article = articles[-1]  # the thing named is the last noun phrase before its name
        thing = head[article.start() :].strip(" ,-")
        if ";" in thing or ":" in thing:  # "X based on Y; dubbed NAME": not Y's name
            return None
        end = _sentence_end(flat, at)
        tail = _NAMED_TAIL_RE.match(flat, at + len(method), end)
        resulting = _RESULTING_RE.search(head, 0, article.end())
        if resulting is not None:  # what the paper does makes the thing: that says more
            subject = _OWN_SUBJECT_RE.search(head, 0, resulting.start())
            if subject is not None:
                done = _readable_own(head[subject.start() : resulting.start()])
                if done is not None:
                    return f"{method}: {_capitalised(done)}"
        if tail is None and _PREPOSITION_RE.search(thing) is None:
            return None  # "a new method", "a simple yet effective approach": says nothing
        if tail is not None:
            thing += " " + tail.group(1).rstrip(".!? ")
        novel = _NOVEL_RE.match(thing)
        if novel:
            thing = _agreeing_article(f"{novel.group(1)} {thing[novel.end() :]}")
        return f"{method}: {_capitalised(thing)}"
    return None


def derive_title(abstract: str, method: str | None, limit: int = MAX_TITLE) -> str:
    """A short title naming the contribution, as a person skimming the abstract would write it
    (cut, with "…", past `limit` characters), its maths as the abstract writes them."""
    return _with_math(_analyse(abstract), _cut_draft(_draft(abstract, method), method, limit))


# what follows a name that leads the contribution's phrase: its alias or expansion in parentheses,
# then a relative clause ("D-Struct which recovers X"), or an apposition ("ProxSkip---a method")
_NAME_LED_RE = re.compile(
    r"(?:\s+(?:" + _HEAD_NOUN_NAMES.strip().replace("\n", " ").replace(" ", "|") + r"))?"
    r"(?:\s*\((?P<alias>[^()]*)\))?"
    r"(?:\s+to\s+[a-z]+\s+(?:this|these|those|such)\b[^,]*)?"  # "to address these challenges"
    r"(?:,?\s+(?:which|that)\s+(?:(?P<modal>can|could|will|may)\s+)?"
    r"(?:(?P<adverb>[a-z]+ly)\s+)?(?P<verb>[a-z]+)\b"
    r"|\s*(?:,|-+|—|\s+as)\s+(?P<desc>(?:an?|the)\s)|,\s+(?P<participle>[a-z]+ing\s)|(?P<end>$))"
)
# a later sentence led by the name and its verb: "VFlow augments the data with ..."
_NAME_VERB_RE = re.compile(r"\s+(?:(?P<adverb>[a-z]+ly)\s+)?(?P<verb>[a-z]+s)\s")


def _base_verb(verb: str) -> str:
    """recovers -> recover, applies -> apply, matches -> match, processes -> process."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def _spells(expansion: str, name: str) -> bool:
    """Whether the capitals of name come in order among those of expansion (WETR in "World-Model
    inspired Emotion-aware Token Refinement")."""
    capitals = iter(c for c in expansion if c.isupper())
    wanted = [c for c in name if c.isupper()]
    return bool(wanted) and all(c in capitals for c in wanted)


def _name_led(flat: str, verb_end: int, phrase: str, method: str) -> str | None:
    """A title for a contribution phrase led by its name, as "NAME: what it is or does": "D-Struct
    which recovers X" -> "D-Struct: Recovering X", "ProxSkip---a method for X" -> "ProxSkip: A
    method for X", "VFlow to tackle this constraint. VFlow augments X" -> "VFlow: Augmenting X"."""
    m = _NAME_LED_RE.match(phrase, len(method))
    if m is None:
        return None
    alias = m.group("alias")
    if alias and alias.count(" ") >= 2 and _spells(alias, method):
        return f"{method}: {alias}"  # "CONFIG (CONstrained efFIcient Global Optimization)"
    if m.group("participle") is not None:  # "UCRLnew, following the lines of UCRL, but ..."
        return f"{method}: {_capitalised(phrase[m.start('participle') :])}"
    if m.group("desc") is not None:
        desc = phrase[m.start("desc") :]
        novel = _NOVEL_RE.match(desc)
        if novel:
            desc = _agreeing_article(f"{novel.group(1)} {desc[novel.end() :]}")
        return f"{method}: {_capitalised(desc)}"
    verb = m.group("verb")
    rest = ""
    if verb is not None:
        if verb in ("is", "are"):
            return None  # "X that is ...": no doing to name
        if m.group("modal") is None:
            if verb[-1] != "s" or verb.endswith("ss"):
                return None
            verb = _base_verb(verb)
        rest = phrase[m.end() :]
    else:  # the phrase ends after the name: a later sentence may say what it does
        end = _sentence_end(flat, verb_end)
        if flat.startswith(method, end + 1):
            said = _NAME_VERB_RE.match(flat, end + 1 + len(method))
        elif flat.startswith("It ", end + 1):  # "we propose the LoG-GP. It achieves X"
            said = _NAME_VERB_RE.match(flat, end + 3)
        else:
            return None
        if said is None or said.group("verb") in ("is", "has", "was"):
            return None
        verb = _base_verb(said.group("verb"))
        rest = flat[said.end() : _sentence_end(flat, said.end())].rstrip(".!? ")
        m = said
    adverb = m.group("adverb")
    doing = _gerund(verb) + " " + rest.lstrip()
    return f"{method}: {_capitalised(adverb + ' ' + doing if adverb else doing)}"


_Draft = tuple[str, str | None]
"""A derived title before its cut: its tidied text, and for a title of the abstract's first
sentence that sentence (the title then names the method when the cut left it out)."""


def _cut_draft(draft: _Draft, method: str | None, limit: int) -> str:
    tidy, first = draft
    title = _cut(tidy, limit)
    if first is None:
        return title
    if method and method not in title:  # not said, or said past the cut
        title = _cut(_tidied(f"{method}: {_capitalised(first)}"), limit)
    return title or UNTITLED


# a claim's lead clause ("when X, Y"), and what does not start a claim that reads as a title
_CLAUSE_LEAD_NAMES = """
    when while as for in if although though even given despite since because unlike once
    whereas under
"""
_CLAUSE_LEADS = frozenset(_CLAUSE_LEAD_NAMES.split())
_NOT_A_SUBJECT = _POINTING | frozenset(("we", "one", "there", "i", "you"))


def _past_lead_clause(claim: str) -> str:
    """An argued claim from its main clause, when a lead clause comes first ("when hard
    constraints exist, neural reasoning must X" -> "neural reasoning must X"): a long claim's
    cut would leave only the lead."""
    if claim.split(" ", 1)[0] not in _CLAUSE_LEADS:
        return claim
    comma = claim.find(", ", 0, 120)
    if comma < 0:
        return claim
    main = claim[comma + 2 :]
    words = main[:MAX_TITLE].lower().split()
    if (
        len(words) < 4
        or words[0].endswith("ly")  # "particularly X, we need ...": no subject
        or not _NOT_A_SUBJECT.isdisjoint(words)  # "one should", "it does not": the lead says more
    ):
        return claim
    return main


def _apposed_after(phrase: str, method: str) -> str | None:
    """The phrase without the name apposed to its head ("an algorithm, SNO-MDP, that explores X"
    -> "an algorithm that explores X"), or None when the name stands elsewhere."""
    at = phrase.find(", " + method)
    end = at + 2 + len(method)
    if at < 5 or (end < len(phrase) and (phrase[end].isalnum() or phrase[end] in "-(")):
        return None
    if not phrase.startswith(("a ", "an ", "the ", "A ", "An ", "The ")) or method in phrase[:at]:
        return None
    rest = phrase[end:]
    if rest[:2] == ", " and rest[2:3].islower():  # "X, NAME, that ...": the clause is X's
        rest = rest[1:]
    return phrase[:at] + rest


def _draft(abstract: str, method: str | None) -> _Draft:
    analysis = _analyse(abstract)
    flat, contributions = analysis.flat, analysis.contributions
    if method:
        title = _method_title(flat, method)
        if title is not None:
            return _tidied(title), None
    # a position paper's claim, then what it introduces, then whatever it studies, in order
    ordered = (
        sorted(contributions, key=lambda c: -c[2] if c[2] >= _INTRODUCES else 0)
        if len(contributions) > 1
        else contributions
    )
    for subject, verb_end, kind in ordered:
        if flat.startswith("and ", subject) and not _said_by_the_paper(flat, subject):
            continue  # "Yet they are slower ... and introduce instability": not the paper's
        phrase = _object_phrase(flat, verb_end)
        if phrase is None:
            if method and kind >= _MAKES:  # "we propose MoleculeSDE. MoleculeSDE leverages X"
                at = verb_end + 5 if flat.startswith(" the ", verb_end) else verb_end + 1
                if flat.startswith(method, at) and flat.startswith(". ", at + len(method)):
                    led = _name_led(flat, verb_end, method, method)
                    if led is not None:
                        return _tidied(led), None
            continue
        if kind == _ARGUES and len(phrase) > MAX_TITLE:
            phrase = _past_lead_clause(phrase)
        phrase = _past_pointing_by(phrase, method)
        if method and phrase.startswith(method):
            led = _name_led(flat, verb_end, phrase, method)
            if led is not None:
                return _tidied(led), None
        if method:
            # "an open-source library called PyPop7 for black-box optimization"
            for word in (" called ", " named ", " dubbed ", " termed "):
                at = phrase.find(word + method)
                if at > 0:
                    phrase = phrase[:at].rstrip(",") + phrase[at + len(word) + len(method) :]
                    return _tidied(f"{method}: {_capitalised(phrase)}"), None
            apposed = _apposed_after(phrase, method)
            if apposed is not None:
                return _tidied(f"{method}: {_capitalised(apposed)}"), None
        # "we introduce the Chiral Transformer, a lightweight framework ...": a named thing
        named = _NAMED_PHRASE_RE.match(phrase)
        if named and not method and len(named.group(1)) > 3:
            return _tidied(f"{named.group(1)}: {_capitalised(named.group(2))}"), None
        if method and method not in phrase:
            return _tidied(f"{method}: {_capitalised(phrase)}"), None
        return _tidied(phrase), None
    end = _sentence_end(flat, 0)
    first = _without_first_person(flat[:end])
    # a first sentence about the field ("X has been widely studied") tells a skimmer less than a
    # later one about the paper
    frame = _OWN_FRAME_RE.match(flat)
    assert frame is not None  # every part of the pattern is optional
    own = _OWN_SUBJECT_RE.match(flat, frame.end()) is not None or flat.startswith(_OWN_LEADS)
    # "In contrast to X, we demonstrate Y": the sentence is the paper's, past its lead
    purpose = None if own else _PURPOSE_RE.match(flat, 0, end)
    if purpose is not None and flat.startswith(("we ", "We "), purpose.end()):
        readable = _readable_own("We " + flat[purpose.end() + 3 : end].rstrip(".!? "))
        if readable is not None:
            first, own = readable, True
    if not own and method:
        naming = _naming_sentence_title(flat, method)
        if naming is not None:
            return _tidied(naming), None
    if not own:
        first = _own_sentence_title(flat, end) or first
    return _tidied(first), first


def method_and_title(abstract: str) -> tuple[str | None, str]:
    """find_method and derive_title in one call: (method name or None, derived title)."""
    method = _analyse(abstract).method
    return method, derive_title(abstract, method)


@lru_cache(maxsize=4096)
def cited_title(abstract: str) -> str:
    """The title derive_title makes of `abstract`, cut only past CITED_TITLE characters: what a
    citation gives for a title paperdeck made up (the list shows it cut at MAX_TITLE)."""
    analysis = _analyse(abstract)
    return derive_title(abstract, analysis.method, CITED_TITLE)


def method_and_titles(abstract: str) -> tuple[str | None, str, str | None]:
    """method_and_title, and the title cited_title gives when the derived one is cut with "…"
    (None otherwise): a list keeps it, so a citation or JSON never derives it again."""
    analysis = _analyse(abstract)
    method = analysis.method
    draft = _draft(abstract, method)
    title = _cut_draft(draft, method, MAX_TITLE)
    whole = _cut_draft(draft, method, CITED_TITLE) if title.endswith("…") else None
    if whole is not None:
        whole = _with_math(analysis, whole)
    return method, _with_math(analysis, title), whole
