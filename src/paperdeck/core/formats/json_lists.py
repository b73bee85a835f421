"""JSON Lines and JSON lists of papers."""

from __future__ import annotations

import json
from typing import Any

from paperdeck.core.errors import LoadError
from paperdeck.core.formats.decoding import Decoder
from paperdeck.core.formats.raw_list import RawList
from paperdeck.core.formats.records import names_a_paper, record_from
from paperdeck.core.plumbing.safe_json import JsonTooComplex, load_json


def read_jsonl(raw: RawList, data: bytes) -> None:
    decode = Decoder()
    text = decode.raw_text(data)
    if text.lstrip().startswith("["):
        # A JSON array saved under a .jsonl name.
        _read_json_text(raw, text)
        decode.warn(raw)
        return
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line:
            continue
        where = f"{raw.path}:{number}"
        try:
            obj = load_json(line, strict=False)
        except ValueError:
            raw.warnings.append(f"{where}: not valid JSON; skipped")
            continue
        if not isinstance(obj, dict):
            raw.warnings.append(f"{where}: not a JSON object; skipped")
            continue
        record = record_from(obj, where, raw.warnings)
        if record is not None:
            raw.records.append(record)
    decode.warn(raw)


def read_json(raw: RawList, data: bytes) -> None:
    decode = Decoder()
    _read_json_text(raw, decode.raw_text(data))
    decode.warn(raw)


_WRAPPER_KEYS = ("papers", "records", "items", "entries", "data", "results")


def _read_json_text(raw: RawList, text: str) -> None:
    if not text.strip():
        return
    try:
        document = load_json(text, strict=False)
    except json.JSONDecodeError as error:
        message = f"{raw.path}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
        raise LoadError(message) from None
    except JsonTooComplex as error:
        raise LoadError(f"{raw.path}: {error}") from None
    items = _json_items(document)
    if items is None or (items and not any(isinstance(item, dict) for item in items)):
        raise LoadError(f"{raw.path}: expected a JSON array of objects")
    for number, item in enumerate(items, start=1):
        where = f"{raw.path}: item {number}"
        if not isinstance(item, dict):
            raw.warnings.append(f"{where}: not a JSON object; skipped")
            continue
        record = record_from(item, where, raw.warnings)
        if record is not None:
            raw.records.append(record)


def _json_items(document: Any) -> list[Any] | None:
    if isinstance(document, list):
        return document
    if not isinstance(document, dict):
        return None
    if names_a_paper(document):
        return [document]
    lists = {key: value for key, value in document.items() if isinstance(value, list)}
    for key in _WRAPPER_KEYS:
        if key in lists:
            return lists[key]
    with_objects = [v for v in lists.values() if any(isinstance(item, dict) for item in v)]
    return with_objects[0] if len(with_objects) == 1 else None
