"""Tests for method names and derived titles, on the bundled list and on the patterns they read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperdeck.core.text.render import display_title, render_abstract
from paperdeck.core.titles.derive import (
    MAX_TITLE,
    derive_title,
    find_method,
    method_and_title,
    method_and_titles,
    plain_title_text,
)

SEED = Path(__file__).resolve().parents[2] / "seeds" / "icml2026.txt"


def _seed_abstracts() -> list[str]:
    return [p.strip() for p in SEED.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]


# Per seed paper: the method name (None where the abstract names none), and words the derived
# title must contain to name the contribution.
SEED_EXPECTED: list[tuple[str | None, tuple[str, ...]]] = [
    ("InteractScience", ("InteractScience", "benchmark")),
    ("MARI", ("MARI", "Multi-Adapter Representation Interventions via Energy Calibration")),
    (None, ("hierarchical latent goal spaces",)),
    ("BubbleSpec", ("BubbleSpec", "accelerates RL rollouts")),
    (None, ("formal definition of a causal pathway",)),
    ("DPIMF", ("DPIMF", "differentially private implicit matrix factorization")),
    (None, ("method to extract", "Transformers")),
    (None, ("multi-agent imitation learning", "Markov")),
    ("TR-CIE", ("TR-CIE", "Time-Reparameterized Cumulative Intensity Extrapolation")),
    ("ASTRA", ("ASTRA", "communication-efficient framework")),
    (None, ("Chiral Transformer",)),
    ("SafeSpec", ("SafeSpec", "speculative inference framework")),
    ("FIPN", ("FIPN", "polynomial network")),
    ("SwanSphere", ("SwanSphere", "spatial audio generation")),
    ("SPRINT", ("SPRINT", "training-free plug-and-play framework")),
    ("SDPO", ("SDPO", "Self-Distillation Policy Optimization")),
    (None, ("pretraining distribution", "ICL")),
    (None, ("kernel regression", "𝒪(n log n)")),  # as the abstract shows its math
    ("Dune", ("Dune", "unitary GNN", "edge features")),
]


def test_seed_has_nineteen_abstracts() -> None:
    assert len(_seed_abstracts()) == len(SEED_EXPECTED) == 19


@pytest.mark.parametrize(("index", "expected"), list(enumerate(SEED_EXPECTED)))
def test_seed_method_and_title(index: int, expected: tuple[str | None, tuple[str, ...]]) -> None:
    abstract = _seed_abstracts()[index]
    method, phrases = expected
    assert find_method(abstract) == method
    title = display_title(derive_title(abstract, method), made_up=True)
    for phrase in phrases:
        assert phrase in title, title
    if method is not None:
        assert title.startswith(f"{method}: "), title


def test_seed_titles_are_distinct_short_and_clean() -> None:
    # as shown: a title keeps the maths it took as the abstract writes them, to render them
    titles = [
        display_title(derive_title(a, find_method(a)), made_up=True) for a in _seed_abstracts()
    ]
    assert len(set(titles)) == 19
    for title in titles:
        assert 20 <= len(title) <= MAX_TITLE, title
        assert not re.search(r"[\\$*{}_^`~]", title), title
        assert title[0].isupper(), title
        assert not title.endswith("."), title
        assert not re.search(r"\s{2}", title), title


def test_mari_title_is_the_expansion() -> None:
    abstract = _seed_abstracts()[1]
    assert derive_title(abstract, "MARI") == (
        "MARI: Multi-Adapter Representation Interventions via Energy Calibration"
    )


# --- method names from each pattern ----------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "method"),
    [
        ("We propose FooNet, a network for bar. FooNet is fast.", "FooNet"),
        (r"We introduce \textsc{BarBench}, the first benchmark for baz.", "BarBench"),
        ("In this paper we present **QuxLM**, a model. QuxLM wins.", "QuxLM"),
        ("We propose Sparse Gradient Routing (SGR). SGR beats baselines.", "SGR"),
        ("We design a method called ZetaOpt that converges. ZetaOpt is simple.", "ZetaOpt"),
        ("We train a network, dubbed TinyNet, on small data.", "TinyNet"),
        ("This paper introduces mSOP-765k, a large-scale benchmark for retrieval.", "mSOP-765k"),
        ("We introduce dnaHNet, a tokenizer-free model. dnaHNet scales.", "dnaHNet"),
        ("We introduce Localize-and-Stitch, a novel approach.", "Localize-and-Stitch"),
        (r"We propose $\textbf{DecodeShare}$, a protocol that shares.", "DecodeShare"),
        ("We propose _UniMapping_, a unified SLAM framework.", "UniMapping"),
        ("We propose a *Constraint-Sensitive Policy Optimization (CSPO)*, a method.", "CSPO"),
        ("We formalize X and introduce Self-Distillation Policy Optimization (SDPO).", "SDPO"),
        ("An algorithm, termed ''WaterSIC'', is proposed. WaterSIC is optimal.", "WaterSIC"),
    ],
)  # fmt: skip
def test_method_patterns(abstract: str, method: str) -> None:
    assert find_method(abstract) == method


@pytest.mark.parametrize(
    "abstract",
    [
        "Large Language Models (LLMs) are widely used. We study how LLMs fail on math.",
        "Reinforcement Learning (RL) is hard. We analyse RL with function approximation.",
        "We present the first theoretical analysis of multi-agent imitation learning (MAIL).",
        "We study continual pre-training (CPT) as a mechanism for adapting models. CPT helps.",
        "We evaluate GPT-4 and Llama-3 on MMLU and ARC, and find gaps. GPT-4 leads on MMLU.",
        "We propose a PTQ algorithm for transformers that quantizes weights to 4 bits.",
        "The Edge of Stability (EoS) is a phenomenon where sharpness hovers. EoS appears often.",
        "Our results hold on ImageNet, a standard benchmark. ImageNet has many classes.",
        "",
    ],
)
def test_mentioned_names_are_not_methods(abstract: str) -> None:
    assert find_method(abstract) is None


# --- derived titles without a method -----------------------------------------------------------


def test_title_from_contribution_clause() -> None:
    abstract = (
        "Kernel methods are slow. In this work, we introduce a scalable framework for kernel "
        "regression with $\\mathcal{O}(n \\log n)$ complexity, and designed to use GPUs."
    )
    title = derive_title(abstract, None)
    assert title == (
        "A scalable framework for kernel regression with $\\mathcal{O}(n \\log n)$ complexity"
    )
    assert display_title(title, made_up=True) == (
        "A scalable framework for kernel regression with 𝒪(n log n) complexity"
    )


def test_title_drops_trailing_coordinated_verb() -> None:
    abstract = "We propose a formal definition of a causal pathway and discuss its implications."
    assert derive_title(abstract, None) == "A formal definition of a causal pathway"


def test_title_falls_back_to_first_sentence_cut_on_a_word() -> None:
    abstract = (
        "Graph neural networks with message passing are limited in expressive power by the "
        "Weisfeiler-Leman test and cannot count substructures such as cycles in large graphs. "
        "Other sentences follow."
    )
    title = derive_title(abstract, None)
    assert len(title) <= MAX_TITLE
    assert title.startswith("Graph neural networks with message passing are limited")
    assert title.endswith("…")
    assert abstract.startswith(title[:-1].rstrip())


def test_title_of_empty_and_markup_only_abstracts() -> None:
    assert derive_title("", None) == "(untitled)"
    assert derive_title("$$ ** ~", None) == "(untitled)"


def test_plain_title_text_strips_latex_and_markdown() -> None:
    assert plain_title_text(r"**Fast** $\mathcal{O}(n \log n)$ \emph{kernel} ~ 50\% $\tau$") == (
        "Fast O(n log n) kernel 50% τ"
    )


@pytest.mark.parametrize(
    ("source", "plain"),
    [
        ('the Nystr\\"om method', "the Nyström method"),
        ("Szepesv\\'ari and Gy\\\"{o}rgy", "Szepesvári and György"),
        ('{\\"o}ur \\c{c}a \\v{s}', "öur ça š"),
        ('na\\"\\i ve, Nystr\\"o m', "naïve, Nyströ m"),  # `\i` takes the space, `o` not
        ("the ''price of opacity'' and (''what?'')", "the “price of opacity” and (“what?”)"),
        ("``this'' and ''that''", "“this” and “that”"),
    ],
)
def test_plain_title_text_writes_accents_and_quotes_as_letters(source: str, plain: str) -> None:
    assert plain_title_text(source) == plain


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "This position paper argues that interpretability can be actionable when it is tied "
            "to decisions. We propose a framework.",
            "Interpretability can be actionable when it is tied to decisions",
        ),
        (
            "We present an open-source pure-Python library called PyPop7 for black-box "
            "optimization. PyPop7 is fast.",
            "PyPop7: An open-source pure-Python library for black-box optimization",
        ),
        (
            "This paper introduces mSOP-765k, a large-scale benchmark for structured outputs.",
            "mSOP-765k: A large-scale benchmark for structured outputs",
        ),
        (
            "We propose RGR-GRPO (Reward and Guidance through Rubrics), a method. RGR-GRPO wins.",
            "RGR-GRPO: Reward and Guidance through Rubrics",
        ),
        (
            "We introduce a novel and general domain-adversarial framework for transfer.",
            "A general domain-adversarial framework for transfer",
        ),
        (
            "We propose and examine six alternative measures of data spread, all of which help.",
            "Six alternative measures of data spread",
        ),
    ],
)
def test_titles_from_patterns(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


# --- the scan for naming phrases, appositions and sentence ends ---------------------------------


@pytest.mark.parametrize(
    ("abstract", "method", "title"),
    [
        (
            "Planning is slow. In this work we aim to further propose FooPlan, a planner for "
            "robots. FooPlan is fast.",
            "FooPlan",
            "FooPlan: A planner for robots",
        ),
        (
            "This paper addresses retrieval by proposing RetroNet, a retriever. RetroNet wins.",
            "RetroNet",
            "RetroNet: A retriever",
        ),
        (
            "Can models plan? We propose PlanNet, a planner for long horizons. PlanNet wins.",
            "PlanNet",
            "PlanNet: A planner for long horizons",
        ),
        (
            "Existing planners are slow. FooPlan, a planner for robots, fixes this. FooPlan is "
            "fast and FooPlan is small.",
            "FooPlan",
            "FooPlan: A planner for robots, fixes this",
        ),
        (
            "We propose a formal definition of a causal pathway, and discuss its implications.",
            None,
            "A formal definition of a causal pathway",
        ),
    ],
)
def test_naming_phrases_and_appositions(abstract: str, method: str | None, title: str) -> None:
    assert method_and_title(abstract) == (method, title)
    assert find_method(abstract) == method
    assert derive_title(abstract, method) == title


@pytest.mark.parametrize(
    ("abstract", "method"),
    [
        ("We design a new compressor, namely GraphZip, for graphs.", "GraphZip"),
        ("In 2020 we proposed TurboPlan for robots. TurboPlan is fast.", "TurboPlan"),
        (r"Planners are slow. \textsc{Zeta} plans fast. Zeta is small and Zeta is simple.", "Zeta"),
        # apposed but said only twice, or proposed by someone else: not the paper's own
        ("Planners are slow. FooPlan, a planner for robots, fixes this. FooPlan is fast.", None),
        ("The recently proposed BarNet is slow. We study BarNet on graphs. BarNet fails.", None),
    ],
)  # fmt: skip
def test_method_from_naming_words_and_marks(abstract: str, method: str | None) -> None:
    assert find_method(abstract) == method


def test_method_and_title_matches_the_two_calls_on_the_seed() -> None:
    for abstract in _seed_abstracts():
        method = find_method(abstract)
        assert method_and_title(abstract) == (method, derive_title(abstract, method))


def test_cut_titles_do_not_end_on_a_small_word() -> None:
    abstracts = [
        *_seed_abstracts(),
        "We present a benchmark for the evaluation of the robustness of large vision-language "
        "models of the kind and of the sort that practitioners deploy in the wild every day.",
        "We study the problem of learning to rank items for users of a recommender system in the "
        "presence of the feedback loops that such a system creates over time.",
    ]
    small = {"of", "for", "to", "and", "or", "the", "a", "an", "with", "in", "on", "by", "from"}
    for abstract in abstracts:
        title = derive_title(abstract, find_method(abstract))
        assert len(title) <= MAX_TITLE, title
        assert title.rstrip("…").split()[-1] not in small, title


# --- derived titles read as a person would write them ---------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # the praise goes, and the "but" it leaves behind with it
            "Transformers need data. In this paper, we propose a novel, but surprisingly simple "
            "alternative to content reconstruction.",
            "A surprisingly simple alternative to content reconstruction",
        ),
        (  # where "novel" stood, the article agrees with the word now after it
            "We propose a novel approach that merges models in a localized way.",
            "An approach that merges models in a localized way",
        ),
        (  # "a unified" is said with a consonant: the author's "a" stays
            "We propose a unified framework to characterize conservation laws for models.",
            "A unified framework to characterize conservation laws for models",
        ),
        (  # and the author's "an" before an acronym stays
            "We propose an HtFL framework that couples a shared extractor with client heads.",
            "An HtFL framework that couples a shared extractor with client heads",
        ),
        (  # "propose to learn X" is about learning X
            "We propose to learn a mapping from full-precision neurons to binary ones.",
            "Learning a mapping from full-precision neurons to binary ones",
        ),
        (  # the adverb before the verb stays an adverb
            "We propose to directly model the transition from clean labels to noisy labels.",
            "Directly modeling the transition from clean labels to noisy labels",
        ),
        (  # a cut at the clause after "i.e." takes the "i.e." with it
            "We study a real-world application of positive-unlabelled learning, i.e., classifying "
            "brain images of patients with a disease that progresses over many long years.",
            "A real-world application of positive-unlabelled learning",
        ),
        (  # the first item of an enumeration, without its "(1)"
            "We propose (1) a framework to isolate perception from reasoning and (2) a benchmark.",
            "A framework to isolate perception from reasoning and (2) a benchmark",
        ),
        (  # "we release our code at ..." names no contribution: the first sentence does
            "Denoising diffusion models are a class of generative models. We release our code "
            "and pre-trained models at https://github.com/example/diffusion.",
            "Denoising diffusion models are a class of generative models",
        ),
    ],
)
def test_title_reads_as_written_by_a_person(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


@pytest.mark.parametrize(
    ("first_sentence", "title"),
    [
        (
            "We show that the error of magnitude-pruned networks follows a scaling law.",
            "The error of magnitude-pruned networks follows a scaling law",
        ),
        (
            "This paper is concerned with statistical estimation of attachment models.",
            "Statistical estimation of attachment models",
        ),
        (
            "In this paper we aim to investigate the mechanisms that guide text generation.",
            "Investigating the mechanisms that guide text generation",
        ),
        (
            "We compare model-free reinforcement learning with model-based approaches on robots.",
            "Comparing model-free reinforcement learning with model-based approaches on robots",
        ),
        (
            "In this paper, we focus on mean-field variational networks and explore their priors.",
            "Mean-field variational networks",
        ),
        (
            "We show for the first time that large pretrained transformers can be pruned at once.",
            "Large pretrained transformers can be pruned at once",
        ),
        (  # no contribution said: the sentence stays as written
            "We are interested in an evaluation methodology for molecular optimization.",
            "We are interested in an evaluation methodology for molecular optimization",
        ),
    ],
)
def test_first_sentence_title_without_first_person(first_sentence: str, title: str) -> None:
    assert derive_title(first_sentence + " More text follows here.", None) == title


@pytest.mark.parametrize(
    ("abstract", "method", "title"),
    [
        (
            "We present BitTokens, a novel encoding strategy that represents a number as a token. "
            "BitTokens helps.",
            "BitTokens",
            "BitTokens: An encoding strategy that represents a number as a token",
        ),
        (
            "We introduce GANsformer, a novel and efficient type of transformer, and explore it "
            "for visual generation. GANsformer wins.",
            "GANsformer",
            "GANsformer: An efficient type of transformer",
        ),
    ],
)
def test_method_description_reads_as_written(abstract: str, method: str, title: str) -> None:
    assert find_method(abstract) == method
    assert derive_title(abstract, method) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "We propose a simple statistical procedure that detects stationarity and we provide "
            "guarantees for it.",
            "A simple statistical procedure that detects stationarity",
        ),
        (
            "We propose a theoretical framework to tackle this problem: we develop a list of "
            "desirable properties.",
            "A theoretical framework to tackle this problem",
        ),
    ],
)
def test_title_ends_before_a_first_person_clause(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


def test_method_before_a_first_sentence_keeps_a_capital() -> None:
    abstract = (
        "We approach the graph generation problem from a spectral perspective. SPECTRE makes "
        "graphs. SPECTRE is fast. SPECTRE is small."
    )
    assert derive_title(abstract, "SPECTRE") == (
        "SPECTRE: Approaching the graph generation problem from a spectral perspective"
    )


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # the paper's topic, not how it backs its claim
            "We develop a hyperbolic batch normalization method for graph networks. To "
            "demonstrate this, we present two case studies.",
            "A hyperbolic batch normalization method for graph networks",
        ),
        (
            "We study the interplay between depth and implicit regularization in linear networks. "
            "We present extensive numerical evidence for this conjecture.",
            "The interplay between depth and implicit regularization in linear networks",
        ),
        (  # evidence *that* something holds is a claim, and stays
            "We present evidence that jailbreak attacks suppress safety features rather than "
            "remove them. More text follows.",
            "Evidence that jailbreak attacks suppress safety features rather than remove them",
        ),
        (  # an analysis *of* something says what it is about
            "We provide a theoretical analysis of the inductive biases of self-attention modules. "
            "More text follows.",
            "A theoretical analysis of the inductive biases of self-attention modules",
        ),
    ],
)
def test_title_names_the_topic_not_the_evidence(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # a first sentence about the field gives way to the one about the paper
            "Recovering a signal from its Fourier intensity underlies many important "
            "applications, including lensless imaging. Conventional algorithms for retrieving "
            "the phase suffer when noise is present. Here, we combine iterative methods from "
            "phase retrieval with image statistics from deep denoisers. The resulting methods "
            "outperform other algorithms.",
            "Combining iterative methods from phase retrieval with image statistics from deep "
            "denoisers",
        ),
        (  # "Here we demonstrate X": X
            "Locally private reports are commonly used for collection of statistics. Here we "
            "demonstrate a general approach that compresses every efficient private algorithm "
            "with negligible loss. Our algorithms are simpler.",
            "A general approach that compresses every efficient private algorithm with "
            "negligible loss",
        ),
        (  # a framed sentence ("In this work, we ...") wins over an earlier plain "We ..."
            "Probabilistic solvers for differential equations have emerged as an efficient "
            "framework. We use an independence assumption. In this work, we extend probabilistic "
            "solvers to problems with millions of dimensions. We evaluate the efficiency.",
            "Extending probabilistic solvers to problems with millions of dimensions",
        ),
        (  # "This paper combines X" reads as "We combine X"
            "The field of algorithms has seen a push for fairness in recent history. This paper "
            "combines a linear-time algorithm with a guaranteed 3-approximation factor.",
            "Combining a linear-time algorithm with a guaranteed 3-approximation factor",
        ),
        (  # an adverb before the verb stays an adverb; "additionally" says nothing
            "Variational divergences are a fundamental tool in statistics. We additionally use "
            "precision and recall to compare the two models. We rigorously quantify the "
            "improvement in the sample complexity of divergence estimation.",
            "Rigorously quantifying the improvement in the sample complexity of divergence "
            "estimation",
        ),
        (  # "we bypass X" is about bypassing X ("This paper studies X" is about X)
            "Transformer-based models are widely used in natural language processing. We bypass "
            "the quadratic cost of self-attention by sampling tokens with a single hash.",
            "Bypassing the quadratic cost of self-attention by sampling tokens with a single hash",
        ),
    ],
)
def test_title_is_the_sentence_about_the_paper_not_the_field(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # no sentence says what the paper does: what it shows is the title
            "Deep equilibrium networks are a promising way to construct models. Their theory is "
            "still lacking. We show that DEQs are sensitive to the higher order statistics of the "
            "matrix families from which they are initialized.",
            "DEQs are sensitive to the higher order statistics of the matrix families",
        ),
        (
            "Chaotic dynamical systems are ubiquitous in nature and society. Here we report that a "
            "simple modification of teacher forcing leads to bounded gradients in training.",
            "A simple modification of teacher forcing leads to bounded gradients in training",
        ),
        (  # a sentence about what the paper does still comes first
            "Label shift is a common problem in deployed classifiers. We show that the maximum "
            "likelihood estimator is efficient. We calibrate label shift estimators with a new "
            "bias-corrected procedure.",
            "Calibrating label shift estimators with a new bias-corrected procedure",
        ),
    ],
)
def test_title_is_what_the_paper_shows_when_it_says_nothing_it_does(
    abstract: str, title: str
) -> None:
    assert derive_title(abstract, None) == title


@pytest.mark.parametrize(
    "abstract",
    [
        # what the later sentences say reads as no title: the field's sentence stays
        "Stochastic shortest path is a well-known problem in planning and control. In this work "
        "we remove this dependence on the minimum cost entirely.",  # points back
        "Energy-based models are a simple yet powerful framework for generative modeling. We can "
        "train them with standard statistical tools such as sampling.",  # no doing
        "Causal inference from observational data is central to many areas of science. We "
        "describe and analyze observational sampling from randomized controlled trials.",
        "Bayesian optimization methods often rely on the assumption of a stationary objective. "
        "We perform numerous experiments on a range of benchmarks for black-box optimization.",
        # a claim that starts with no subject of its own, or points back
        "Sample efficiency remains a major challenge in online reinforcement learning. We show "
        "that, under mild assumptions, off-policy methods learn faster than on-policy ones.",
        "Sample efficiency remains a major challenge in online reinforcement learning. We show "
        "that the answer is yes for most of the usual off-policy methods and benchmarks.",
        "Sample efficiency remains a major challenge in online reinforcement learning. We show "
        "that this approach learns faster than on-policy methods on every benchmark.",
        # and a first sentence about the paper is the title as before
        "The proposed method, Discriminator Guidance, aims to improve sample generation of "
        "pre-trained diffusion models. We train the discriminator after score training.",
    ],
)
def test_title_keeps_the_first_sentence_when_no_later_one_reads_as_a_title(
    abstract: str,
) -> None:
    first = abstract[: abstract.index(". ")]
    assert derive_title(abstract, None) == derive_title(first + ".", None)
    assert derive_title(abstract, None).startswith(first[:40])


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "In this position paper, we X" drops its frame like "In this paper, we X"
            "In this position paper, we enumerate a number of problems with the current "
            "peer-review process. More text follows.",
            "Enumerating a number of problems with the current peer-review process",
        ),
        (  # a cut does not end on "but"
            "Reinforcement learning (RL) is able to solve complex sequential decision-making "
            "tasks but is currently limited by sample efficiency and required computation.",
            "Reinforcement learning (RL) is able to solve complex sequential decision-making "
            "tasks…",
        ),
        (  # ", and identify X" is a second contribution the title leaves out
            "We propose a counterfactual estimator and identify conditions that can improve the "
            "performance of counterfactual risk minimization.",
            "A counterfactual estimator",
        ),
        (  # but "to X and Y" is one purpose: "and Y" stays
            "We propose a framework to isolate and evaluate the reasoning aspect of visual "
            "question answering separately.",
            "A framework to isolate and evaluate the reasoning aspect of visual question "
            "answering…",
        ),
    ],
)
def test_first_sentence_titles_read_as_written(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


def test_method_is_named_when_the_sentence_names_it_past_the_cut() -> None:
    abstract = (
        "Semi-supervised semantic segmentation involves assigning pixel-wise labels to unlabeled "
        "images at training time. In this work, we move one step forward by adapting neural "
        "processes to semi-supervised semantic segmentation, resulting in a new model called "
        "NP-SemiSeg. NP-SemiSeg is fast. NP-SemiSeg is accurate."
    )
    assert method_and_title(abstract) == (
        "NP-SemiSeg",
        "NP-SemiSeg: Moving one step forward by adapting neural processes to semi-supervised…",
    )


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "they ... and introduce X" is not the paper introducing X
            "Deep equilibrium networks are a new class of models. Yet they are slower, brittle to "
            "architectural choices, and introduce potential instability to the model. In this "
            "paper, we propose a regularization scheme for equilibrium models.",
            "A regularization scheme for equilibrium models",
        ),
        (  # "this work ... and proposes X" is
            "Kinodynamic planning is hard. The current work leverages these recent results and "
            "proposes a multi-query framework for kinodynamic planning. It is fast.",
            "A multi-query framework for kinodynamic planning",
        ),
        (  # past "et al." the sentence goes on to its subject
            "Generalization bounds are a classic topic. We build on Neu et al. (2021) and present "
            "new information-theoretic upper bounds for the generalization error.",
            "Information-theoretic upper bounds for the generalization error",
        ),
    ],
)
def test_and_introduce_counts_when_the_paper_is_its_subject(abstract: str, title: str) -> None:
    assert derive_title(abstract, None) == title


@pytest.mark.parametrize(
    ("verb", "gerund"),
    [
        ("blur", "Blurring"),
        ("stop", "Stopping"),
        ("map", "Mapping"),
        ("plan", "Planning"),
        ("drop", "Dropping"),
        ("prefer", "Preferring"),
        ("occur", "Occurring"),
        ("open", "Opening"),
        ("visit", "Visiting"),
        ("model", "Modeling"),
        ("filter", "Filtering"),
        ("limit", "Limiting"),
    ],
)
def test_first_person_verb_reads_as_a_gerund(verb: str, gerund: str) -> None:
    sentence = f"We {verb} the features of every image in the training set before fitting."
    assert derive_title(sentence + " More text follows here.", None) == (
        f"{gerund} the features of every image in the training set before fitting"
    )


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # a purpose that points back names nothing
            "Unlabeled data is costly to annotate. In this paper, we propose a hierarchical "
            "pooling approach with structural entropy to tackle this problem. It works.",
            "A hierarchical pooling approach with structural entropy",
        ),
        (
            "Sparse attention is slow. We present MAE-DET, a zero-shot NAS method for object "
            "detection, to address these issues. It is fast.",
            "MAE-DET: A zero-shot NAS method for object detection",
        ),
        (  # the purpose of what the object does stays: "enables robots to ..."
            "Robots need knowledge. We propose a method that enables robots to acquire such "
            "knowledge. It works.",
            "A method that enables robots to acquire such knowledge",
        ),
        (  # "in order to", "designed to", "which to": the sentence needs them
            "Measures are biased. We propose the theoretical corrections for all of the most "
            "popular measures in order to remove this bias. It works.",
            "The theoretical corrections for all of the most popular measures",
        ),
        (  # what is left would name nothing
            "Fairness is hard. We propose a framework to solve this problem. It works well.",
            "A framework to solve this problem",
        ),
    ],
)
def test_title_drops_a_purpose_that_points_back(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "The paper presents X" is a frame as "This paper presents X" is
            "Legged robots walk. The paper presents a task-priority motion planning algorithm for "
            "a balancing robot. It is tested.",
            "A task-priority motion planning algorithm for a balancing robot",
        ),
        (
            "The paper describes the kinematic modeling of a small wheel-track-legged mobile "
            "robot. It is tested.",
            "The kinematic modeling of a small wheel-track-legged mobile robot",
        ),
        (  # "deals with X" says X
            "This paper deals with the problem of decentralized fault detection in robot "
            "teams. It is tested.",
            "The problem of decentralized fault detection in robot teams",
        ),
        (  # an adverb between "and" and the second verb
            "Multi-task learning is common. The article proposes and theoretically analyses a "
            "computationally efficient multi-task learning extension of PCA. It works.",
            "A computationally efficient multi-task learning extension of PCA",
        ),
    ],
)
def test_the_paper_frame_is_dropped(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_title_is_not_cut_inside_a_list_of_verbs() -> None:
    abstract = (
        "Distributed algorithms are deployed everywhere. This work offers a fresh perspective "
        "to model, analyze, and design distributed optimization algorithms through the lens of "
        "stochastic multi-rate feedback control. We show more."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title.startswith("A fresh perspective to model, analyze, and design distributed")
    assert title.endswith("…")


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # a citation in parentheses taken out
            "Pruning is studied. We prove an even stronger hypothesis (as was also conjectured in "
            "Ramanujan et al., 2019), showing that for every bounded distribution a good "
            "subnetwork exists. Experiments agree.",
            "An even stronger hypothesis, showing that for every bounded distribution a good…",
        ),
        (  # names in a list, each with a space before its comma in the abstract
            "Pruning at initialization is popular. We assess proposals for doing so: SNIP , "
            "GraSP , SynFlow , and magnitude pruning. All fall short.",
            "Assessing proposals for doing so: SNIP, GraSP, SynFlow, and magnitude pruning",
        ),
    ],
)
def test_no_space_is_left_before_a_comma(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "To remedy this issue, we augment X": the sentence says what the paper does
            "Generative autoencoders offer a promising approach for controllable text generation "
            "by leveraging their learned sentence representations. However, current models "
            "struggle to maintain coherent latent spaces. To remedy this issue, we augment "
            "adversarial autoencoders with a denoising objective. Results follow.",
            "Augmenting adversarial autoencoders with a denoising objective",
        ),
        (  # a plain "We X" sentence after it reads better still; the name it gives leads
            "Embedding-based entity alignment (EEA) has recently received great attention. To "
            "fill the research gap, we define a typical paradigm abstracted from existing EEA "
            "methods. We mitigate this problem by proposing a new approach, named NeoEA, to "
            "explicitly learn KG-invariant and principled entity embeddings. It works.",
            "NeoEA: An approach to explicitly learn KG-invariant and principled entity embeddings",
        ),
    ],
)
def test_a_sentence_led_by_a_purpose_says_what_the_paper_does(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # a claim led by a lowercase noun phrase
            "The inductive biases of graph representation learning algorithms are often encoded "
            "in the background geometry of their embedding space. In this paper, we show that "
            "general directed graphs can be effectively represented by an embedding model that "
            "combines three components. We demonstrate the capabilities of this method.",
            "General directed graphs can be effectively represented by an embedding model…",
        ),
        (
            "Dropout is a widely-used regularization technique for deep networks. We show that "
            "dropout has both an implicit and an explicit regularization effect.",
            "Dropout has both an implicit and an explicit regularization effect",
        ),
        (  # "X is NP-hard and give Y": the claim without the second verb
            "Metric Multidimensional scaling (MDS) is a classical method for generating "
            "meaningful (non-linear) low-dimensional embeddings of high-dimensional data. In this "
            "paper, we prove that minimizing the Kamada-Kawai objective is NP-hard and give a "
            "provable approximation algorithm for optimizing it.",
            "Minimizing the Kamada-Kawai objective is NP-hard",
        ),
    ],
)
def test_a_claim_of_the_paper_is_its_title(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


# Real abstracts (ICML 2020-23) whose "we" sentence points back ("we address this issue") and
# says what the paper does after "by" or "and": before, the title was the first sentence, about
# the field ("The LSTM network was proposed to overcome the difficulty in learning ...").
_POINTED_THEN_DONE = [
    (
        "The LSTM network was proposed to overcome the difficulty in learning long-term "
        "dependence, and has made significant advancements in applications. With its success and "
        "drawbacks in mind, this paper raises the question -do RNN and LSTM have long memory? We "
        "answer it partially by proving that RNN and LSTM do not have long memory from a "
        "statistical perspective. A new definition for long memory networks is further "
        "introduced, and it requires the model weights to decay at a polynomial rate.",
        "RNN and LSTM do not have long memory from a statistical perspective",
    ),
    (
        "Graph neural networks that model 3D data, such as point clouds or atoms, are typically "
        "desired to be $SO(3)$ equivariant, i.e., equivariant to 3D rotations. Unfortunately "
        "equivariant convolutions, which are a fundamental operation for equivariant networks, "
        "increase significantly in computational complexity as higher-order tensors are used. In "
        "this paper, we address this issue by reducing the $SO(3)$ convolutions or tensor "
        "products to mathematically equivalent convolutions in $SO(2)$ . This is accomplished by "
        "aligning the node embeddings' primary axis with the edge vectors.",
        "Reducing the SO(3) convolutions or tensor products to mathematically equivalent…",
    ),
    (
        "The Bayesian learning rule is a natural-gradient variational inference method, which "
        "not only contains many existing learning algorithms as special cases but also enables "
        "the design of new algorithms. Unfortunately, when variational parameters lie in an open "
        "constraint set, the rule may not satisfy the constraint and requires line-searches which "
        "could slow down the algorithm. In this work, we address this issue for positive-definite "
        "constraints by proposing an improved rule that naturally handles the constraints. Our "
        "method outperforms existing methods without any significant increase in computation.",
        "An improved rule that naturally handles the constraints",
    ),
    (
        "Mixture of linear regressions is a popular learning theoretic model that is used widely "
        "to represent heterogeneous data. How many such oracle queries are needed to recover both "
        "of the models simultaneously? In this work we address this query complexity problem and "
        "provide efficient algorithms that improves on the previously best known results.",
        "Efficient algorithms that improves on the previously best known results",
    ),
]


@pytest.mark.parametrize(("abstract", "title"), _POINTED_THEN_DONE)
def test_what_a_pointing_sentence_does_after_by_or_and_is_the_title(
    abstract: str, title: str
) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_the_means_after_by_is_no_title() -> None:
    # "by leveraging X" says how, not what: the paper's finding stays the title (a guard)
    abstract = (
        "Recent work showed that overparameterized autoencoders can be trained to implement "
        "associative memory via iterative maps, when the trained input-output Jacobian of the "
        "network has all of its eigenvalue norms strictly below one. Here, we theoretically "
        "analyze this phenomenon for sigmoid networks by leveraging recent developments in deep "
        "learning theory, especially the correspondence between training neural networks in the "
        "infinite-width limit and performing kernel regression with the Neural Tangent Kernel "
        "(NTK). We find that overparameterized sigmoid autoencoders can have attractors in the NTK "
        "limit for both training with a single example and multiple examples under certain "
        "conditions."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title.startswith("Overparameterized sigmoid autoencoders can have attractors")


@pytest.mark.parametrize(
    "abstract",
    [
        # "we" is no subject of a title; a list cut at its first comma has no verb
        "One of the advantages of supervised learning is that the final error metric is "
        "available during training. We show that we can substitute for the labels by making "
        "use of structure between the pattern distributions.",
        "Memory-based meta-learning is a technique for approximating Bayes-optimal predictors. "
        "We show that various types of memory-based neural models, including Transformers, "
        "LSTMs, and RNNs, can learn to accurately approximate known Bayes-optimal algorithms.",
    ],
)
def test_a_claim_that_reads_as_no_title_is_not_taken(abstract: str) -> None:
    first = abstract.split(". ", 1)[0]
    assert derive_title(abstract, find_method(abstract)) == derive_title(first + ".", None)


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "and applies it to": a second verb phrase, also in its third person
            "Spectral clustering is popular. This paper proposes an approximation to the "
            "(effective) p-resistance and applies it to multi-class clustering. It works.",
            "An approximation to the (effective) p-resistance",
        ),
        (  # "a model, develop an estimator, and ...": a second verb after a comma
            "Higher-order tensors arise in many applications. We propose a multi-linear "
            "cumulative link model, develop a rank-constrained M-estimator, and obtain "
            "theoretical accuracy guarantees. Experiments follow.",
            "A multi-linear cumulative link model",
        ),
        (  # "and argues that": a second verb phrase
            "However, current evaluation practices are increasingly inadequate for capturing the "
            "full range of capabilities of modern TTS systems. This position paper introduces the "
            "concept of Responsible Evaluation and argues that it is essential and urgent for the "
            "next phase of TTS development. It works.",
            "Responsible Evaluation",
        ),
        (  # "and empirically study": a second verb phrase led by an adverb
            "Good data stewardship requires removal of data at the request of the data's owner. "
            "We develop a certified-removal mechanism for linear classifiers and empirically "
            "study learning settings in which this mechanism is practical.",
            "A certified-removal mechanism for linear classifiers",
        ),
        (  # ", theoretically analyze the": the same after a comma
            "Partial-label learning (PLL) is a typical weakly supervised learning problem. More "
            "specifically, we propose a novel estimator of the classification risk, "
            "theoretically analyze the classifier-consistency, and establish an estimation error "
            "bound. Then we propose a progressive identification algorithm.",
            "An estimator of the classification risk",
        ),
        (  # an adverb before an adjective leads no verb phrase: "empirically testable"
            "Deep networks are hard to analyse. We propose an alternative route based on two "
            "theoretically grounded and empirically testable assumptions about spectra. It "
            "works.",
            "An alternative route based on two theoretically grounded and empirically testable…",
        ),
        (  # "to" before a name lists no verbs
            "Sign language (SL) is the primary method of communication for the 70 million Deaf "
            "people around the world. We address this by introducing novel linguistic priors "
            "that are universally applicable to SL and provide constraints on 3D hand pose that "
            "help resolve ambiguities within isolated signs. Our method, SGNify, captures "
            "fine-grained hand pose. We evaluate SGNify. SGNify outperforms other methods.",
            "SGNify: Linguistic priors that are universally applicable to SL",
        ),
    ],
)
def test_title_drops_a_second_verb_phrase(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "to what extent" is no verb to make a gerund of ("Whatting extent")
            "Stability and plasticity are at odds. In this work we examine to what extent this "
            "tension exists by exploring if it is possible to generalize across tasks.",
            "To what extent this tension exists by exploring if it is possible to generalize "
            "across…",
        ),
        (  # "we show how to X": How to X
            "Instrumental variable methods provide a powerful approach to estimating causal "
            "effects in the presence of unobserved confounding. In this paper, we show how to "
            "perform consistent IV estimation despite violations of the exclusion assumption.",
            "How to perform consistent IV estimation despite violations of the exclusion "
            "assumption",
        ),
    ],
)
def test_title_reads_a_question_word_as_written(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # what comes before "by" only points back to a problem the title never names
            "Semi-supervised learning is a powerful technique. However, labels may be missing "
            "not at random. We propose an approach to address this issue by estimating the "
            "missing-data mechanism and using inverse propensity weighting to debias any SSL "
            "algorithm. It works.",
            "Estimating the missing-data mechanism and using inverse propensity weighting to "
            "debias…",
        ),
        (  # the method's name stays in front
            "Attention is costly. We propose ContextPool to address this problem by adapting the "
            "attention granularity for each token. ContextPool makes attention models more "
            "expressive. ContextPool works.",
            "ContextPool: Adapting the attention granularity for each token",
        ),
        (  # "by proposing X": X
            "Pruning is popular. This paper provides one answer to this question by proposing a "
            "greedy optimization based pruning method. It works.",
            "A greedy optimization based pruning method",
        ),
    ],
)
def test_title_starts_past_a_problem_it_only_points_back_to(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "we propose in this paper X": the aside is no part of X
            "Robustness is mainly tested with empirical attacks. We propose in this paper a new "
            "white-box adversarial attack wrt the l_p-norms aiming at finding the minimal "
            "perturbation. It has an intuitive geometric meaning.",
            "A white-box adversarial attack wrt the l_p-norms aiming at finding the minimal…",
        ),
        (  # "In this contribution, we X" frames the sentence as "In this paper, we X" does
            "In this contribution, we augment the metric learning setting by introducing a "
            "parametric pseudo-distance, trained jointly with the encoder. Several "
            "interpretations are thus drawn.",
            "Augmenting the metric learning setting by introducing a parametric pseudo-distance",
        ),
        (  # "to apply it": "apply" is a verb, not an adverb in -ly
            "Scoring rules are common. We propose to apply it to mixture models trained with an "
            "Expectation-Maximization algorithm. It works.",
            "Applying it to mixture models trained with an Expectation-Maximization algorithm",
        ),
        (  # no "Our" leads a title
            "Offline reinforcement learning is hard. In this paper, we propose our closed-form "
            "policy improvement operators. We make a novel observation.",
            "The closed-form policy improvement operators",
        ),
        (  # ": We first tune X" after the title's phrase is cut, as ": we" is
            "Large language models are few-shot learners. In this work, we study few-shot "
            "learning with PLMs from a different perspective: We first tune an autoregressive "
            "PLM on the few-shot samples. It works.",
            "Few-shot learning with PLMs from a different perspective",
        ),
        (  # "for the first time" is an aside as "in this paper" is
            "Although LoRA is simple, its convergence is poorly understood. In this work, we "
            "provide for the first time a non-asymptotic convergence analysis of the *original "
            "LoRA gradient descent* algorithm, which reflects widespread practice, without such "
            "assumptions. It works.",
            "A non-asymptotic convergence analysis of the original LoRA gradient descent algorithm",
        ),
    ],
)
def test_title_leaves_out_asides_and_first_person(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "method", "title"),
    [
        (  # the noun after "(DaRE)" ends the expansion, which stops at an adjective
            "However, efficiently removing this data from an ML model is generally difficult. "
            "In this paper, we introduce data removal-enabled (DaRE) forests, a variant of random "
            "forests that enables the removal of training data with minimal retraining. Model "
            "updates for each DaRE tree in the forest are exact, meaning that removing instances "
            "from a DaRE model yields exactly the same model as retraining from scratch on "
            "updated data. DaRE trees use randomness and caching to make data deletion "
            "efficient.",
            "DaRE",
            "DaRE: Data removal-enabled forests",
        ),
        (  # "a family of" is no part of the name; "methods" is its head noun
            "Inspired by recent work of Islamov et al (2021), we propose a family of Federated "
            "Newton Learn (\\algname{FedNL}) methods, which we believe is a marked step in the "
            "direction of making second-order methods applicable to FL. In contrast to the "
            "aforementioned work, \\algname{FedNL} employs a different Hessian learning "
            "technique. Moreover, we develop \\algname{FedNL-PP}, which is a variant of "
            "\\algname{FedNL}.",
            "FedNL",
            "FedNL: Federated Newton Learn Methods",
        ),
        (  # "(LDR) losses": a plural head noun
            "We study a family of loss functions named label-distributionally robust (LDR) losses "
            "for multi-class classification that are formulated from distributionally robust "
            "optimization (DRO) perspective. We propose a new adaptive LDR loss. We demonstrate "
            "stable and competitive performance for the proposed adaptive LDR loss.",
            "LDR",
            "LDR: Label-distributionally robust losses",
        ),
        (  # a capital past a dash starts the name: "algorithm---Stochastic Subspace ..."
            "We propose a new randomized second-order optimization algorithm---Stochastic "
            "Subspace Cubic Newton (SSCN)---for minimizing a high dimensional convex function. "
            "SSCN converges. We show that SSCN interpolates between methods.",
            "SSCN",
            "SSCN: Stochastic Subspace Cubic Newton",
        ),
    ],
)
def test_expansion_is_the_whole_name(abstract: str, method: str, title: str) -> None:
    assert find_method(abstract) == method
    assert derive_title(abstract, method) == title


@pytest.mark.parametrize(
    ("abstract", "method", "title"),
    [
        (  # a relative clause after the name says what it does
            "To be transportable, the structures discovered on one dataset must apply to another "
            "dataset from the same domain. We introduce D-Struct which recovers transportability "
            "in the discovered structures through a novel architecture and loss function while "
            "remaining fully differentiable. Because D-Struct remains differentiable, our method "
            "can be easily adopted in existing differentiable architectures. In our experiments, "
            "we empirically validate D-Struct with respect to edge accuracy.",
            "D-Struct",
            "D-Struct: Recovering transportability in the discovered structures through…",
        ),
        (  # past a purpose that points back ("to address these challenges")
            "When transferring from a model zoo, applying classic single-model-based transfer "
            "learning methods to each source model suffers from high computational cost. We "
            "propose \\emph{Zoo-Tuning} to address these challenges, which learns to adaptively "
            "transfer the parameters of pretrained models to the target task. We further propose "
            "lite Zoo-Tuning. We evaluate our approach on a variety of tasks.",
            "Zoo-Tuning",
            "Zoo-Tuning: Learning to adaptively transfer the parameters of pretrained models…",
        ),
        (  # "which can V": the modal's verb
            "To address this, we propose XDLM, which can bridge the two paradigms via a "
            "stationary noise kernel. XDLM offers two key contributions. Experiments demonstrate "
            "that XDLM advances the Pareto frontier.",
            "XDLM",
            "XDLM: Bridging the two paradigms via a stationary noise kernel",
        ),
        (  # an apposition after a dash
            "To address such data types, we introduce TabDDPM --- a diffusion model that can be "
            "universally applied to any tabular dataset and handles any feature types. We "
            "extensively evaluate TabDDPM on a wide set of benchmarks.",
            "TabDDPM",
            "TabDDPM: A diffusion model that can be universally applied to any tabular dataset…",
        ),
        (  # the expansion the authors give in parentheses, before a vague apposition
            "We study the problem of constrained efficient global optimization, where both the "
            "objective and constraints are expensive black-box functions. We propose CONFIG "
            "(CONstrained efFIcient Global Optimization), a simple and effective algorithm to "
            "solve it. Under certain regularity assumptions, we show that our algorithm enjoys "
            "the same cumulative regret bound.",
            "CONFIG",
            "CONFIG: CONstrained efFIcient Global Optimization",
        ),
        (  # nothing said after the name: the next sentence it leads says what it does
            "In this work, we study a previously overlooked constraint that all the intermediate "
            "representations must have the same dimensionality with the data. We propose VFlow to "
            "tackle this constraint on dimensionality. VFlow augments the data with extra "
            "dimensions. Under mild assumptions, we show that VFlow is better.",
            "VFlow",
            "VFlow: Augmenting the data with extra dimensions",
        ),
    ],
)
def test_a_name_that_leads_the_phrase_is_followed_by_what_it_is(
    abstract: str, method: str, title: str
) -> None:
    assert find_method(abstract) == method
    assert derive_title(abstract, method) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "We study the problem of \\emph{dynamic regret minimization} in $K$-armed Dueling "
            "Bandits under non-stationary or time-varying preferences. This is an online "
            "learning setup where the agent chooses a pair of items at each round.",
            "Dynamic regret minimization in K-armed Dueling Bandits under non-stationary…",
        ),
        (  # and before "where": what the problem is about, not how it is set
            "A standard assumption in supervised learning is that the training data and test "
            "data are from the same distribution. We consider the problem of detecting covariate "
            "shift, where the covariate distribution shifts but the conditional distribution of "
            "labels given covariates remains the same. This problem can naturally be solved "
            "using a two-sample test.",
            "Detecting covariate shift",
        ),
        (  # too little would be left: the phrase stays as written, cut before "where"
            "We investigate the challenge of multi-output learning, where the goal is to learn a "
            "vector-valued function based on a supervised data set. This includes a range of "
            "important problems in Machine Learning.",
            "The challenge of multi-output learning",
        ),
    ],
)
def test_title_names_what_the_problem_is_about(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "Neural solvers for constraint satisfaction problems have achieved remarkable "
            "in-distribution accuracy. This position paper argues that when hard constraints "
            "exist and the cost of verification is relatively low, neural constraint reasoning "
            "must prioritize symbolic integration over pure learning. We justify our focus on "
            "Sudoku.",
            "Neural constraint reasoning must prioritize symbolic integration over pure learning",
        ),
        (
            "While sparse autoencoders (SAEs) have generated significant excitement, a series of "
            "negative results have added to skepticism about their usefulness. Here, we "
            "establish a conceptual distinction that reconciles competing narratives surrounding "
            "SAEs. We argue that even if SAEs may be less effective for *acting on known "
            "concepts*, SAEs are especially powerful tools for *discovering unknown concepts*. "
            "This distinction separates existing negative results from positive results.",
            "SAEs are especially powerful tools for discovering unknown concepts",
        ),
    ],
)
def test_an_argued_claim_is_titled_past_its_lead_clause(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # the comma closes an aside that "that" opened: the title ends before "that"
            "Automated decision support systems promise to help human experts. In this work, we "
            "develop an automated decision support system that, by design, does not require "
            "experts to understand when to trust the system to improve performance. Rather than "
            "providing label predictions, our system provides sets of label predictions.",
            "An automated decision support system",
        ),
        (  # a comma inside a list ends no clause: cut on a word, and say so
            "Recent progress in large-scale robotic datasets has advanced research on VLA models. "
            "In this work, we present \\textbf{XR-1}, a novel framework for versatile and "
            "scalable VLA learning across diverse robots, tasks, and environments. At its core, "
            "XR-1 introduces the Unified Vision-Motion Codes.",
            "XR-1: A framework for versatile and scalable VLA learning across diverse robots, "
            "tasks…",
        ),
        (  # nor does ", and" before a list's last item
            "Reasoning with LLMs increasingly unfolds inside a broader verification loop. We "
            "introduce metrics capturing incorrect acceptance, incorrect rejection, and "
            "strong-verification frequency. Over population, we show that optimal policies admit "
            "a two-threshold structure.",
            "Metrics capturing incorrect acceptance, incorrect rejection, and strong-verification…",
        ),
    ],
)
def test_a_title_cut_at_a_comma_ends_a_clause(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "Previous works have only focused on the sequential setting. We study the batched "
            "K-armed dueling bandit problem under two standard settings: (i) existence of a "
            "Condorcet winner, and (ii) strong stochastic transitivity and stochastic triangle "
            "inequality. For both settings, we obtain algorithms.",
            "The batched K-armed dueling bandit problem under two standard settings",
        ),
        (
            "However, transformers for directed graphs are a surprisingly underexplored topic. In "
            "this work, we propose two direction- and structure-aware positional encodings for "
            "directed graphs: (1) the eigenvectors of the Magnetic Laplacian — a direction-aware "
            "generalization of the combinatorial Laplacian; (2) directional random walk "
            "encodings. Empirically, it helps.",
            "Two direction- and structure-aware positional encodings for directed graphs",
        ),
    ],
)
def test_a_list_the_cut_would_leave_at_its_first_item_is_left_out(
    abstract: str, title: str
) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "method", "title"),
    [
        (
            "Safe reinforcement learning has been a promising approach. In this paper, we propose "
            "an algorithm, SNO-MDP, that explores and optimizes Markov decision processes under "
            "unknown safety constraints. Specifically, SNO-MDP takes a step-wise approach. We "
            "evaluate SNO-MDP.",
            "SNO-MDP",
            "SNO-MDP: An algorithm that explores and optimizes Markov decision processes under "
            "unknown…",
        ),
        (
            "We present an algorithm, HOMER, for exploration and reinforcement learning in rich "
            "observation environments. HOMER interleaves representation learning with strategic "
            "exploration. HOMER provably explores the environment.",
            "HOMER",
            "HOMER: An algorithm for exploration and reinforcement learning in rich observation…",
        ),
    ],
)
def test_a_name_apposed_to_its_head_leads_the_title(abstract: str, method: str, title: str) -> None:
    assert find_method(abstract) == method
    assert derive_title(abstract, method) == title


def test_a_sentence_run_into_the_last_one_is_read_as_a_sentence() -> None:
    # "problem.We propose": no space after the period, as scraped lists have it
    abstract = (
        "Quantum Computing (QC) stands to revolutionize computing, but is currently still "
        "limited. The order (path) of contraction can have a drastic effect on the computing "
        "cost, but finding an efficient order is a challenging combinatorial optimization "
        "problem.We propose a Reinforcement Learning (RL) approach combined with Graph Neural "
        "Networks (GNN) to address the contraction ordering problem. The problem is extremely "
        "challenging due to the huge search space."
    )
    assert derive_title(abstract, find_method(abstract)) == (
        "A Reinforcement Learning (RL) approach combined with Graph Neural Networks (GNN)…"
    )


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (  # "This study aims to" is the paper's own sentence, as "This paper aims to" is
            "Capturing the occurrence dynamics is crucial to predicting which type of events will "
            "happen next and when. A common method to do this is through Hawkes processes. "
            "However, we are unaware of the effectiveness of self-attention in the context of "
            "Hawkes processes. This study aims to fill the gap by designing a self-attentive "
            "Hawkes process (SAHP). SAHP employs self-attention.",
            "A self-attentive Hawkes process (SAHP)",
        ),
        (  # "In this study, we prove X": the frame of the sentence
            "A recurrent neural network (RNN) is a widely used deep-learning network for dealing "
            "with sequential data. However, the universal approximation theorem for deep narrow "
            "structures has yet to be extensively studied. In this study, we prove the "
            "universality of deep narrow RNNs and show that the upper bound of the minimum width "
            "can be independent of the length of the data.",
            "The universality of deep narrow RNNs",
        ),
        (  # "The work presents X" says X
            "The work presents an approach for addressing the challenge of robustness in Large "
            "Language Models (LLMs) to alterations caused by semantically similar but textually "
            "different prompts. Recent works have shown that these variations matter.",
            "An approach for addressing the challenge of robustness in Large Language Models "
            "(LLMs)…",
        ),
        (  # "an approach that explains why" points back: the first sentence says more
            "Continual Learning (CL) algorithms incrementally learn a predictor across multiple "
            "sequentially observed tasks. Designing CL algorithms that avoid catastrophic "
            "forgetting has proven a persistent challenge. The current paper develops a "
            "theoretical approach that explains why. In particular, we derive the computational "
            "properties which CL algorithms would have to possess.",
            "Continual Learning (CL) algorithms incrementally learn a predictor across multiple…",
        ),
    ],
)
def test_a_study_or_the_present_work_is_the_paper(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_a_first_sentence_led_by_a_contrast_is_titled_past_it() -> None:
    abstract = (
        "In contrast to traditional weight optimization in a continuous space, we demonstrate "
        "the existence of effective random networks whose weights are never updated. By "
        "selecting a weight among a fixed set of random values for each individual connection, "
        "our method uncovers combinations of random weights that match the performance of "
        "traditionally-trained networks of the same capacity."
    )
    assert derive_title(abstract, find_method(abstract)) == (
        "The existence of effective random networks whose weights are never updated"
    )


def test_a_name_written_as_a_macro_leads_its_title() -> None:
    # "\UCRLnew" is the authors' macro for their name; ", following ..." is what it does
    abstract = (
        "The upper confidence reinforcement learning (\\UCRL) strategy introduced in "
        "\\citep{jaksch2010near} is a popular method to perform regret minimization. In pursuit "
        "of practical efficiency, we present \\UCRLnew, following the lines of \\UCRL, but with "
        "two key modifications: First, it uses state-of-the-art time-uniform concentration "
        "inequalities. We demonstrate that \\UCRLnew\\ improves on \\UCRL."
    )
    assert find_method(abstract) == "UCRLnew"
    assert derive_title(abstract, "UCRLnew") == (
        "UCRLnew: Following the lines of UCRL, but with two key modifications"
    )


def test_a_name_left_out_of_the_list_leaves_what_it_does() -> None:
    # "\method{}": the list dropped the name; "which introduces X" is what it does
    abstract = (
        "Incorporating textual information into time-series forecasting holds promise. To bridge "
        "this gap, we propose \\method{}, which introduces a Temporal Evolution Semantic Space as "
        "an intermediate bottleneck between modalities. This space consists of interpretable "
        "temporal primitives."
    )
    assert derive_title(abstract, find_method(abstract)) == (
        "Introducing a Temporal Evolution Semantic Space as an intermediate bottleneck between…"
    )


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "In this setting, where space (memory) is the limiting resource, all known algorithms "
            "require space that is polynomial in the dimension of the matrix. We address this "
            "challenge by providing the first algorithms whose space requirement is independent "
            "of the matrix dimension, assuming the matrix is doubly-sparse.",
            "The first algorithms whose space requirement is independent of the matrix dimension",
        ),
        (
            "Unfortunately, there are no good methods for estimating the contamination factor "
            "itself. We address this need from a Bayesian perspective, introducing a method for "
            "estimating the posterior distribution of the contamination factor for a given "
            "unlabeled dataset. We leverage several anomaly detectors.",
            "A method for estimating the posterior distribution of the contamination factor…",
        ),
    ],
)
def test_a_sentence_that_points_back_is_titled_by_what_it_makes(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "In this paper, we show how the mixture components cooperate when they jointly adapt "
            "to maximize the ELBO. We build upon recent advances in the multiple and adaptive "
            "importance sampling literature. We then model the mixture components using separate "
            "encoder networks.",
            "The mixture components cooperate when they jointly adapt to maximize the ELBO",
        ),
        (
            "A formal framework for memorization in generative models, called ``data-copying'' "
            "was proposed by Meehan et. al (2020). We build upon their work to show that their "
            "framework may fail to detect certain kinds of blatant memorization. Motivated by "
            "this and the theory of non-parametric methods, we provide an alternative definition "
            "of data-copying that applies more locally. We provide a method to detect "
            "data-copying.",
            "An alternative definition of data-copying that applies more locally",
        ),
    ],
)
def test_building_on_others_work_is_no_contribution(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "Training VAEs often requires considerable hyperparameter tuning. We propose a simple "
            "but novel modification to the commonly used Gaussian decoder, which computes the "
            "prediction variance analytically. It works.",
            "A simple modification to the commonly used Gaussian decoder",
        ),
        (
            "Current strategies to overcome slow prediction require high order automatic "
            "differentiation. We propose two novel algorithms that change the exponent of the "
            "compute requirements. It works.",
            "Two algorithms that change the exponent of the compute requirements",
        ),
        (  # "a novel perspective" is a new one: the word says something there
            "Constrained reinforcement learning is hard. We study constrained reinforcement "
            "learning from a novel perspective by setting constraints directly on state density "
            "functions. It works.",
            "Constrained reinforcement learning from a novel perspective by setting constraints…",
        ),
    ],
)
def test_title_leaves_out_praise_for_its_subject(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_a_short_head_keeps_its_clause_without_a_comma() -> None:
    abstract = (
        "We study Bayesian optimization (BO) in high-dimensional and non-stationary scenarios. "
        "We propose a framework, called BALLET, which adaptively filters for a high-confidence "
        "region of interest (ROI) as a superlevel-set of a nonparametric probabilistic model. "
        "BALLET is easy to tune. We show that BALLET works."
    )
    assert find_method(abstract) == "BALLET"
    assert derive_title(abstract, "BALLET") == (
        "BALLET: A framework which adaptively filters for a high-confidence region of interest…"
    )


# Real abstracts (ICML 2020-23) that name their method in a sentence with no contribution verb
# ("we implement the anchor view, termed SEGA"), under a first sentence about the field: the title
# was "SEGA: In contrastive learning, the choice of "view" controls the information…".
_NAMED_IN_A_LATER_SENTENCE = [
    (
        'In contrastive learning, the choice of "view" controls the information that the '
        "representation captures and influences the performance of the model. However, "
        "leading graph contrastive learning methods generally produce views via random "
        "corruption or learning, which could lead to the loss of essential information and "
        "alteration of semantic information. An anchor view that maintains the essential "
        "information of input graphs for contrastive learning has been hardly investigated. "
        "In this paper, based on the theory of graph information bottleneck, we deduce the "
        "definition of this anchor view; put differently, the anchor view with essential "
        "information of input graph is supposed to have the minimal structural uncertainty. "
        "Furthermore, guided by structural entropy, we implement the anchor view, termed "
        "SEGA, for graph contrastive learning. We extensively validate the proposed anchor "
        "view on various benchmarks regarding graph classification under unsupervised, "
        "semi-supervised, and transfer learning and achieve significant performance boosts "
        "compared to the state-of-the-art methods.",
        "SEGA: The anchor view for graph contrastive learning",
    ),
    (  # "..., resulting in a new method named X": what the paper did to make it
        "Semi-supervised learning (SSL) has been widely explored in recent years, and it is "
        "an effective way of leveraging unlabeled data to reduce the reliance on labeled data. "
        "In this work, we adjust neural processes (NPs) to the semi-supervised image "
        "classification task, resulting in a new method named NP-Match. NP-Match is suited "
        "to this task for two reasons.",
        "NP-Match: Adjusting neural processes (NPs) to the semi-supervised image classification…",
    ),
]


@pytest.mark.parametrize(("abstract", "title"), _NAMED_IN_A_LATER_SENTENCE)
def test_a_method_named_in_a_later_sentence_is_titled_by_that_sentence(
    abstract: str, title: str
) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_a_name_after_a_semicolon_does_not_name_what_precedes_it() -> None:
    # "... based on the information acquired so far; dubbed Active-DPS": Active-DPS is no
    # "information acquired so far" (a guard)
    abstract = (
        "Subsampling a signal of interest can reduce costly data transfer, battery drain, "
        "radiation exposure and acquisition time in a wide range of problems. The recently "
        "proposed Deep Probabilistic Subsampling (DPS) method effectively integrates "
        "subsampling in an end-to-end deep learning model, but learns a static pattern for "
        "all datapoints. We generalize DPS to a sequential method that actively picks the "
        "next sample based on the information acquired so far; dubbed Active-DPS (A-DPS). We "
        "validate that A-DPS improves over DPS for MNIST classification at high subsampling "
        "rates. Moreover, we demonstrate strong performance in active acquisition Magnetic "
        "Resonance Image (MRI) reconstruction, outperforming DPS and other deep learning "
        "methods."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title.startswith("Active-DPS: Generalizing DPS to a sequential method")


# Real abstracts (ICML 2020-23): "we propose X." names nothing more; the next sentence, led by X or
# "It", says what X does. Before, the title was "X: " and the first sentence, about the field.
_PROPOSED_THEN_SAID = [
    (
        "The safe operation of physical systems typically relies on high-quality models. Due to "
        "its high computational complexity, Gaussian process regression must be used offline on "
        "batches of data, which prevents applications, where a fast adaptation through online "
        "learning is necessary to ensure safety. In order to overcome this issue, we propose the "
        "LoG-GP. It achieves a logarithmic update and prediction complexity in the number of "
        "training points through the aggregation of locally active Gaussian process models. "
        "Under weak assumptions on the aggregation scheme, it inherits safety guarantees from "
        "exact Gaussian process regression.",
        "LoG-GP: Achieving a logarithmic update and prediction complexity in the number…",
    ),
    (  # a parenthesis with one inside it ("SE(3)") is an aside too, left out
        "Molecule pretraining has quickly become the go-to schema to boost the performance of "
        "AI-based drug discovery. Meanwhile, existing molecule multi-modal pretraining approaches "
        "approximate MI based on the representation space encoded from the topology and "
        "geometry, thus resulting in the loss of critical structural information of molecules. "
        "To address this issue, we propose MoleculeSDE. MoleculeSDE leverages group symmetric "
        "(e.g., SE(3)-equivariant and reflection-antisymmetric) stochastic differential equation "
        "models to generate the 3D geometries from 2D topologies, and vice versa, directly in the "
        "input space. It not only obtains tighter MI bound but also enables prosperous downstream "
        "tasks than the previous work.",
        "MoleculeSDE: Leveraging group symmetric stochastic differential equation models…",
    ),
]


@pytest.mark.parametrize(("abstract", "title"), _PROPOSED_THEN_SAID)
def test_a_bare_name_proposed_is_titled_by_the_next_sentence(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


# Real abstracts (ICML 2020-23) that say in the passive what they propose: before, the title was
# the first sentence ("Model-free reinforcement learning is known to be memory and computation…").
_PROPOSED_IN_THE_PASSIVE = [
    (
        "Model-free reinforcement learning is known to be memory and computation efficient and "
        "more amendable to large scale problems. In this paper, two model-free algorithms are "
        "introduced for learning infinite-horizon average-reward Markov Decision Processes "
        "(MDPs). The first algorithm reduces the problem to the discounted-reward version and "
        "achieves $\\mathcal{O}(T^{2/3})$ regret after $T$ steps, under the minimal assumption "
        "of weakly communicating MDPs.",
        "Two model-free algorithms for learning infinite-horizon average-reward Markov Decision…",
    ),
    (
        "Obtaining a useful estimate of an object from highly incomplete imaging measurements "
        "remains a holy grail of imaging science. Deep learning methods have shown promise in "
        "learning object priors or constraints to improve the conditioning of an ill-posed "
        "imaging inverse problem. In this study, a framework for estimating an object of "
        "interest that is semantically related to a known prior image, is proposed. An "
        "optimization problem is formulated in the disentangled latent space of a style-based "
        "generative model.",
        "A framework for estimating an object of interest that is semantically related to a known…",
    ),
]


@pytest.mark.parametrize(("abstract", "title"), _PROPOSED_IN_THE_PASSIVE)
def test_what_is_proposed_in_the_passive_is_the_title(abstract: str, title: str) -> None:
    assert derive_title(abstract, find_method(abstract)) == title


def test_a_passive_sentence_that_points_back_is_no_title() -> None:
    # "this approach is proposed" names nothing: the first sentence stays (a guard)
    abstract = (
        "Deep learning methods have shown promise in learning object priors for imaging. In this "
        "study, this approach is proposed for reconstruction of images. Experiments follow."
    )
    assert derive_title(abstract, find_method(abstract)).startswith("Deep learning methods")


def test_what_the_paper_opts_to_do_is_its_title() -> None:
    # a real abstract (ICML 2020-23): "we opt to learn X" reads as "we learn X"; before, the title
    # was the first sentence ("Recent architectures for object detection adopt a Feature…")
    abstract = (
        "Recent architectures for object detection adopt a Feature Pyramid Network as a backbone "
        "for deep feature extraction. Many works focus on the design of pyramid networks which "
        "produce richer feature representations. In this work, we opt to learn a "
        "dataset-specific architecture for Feature Pyramid Networks. With the proposed method, "
        "the network fuses features at multiple scales."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title == "Learning a dataset-specific architecture for Feature Pyramid Networks"


# Real abstracts (ICML 2020-23) whose made-up titles lost what their maths show: the font of
# "ℝᵈ", the braces of an exponent (K^{2/3} read K²/3), a script glued to a name.
_HALFSPACES = (
    "We study {\\em online} active learning of homogeneous halfspaces in $\\mathbb{R}^d$ with "
    "adversarial noise where the overall probability of a noisy label is constrained to be at "
    "most $\\nu$. Our main contribution is a Perceptron-like online active learning algorithm "
    "that runs in polynomial time."
)
_MARKOV_GAMES = (
    "We study online learning in unknown Markov games, a problem that arises in episodic "
    "multi-agent reinforcement learning where the actions of the opponents are unobservable. We "
    "then consider a weaker notion of regret by competing with the \\emph{minimax value} of the "
    "game, and present an algorithm that achieves a sublinear $\\tilde{\\mathcal{O}}(K^{2/3})$ "
    "regret after $K$ episodes. This is the first sublinear regret bound for online learning in "
    "unknown Markov games."
)
_NOTE_EM = (
    "Automatic music transcription is hard without aligned data. We present Note$_{EM}$, a "
    "method for simultaneously training a transcriber and aligning the scores to their "
    "corresponding performances, in a fully-automated process."
)


@pytest.mark.parametrize(
    ("abstract", "title", "shown"),
    [
        (
            _HALFSPACES,
            "Online active learning of homogeneous halfspaces in $\\mathbb{R}^d$ with adversarial "
            "noise",
            "Online active learning of homogeneous halfspaces in ℝᵈ with adversarial noise",
        ),
        (
            _MARKOV_GAMES,
            "An algorithm that achieves a sublinear $\\tilde{\\mathcal{O}}(K^{2/3})$ regret after "
            "K episodes",
            "An algorithm that achieves a sublinear 𝒪̃(K^(2/3)) regret after K episodes",
        ),
        (
            _NOTE_EM,
            "Note$_{EM}$, a method for simultaneously training a transcriber and aligning the "
            "scores…",
            "Note_(EM), a method for simultaneously training a transcriber and aligning the "
            "scores…",
        ),
    ],
)
def test_a_made_up_title_keeps_its_maths_as_the_abstract_writes_them(
    abstract: str, title: str, shown: str
) -> None:
    made_up = derive_title(abstract, find_method(abstract))
    assert made_up == title
    assert display_title(made_up, made_up=True) == shown
    # as the abstract reads (past the first word, which the title capitalised)
    assert shown.removesuffix("…").split(" ", 1)[1] in render_abstract(abstract).text
    assert method_and_titles(abstract)[1] == title


def test_a_title_cut_inside_a_math_is_cut_before_it() -> None:
    # a real abstract (ICML 2020-23): the cut left "of the form min_xmax_y langle…"
    abstract = (
        "We consider a class of convex-concave saddle-point problems of the form "
        "$\\min_x\\max_y \\langle Kx,y\\rangle+f_{\\cal P}(x)-h^*(y)$ where $K$ is a linear "
        "operator, $f_{\\cal P}$ is the sum of a convex function and a proximal-friendly "
        "function, and $h^*$ is a convex function."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title == "A class of convex-concave saddle-point problems of the form…"


def test_a_word_like_the_maths_text_elsewhere_in_the_title_stays_a_word() -> None:
    # "D" of "D-Struct" is not the abstract's $\mathcal{D}$, which stands elsewhere
    abstract = (
        "We propose D-Struct, a method that recovers the structure of a dataset $\\mathcal{D}$ "
        "from its samples. D-Struct recovers graphs faster than prior work on every benchmark."
    )
    title = derive_title(abstract, find_method(abstract))
    assert title.startswith("D-Struct") and "\\mathcal" in title.split(" ", 1)[1], title
