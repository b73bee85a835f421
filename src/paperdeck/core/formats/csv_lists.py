"""CSV and TSV lists of papers with a header row."""

from __future__ import annotations

import csv
import io

from paperdeck.core.formats.decoding import Decoder
from paperdeck.core.formats.raw_list import RawList
from paperdeck.core.formats.records import record_from


def csv_delimiter(header_line: str) -> str | None:
    """The delimiter that splits a header row into columns naming paper fields."""
    for delimiter in ("\t", ",", ";"):
        if delimiter not in header_line:
            continue
        names = {cell.strip().strip('"').lower() for cell in header_line.split(delimiter)}
        if names & {"title", "abstract"}:
            return delimiter
    return None


def read_csv(raw: RawList, data: bytes) -> None:
    decode = Decoder()
    text = decode(data)
    header_line = text.split("\n", 1)[0]
    default = "\t" if raw.path.suffix.lower() == ".tsv" else ","
    delimiter = csv_delimiter(header_line) or default
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:
            # DictReader copies line_num only after a row reads: its own is a row behind.
            raw.warnings.append(f"{raw.path}:{reader.reader.line_num}: {error}; skipped")
            continue
        where = f"{raw.path}:{reader.line_num}"
        extra = row.pop(None, None)
        if extra:
            raw.warnings.append(f"{where}: more fields than columns; extra fields dropped")
        values = {key: value for key, value in row.items() if value is not None}
        record = record_from(values, where, raw.warnings)
        if record is not None:
            raw.records.append(record)
    decode.warn(raw)
