"""The core and the CLI never import Textual, so scripting starts fast."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import paperdeck

PACKAGE = Path(paperdeck.__file__).parent


def _is_ui(name: str) -> bool:
    source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    return "from textual" in source or "import textual" in source


def test_core_modules_import_no_textual() -> None:
    core = sorted(
        path.stem
        for path in PACKAGE.glob("*.py")
        if path.stem not in {"__main__"} and not _is_ui(path.stem)
    )
    assert "library" in core and "cli" in core
    code = (
        "import sys\n"
        + "".join(f"import paperdeck.{name}\n" for name in core)
        + "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        + "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"core imported textual: {result.stdout}"


def test_cli_commands_do_not_import_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from paperdeck.cli import main\n"
        f"main(['list', '--notes', {str(tmp_path / 'n.json')!r}])\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN', file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().endswith("CLEAN")
