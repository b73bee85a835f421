"""A title's case: which words are names, and the sentence case APA 7 writes titles in."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

_WORD = re.compile(r"[^\W_]+")
# What ends a title's part, after which APA capitalises the next word: a colon, a question
# or an exclamation, a full stop, an em dash ("—", "---", or a spaced " -- " or " – ";
# "Wang--Landau" is a name).
_PART_END = re.compile(r"(?:[:?!.]|—|---|\s--|\s–)\s*[“‘\"'(\[]?$")
# What may open a title before its first word: a quotation or a bracket ("“Hey, that's not
# an ODE”: Faster ..." keeps its "Hey").
_OPENERS = " \t“‘\"'([«"
# A full stop that ends an abbreviation, not a part: "Noise, e.g. label flips" (after "St." or
# "Dr." a name follows, which keeps its capital either way).
_ABBREVIATION_END = re.compile(r"\b(?:e\.g|i\.e|vs|cf|etc|al|approx|resp)\.\s*$")


@lru_cache(maxsize=1)
def _proper_nouns() -> frozenset[str]:
    source = resources.files("paperdeck.core.citations").joinpath("proper_nouns.txt")
    lines = source.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def is_proper_noun(word: str) -> bool:
    """Whether a capitalised `word` is a name that keeps its capital in any case: "Bayesian",
    "Gaussians", "Nyström", "English" (not "Learning")."""
    if not word[:1].isupper():
        return False
    from anyascii import anyascii

    folded = anyascii(word).lower()
    names = _proper_nouns()
    # A plural only of a word made from a name ("Gaussians", "Hamiltonians"): "Lies" is a
    # verb, not Lie's groups.
    return folded in names or (folded.endswith(_NAMED_PLURALS) and folded[:-1] in names)


_NAMED_PLURALS = ("ians", "eans")


_COMPOUND = re.compile(r"[^\W_]+(?:(?:--?|–)[^\W_]+)+")
# Two capitalised words an en dash joins are two people's names ("Wang--Landau").
_EN_DASHED = re.compile(r"\b[A-Z][^\W_]*(?<!-)(?:--|–)(?!-)(?=[A-Z])")


def named_compound_starts(text: str, context: str = "") -> frozenset[int]:
    """Where the capitalised words of a name made of several start: a hyphenated one with a
    known proper noun in it (the lexicon has "Moreau" but not "Yosida", and "Moreau-Yosida"
    is one name) or two capitalised words an en dash joins ("Wang--Landau"), unless the
    paper's `context` (its abstract) writes one of them in lower case: then they are common
    words an en dash joins ("Fat–Tailed", the abstract's "fat-tailed"; "Vision–Language")."""
    starts: set[int] = set()
    for found in _EN_DASHED.finditer(text):
        pair = [_WORD.match(text, at) for at in (found.start(), found.end())]
        words = [match.group(0) for match in pair if match is not None]
        if not any(map(is_proper_noun, words)) and any(_written_lower(w, context) for w in words):
            continue
        starts.update((found.start(), found.end()))
    for compound in _COMPOUND.finditer(text):
        parts = list(_WORD.finditer(compound.group(0)))
        if any(is_proper_noun(part.group(0)) for part in parts):
            starts.update(
                compound.start() + part.start() for part in parts if part.group(0)[0].isupper()
            )
    return frozenset(starts)


def _written_lower(word: str, context: str) -> bool:
    """Whether `context` has `word` in lower case, as a word of its own."""
    lower = word.lower()
    if lower == word or lower not in context:
        return False
    return re.search(rf"(?<![^\W_]){re.escape(lower)}(?![^\W_])", context) is not None


def is_sentence_case(words: list[str]) -> bool:
    """Whether a title's words read as sentence case: most long words past the first are
    lower-case, so a capital there marks a name ("Markov") a style must keep."""
    long_words = [word for word in words[1:] if len(word) >= 4 and word[0].isalpha()]
    if len(long_words) < 3:
        return False
    lower = sum(1 for word in long_words if word[0].islower())
    return lower >= 0.6 * len(long_words)


def keeps_capitals(word: str, kept: frozenset[str] = frozenset()) -> bool:
    """Whether a word is written as it is in any case: an acronym or a name with inner capitals
    or digits ("GPT", "ReLU", "S3Audio"), one of `kept` (the method's words), or a proper
    noun."""
    if any(char.isupper() or char.isdigit() for char in word[1:]):
        return True
    return word in kept or is_proper_noun(word)


def method_words(method: str | None) -> frozenset[str]:
    """The words of a method's name that have a capital, wherever a title has them: a name of
    one word ("BubbleSpec", "Perceiver"), and a word with capitals inside ("CoEvol"). A
    name's other words are kept only where the title names the method (method_starts)."""
    words = _WORD.findall(method or "")
    return frozenset(
        word
        for word in words
        if any(c.isupper() for c in word[1:]) or (word[0].isupper() and len(words) == 1)
    )


def method_starts(text: str, method: str | None) -> frozenset[int]:
    """Where the capitalised words of a method's name of several words start in `text`, each
    time it names the method whole: "Hibiki-Zero: ..." keeps "Zero", but the "Loss" of
    "BLL-Loss" is an English word in "Bounded Log-Likelihood Loss for ...", and
    "Seizure-Semiology-Suite(S3): ... for Seizure Semiology Understanding" lowers the last
    two."""
    if not method or method not in text or len(_WORD.findall(method)) < 2:
        return frozenset()
    starts: set[int] = set()
    for found in re.finditer(rf"(?<![^\W_]){re.escape(method)}(?![^\W_])", text):
        starts.update(
            found.start() + word.start()
            for word in _WORD.finditer(found.group(0))
            if word.group(0)[0].isupper()
        )
    return frozenset(starts)


def sentence_case(
    title: str, *, method: str | None = None, context: str = "", subtitles: bool = True
) -> str:
    """A plain-text title in sentence case, as APA 7 writes it: the first word of the title
    as given, of each later part (after a colon, ?, ! or an em dash) capitalised, names,
    acronyms and the method kept, every other capitalised word lowered ("Multi-Adapter
    Representation Interventions" -> "Multi-adapter representation interventions"). In a title
    already in sentence case only the parts' first words change: its other capitals are its
    authors' names for things. `context` is the paper's abstract (see named_compound_starts).
    Without `subtitles` a part after a colon or a dash is not capitalised either, as Nature
    and the NLM (Vancouver) write titles ("Hypertension in pregnancy: a review"); one after a
    question or an exclamation still is: it starts a sentence."""
    lower_words = not is_sentence_case(_WORD.findall(title))
    kept = method_words(method)
    named = (
        named_compound_starts(title, context) | method_starts(title, method)
        if lower_words
        else frozenset()
    )
    written = ""
    position = 0
    for match in _WORD.finditer(title):
        written += title[position : match.start()]
        word = match.group(0)
        position = match.end()
        if not written.strip(_OPENERS):
            written += word
        elif (
            _PART_END.search(written) is not None
            and not _ABBREVIATION_END.search(written)
            and (subtitles or written.rstrip()[-1:] in ("?", "!", "."))
        ):
            # "…: linear Markov games" -> "…: Linear Markov games"; "k-means" stays.
            plain = word.isalpha() and word.islower() and (len(word) > 1 or word == "a")
            written += word[0].upper() + word[1:] if plain else word
        elif not lower_words or not word[0].isupper() or keeps_capitals(word, kept):
            written += word
        elif match.start() in named:
            written += word  # "Moreau-Yosida", "Navier-Stokes", the method's name
        elif len(word) == 1 and not (word == "A" and _stands_alone(title, match)):
            written += word  # a variable ("Matrix K"), a Roman "I", the A of "Q&A"
        else:
            written += word.lower()
    return written + title[position:]


def _stands_alone(title: str, match: re.Match[str]) -> bool:
    """Whether a word has a space (or the title's end) on each side: the article "A"."""
    before = title[match.start() - 1 : match.start()]
    after = title[match.end() : match.end() + 1]
    return before.isspace() and (not after or after.isspace())
