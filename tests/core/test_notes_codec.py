"""The notes file codec: its fast reading path agrees with the careful one."""

from __future__ import annotations

import json


def test_every_character_sanitising_changes_sends_a_file_the_careful_way() -> None:
    import unicodedata

    from paperdeck.core.notes import codec as notes
    from paperdeck.core.text.sanitize import clean_text

    caught = 0
    for code in range(0x110000):
        text = f"a{chr(code)}b"
        if clean_text(text) == text or unicodedata.normalize("NFC", text) != text:
            continue
        document = json.dumps({"version": 1, "papers": {"abcd1234": {"note": text}}})
        raw = json.dumps(json.loads(document), ensure_ascii=False).encode("utf-8", "surrogatepass")
        assert not notes._is_plain(raw), hex(code)  # raw in the file
        assert not notes._is_plain(document.encode()), hex(code)  # or as a \u escape
        caught += 1
    assert caught > 2000
    latex = json.dumps({"note": "$\\beta + \\rho \\frac{1}{2} \\u$ é 中文"}, ensure_ascii=False)
    assert notes._is_plain(latex.encode())
