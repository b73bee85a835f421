"""JSON from untrusted files: nesting and number sizes that break the json module, refused."""

from __future__ import annotations

import json
from typing import Any


class JsonTooComplex(ValueError):
    """Valid JSON that cannot be read: nested too deeply, or a number too long."""


def load_json(data: str | bytes, *, strict: bool = True) -> Any:
    """json.loads, raising JsonTooComplex (one line) where json.loads gives up otherwise.

    JSONDecodeError and UnicodeDecodeError pass through as they are. Deep nesting makes the
    json module's scanner recurse until RecursionError; an integer of more than 4,300 digits
    raises a plain ValueError (Python's guard against quadratic int parsing).
    """
    try:
        return json.loads(data, strict=strict)
    except RecursionError:
        raise JsonTooComplex("nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:
        raise JsonTooComplex("holds a number too long to read") from None
