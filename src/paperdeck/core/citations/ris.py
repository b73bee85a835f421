"""RIS records (the 2011 specification): CRLF line ends, editors under A2, names in parts."""

from __future__ import annotations

from paperdeck.core.citations.record import Record
from paperdeck.core.names import PersonName
from paperdeck.core.text.sanitize import clean_line

LINE_END = "\r\n"
"""The specification ends every line with CR LF."""


def ris_name(name: PersonName) -> str:
    """ "Family, Given, Suffix" ("de Hoop, Maarten"); a literal name as it is."""
    if name.literal:
        return name.literal
    return ", ".join(part for part in (name.full_family, name.given, name.suffix) if part)


def ris_record(record: Record) -> str:
    """One record, from TY to ER, each line ended by CR LF."""
    lines: list[tuple[str, str]] = [("TY", "CPAPER" if record.is_proceedings else "GEN")]
    lines.append(("TI", record.cited_title))
    lines.extend(("AU", ris_name(name)) for name in record.authors if name.literal != "et al.")
    if record.year:
        lines.append(("PY", str(record.year)))
    edition = record.edition
    if record.booktitle:
        lines.append(("T2", record.booktitle))
    if edition is not None:
        # A2 is the 2011 specification's secondary author, where readers look for editors.
        lines.extend(("A2", ris_name(name)) for name in edition.editors)
        if edition.series:
            lines.append(("T3", edition.series))
        if edition.volume:
            lines.append(("VL", edition.volume))
    if record.pages:
        lines.append(("SP", record.pages[0]))
        if record.pages[1] != record.pages[0]:
            lines.append(("EP", record.pages[1]))
    if edition is not None and edition.publisher:
        lines.append(("PB", edition.publisher))
    if record.doi:
        lines.append(("DO", record.doi))
    if record.url:
        lines.append(("UR", record.url))
    if record.pdf:
        lines.append(("L1", record.pdf))
    lines.append(("ID", record.key))
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {clean_line(value)}".rstrip() + LINE_END for tag, value in lines)
