"""A missing author's stand-in, as CSL says: never the proceedings' editors, and shown once."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

SUBSTITUTE_RENDER_CALLS = (
    "getchildren",
    "isinstance",
    "Names",
    "name",
    "xpath_search",
    "render",
    "VariableError",
    "add_to_repressed_list",
    "NameError",
)
"""What citeproc-py 0.11.1's own `Substitute.render` calls: the patch replaces that body."""

_PARTS_OF_AN_EDITED_WORK = frozenset({"paper-conference", "chapter"})
# The editors of a paper's proceedings are the container's (CSL 1.0.2 has one `editor`
# variable for both), so they never stand in for the paper's missing authors: while a
# stand-in for its creators is looked for, the paper has no editors (citeproc-py's names).
_CONTAINER_EDITORS = ("editor", "editor_translator", "collection_editor")
_CREATORS = frozenset({"author", "composer"})


@lru_cache(maxsize=1)
def substitute_as_csl_says() -> bool:
    """Patch citeproc-py once per process so that a `<substitute>` follows CSL 1.0.2:

    - what stands in for a missing author is not repeated later in the entry ("Substituted
      variables are suppressed in the rest of the output"): citeproc-py suppressed only a
      variable named on the substitute's own child, so APA, whose last stand-in is a macro
      giving the title, printed an author-less paper's title twice;
    - a paper in proceedings is not credited to the proceedings' editors: with no authors,
      APA, IEEE and Chicago put the editors, "(Eds.)", where the paper's authors go.

    True when it patched; a `Substitute.render` that no longer calls what 0.11.1's does is
    left alone.
    """
    from citeproc import model

    code = getattr(model.Substitute.render, "__code__", None)
    if code is None or code.co_names != SUBSTITUTE_RENDER_CALLS:
        return False
    read_variable = model.Text._variable

    def _variable(self: Any, item: Any, context: Any) -> Any:
        text = read_variable(self, item, context)
        shown = getattr(context.get_layout(), "paperdeck_substituted", None)
        if shown is not None and text:
            shown.append((self.tag, self.get("variable")))
        return text

    def render(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
        reference = item.reference
        stands_for = set(str(self.getparent().get("variable", "")).split())
        hidden = {}
        if stands_for & _CREATORS and str(reference.get("type", "")) in _PARTS_OF_AN_EDITED_WORK:
            hidden = {key: reference.pop(key) for key in _CONTAINER_EDITORS if key in reference}
        try:
            return _first_stand_in(self, item, context, **kwargs)
        finally:
            reference.update(hidden)

    def _first_stand_in(self: Any, item: Any, context: Any, **kwargs: Any) -> Any:
        layout = context.get_layout()
        for child in self.getchildren():
            outer = getattr(layout, "paperdeck_substituted", None)
            shown: list[tuple[str, str]] = []
            layout.paperdeck_substituted = shown
            try:
                if isinstance(child, model.Names) and child.name is None:
                    names = self.xpath_search("./parent::cs:names[1]")[0]
                    text = child.render(item, names_context=names, context=context, **kwargs)
                else:
                    text = child.render(item, context=context, **kwargs)
            except model.VariableError:
                continue
            finally:
                layout.paperdeck_substituted = outer
            if text:
                self.add_to_repressed_list(child, context)
                for tag, variable in shown:
                    layout.repressed.setdefault(tag, []).append(variable)
                if outer is not None:
                    outer.extend(shown)
                return text
        return None

    model.Text._variable = _variable
    model.Substitute.render = render
    return True
