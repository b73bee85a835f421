"""Why a search found nothing: a filter on what no paper of the list has, else the query."""

from __future__ import annotations

from paperdeck.core.model import Paper
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.search.nothing import nothing_found, why_nothing
from paperdeck.core.search.query import parse_query


def _papers(**extra: object) -> list[Paper]:
    return [
        Paper(
            id=f"0000000{n}", position=n + 1, list_name="t", title=f"Kernel paper {n}",
            title_derived=False, abstract="Kernels and more.", **extra,  # type: ignore[arg-type]
        )
        for n in range(3)
    ]  # fmt: skip


def test_a_filter_on_what_no_paper_has_is_named() -> None:
    bare = SearchIndex(_papers()).word_index
    said = nothing_found(bare, parse_query("kernel year:2021"))
    assert said == "no paper in this list has a year (year:2021 matches nothing)"
    either = nothing_found(bare, parse_query("year:2020..2023 | venue:neurips"))
    assert either == (
        "no paper in this list has a year or a venue (year:2020..2023 | venue:neurips matches "
        "nothing)"
    )
    assert why_nothing(bare, parse_query("author:smith")) == "no paper in this list has authors"
    # Leaving out what no paper has is no reason; nor is an alternative a paper may pass.
    assert (
        nothing_found(bare, parse_query("zzqq !year:2021")) == "no paper matches 'zzqq !year:2021'"
    )
    assert why_nothing(bare, parse_query("year:2021 | zzqq")) is None


def test_a_list_with_the_field_is_not_blamed() -> None:
    dated = SearchIndex(_papers(year=2024, venue="ICML", authors=("Ada Lovelace",))).word_index
    for query in ("year:2021", "venue:neurips", "author:smith"):
        assert nothing_found(dated, parse_query(query)) == f"no paper matches {query!r}"
