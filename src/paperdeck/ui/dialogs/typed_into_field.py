"""A key typed while a dialog's list has the focus goes on in the dialog's text field."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


def type_into(field: Input, event: events.Key) -> None:
    """Put a printable key or Backspace typed in a list into `field`, and focus it: the user
    types a name, the list only follows. Other keys are left to the list."""
    character = event.character
    if event.key == "backspace" and field.value:
        value = field.value[:-1]
    elif character is not None and character.isprintable() and (character != " " or field.value):
        # Appended, not set: keys that come before the focus moves go on after the others.
        value = field.value + character
    else:
        return
    event.stop()
    event.prevent_default()
    field.value = value
    field.cursor_position = len(value)
    field.focus()
