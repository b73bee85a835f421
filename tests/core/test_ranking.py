"""A ranking whose tail is put in order when first read."""

from __future__ import annotations

from paperdeck.core.search.ranking import Ranking


def _lazy(calls: list[int]) -> Ranking[int]:
    def rest() -> list[int]:
        calls.append(1)
        return [7, 8, 9]

    return Ranking([1, 2, 3], 6, rest)


def test_the_head_is_read_without_ordering_the_rest() -> None:
    calls: list[int] = []
    ranking = _lazy(calls)
    assert len(ranking) == 6
    assert ranking[0] == 1 and ranking[2] == 3
    assert ranking[:3] == [1, 2, 3]
    assert ranking.head == [1, 2, 3]
    assert calls == []


def test_reading_below_the_head_orders_the_rest_once() -> None:
    calls: list[int] = []
    ranking = _lazy(calls)
    assert ranking[4] == 8
    assert ranking[-1] == 9
    assert list(ranking) == [1, 2, 3, 7, 8, 9]
    assert ranking.index(9) == 5
    assert 8 in ranking
    assert ranking == [1, 2, 3, 7, 8, 9]
    assert calls == [1]


def test_a_new_head_and_papers_before_keep_the_rest_lazy() -> None:
    calls: list[int] = []
    ranking = _lazy(calls).with_head([3, 1]).after([0])
    assert len(ranking) == 7
    assert ranking[:4] == [0, 3, 1, 3]
    assert calls == []
    assert list(ranking) == [0, 3, 1, 3, 7, 8, 9]
    assert ranking == Ranking([0, 3, 1, 3, 7, 8, 9], 7, None)
    assert ranking != [0]


def test_a_ranking_after_another_not_yet_in_order_orders_both_when_read_past_its_head() -> None:
    first_calls: list[int] = []
    second_calls: list[int] = []

    def first_rest() -> list[int]:
        first_calls.append(1)
        return [4, 5]

    def second_rest() -> list[int]:
        second_calls.append(1)
        return [9]

    first = Ranking([1, 2, 3], 5, first_rest)
    joined = Ranking([7, 8], 3, second_rest).after(first)
    assert len(joined) == 8
    assert joined[:3] == [1, 2, 3] and first_calls == [] and second_calls == []
    assert list(joined) == [1, 2, 3, 4, 5, 7, 8, 9]
    assert joined[5] == 7 and first_calls == [1] and second_calls == [1]
    in_order = Ranking([7], 1, None).after(Ranking([1, 2], 2, None))
    assert in_order == [1, 2, 7] and in_order.head == [1, 2, 7]
