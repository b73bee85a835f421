"""The layering holds: a headless core, and import-linter contracts that fail when it breaks."""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import paperdeck.core

ROOT = Path(__file__).resolve().parents[1]


def _core_modules() -> list[str]:
    found = pkgutil.walk_packages(paperdeck.core.__path__, prefix="paperdeck.core.")
    return sorted(module.name for module in found)


def test_every_core_module_imports_without_textual_or_rich() -> None:
    modules = _core_modules()
    assert {"paperdeck.core.library", "paperdeck.core.search.index"} <= set(modules)
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in modules)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        + "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"the core loaded: {result.stdout}"


def test_cli_commands_do_not_import_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from paperdeck.cli.main import main\n"
        f"main(['list', '--notes', {str(tmp_path / 'n.json')!r}])\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN', file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().endswith("CLEAN")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if command is None:
        pytest.skip("import-linter is not installed")
    return subprocess.run(
        [command, "--config", str(ROOT / "pyproject.toml")],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
    )


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken" in result.stdout


def test_the_import_contracts_fail_when_the_core_imports_textual(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src", tmp_path / "src")
    broken = tmp_path / "src" / "paperdeck" / "core" / "search" / "query.py"
    broken.write_text(broken.read_text(encoding="utf-8") + "\nimport textual\n", encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert "paperdeck.core.search.query -> textual" in result.stdout
