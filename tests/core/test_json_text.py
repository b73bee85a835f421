"""The commands' JSON text: the same as json.dumps with indent=2, whatever the value."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from paperdeck.core.text.json_text import indented

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=2)
    ),
    max_leaves=20,
)


@given(_VALUES, st.integers(0, 3))
def test_indented_text_is_json_dumps_text(value: object, level: int) -> None:
    expected = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * level)
    assert indented(value, level) == expected


def test_a_paper_row_reads_back_as_it_was() -> None:
    row = {"title": 'A "quoted" \u2028 title\n', "authors": ["Ada", "Bo"], "links": [], "x": {}}
    assert json.loads(indented(row)) == row
    assert indented(row, 1).count("\n      ") == 2  # the authors, two levels in
