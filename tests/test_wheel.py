"""A non-editable install finds its seeds and styles from any directory."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_and_runs_from_another_directory(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(dist),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next(dist.glob("paperdeck-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir)
    python = env_dir / "bin" / "python"
    # The dependencies come from this test's environment (a path in a .pth file: the .pth files
    # there, this checkout's editable install among them, are not read), so that the wheel alone
    # is installed, not every dependency fetched and unpacked afresh.
    (site_packages,) = (env_dir / "lib").glob("python3*/site-packages")
    (site_packages / "_test_dependencies.pth").write_text(
        "\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n", encoding="utf-8"
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         str(wheel)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [str(env_dir / "bin" / "paperdeck"), "list", "--notes", str(tmp_path / "notes.json")],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 19
    # The citation data ships too: venues.json, paperdeck's text.csl, and the CSL styles package.
    for style, start in (("text", "Jonas Hübotter, "), ("apa", "Hübotter, J., ")):
        cited = subprocess.run(
            [str(env_dir / "bin" / "paperdeck"), "cite", "16", "--style", style, "--notes",
             str(tmp_path / "notes.json")],
            cwd=elsewhere, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert cited.returncode == 0, cited.stderr
        assert cited.stdout.startswith(start) and "Proceedings of the 43rd" in cited.stdout
    located = subprocess.run(
        [
            str(python),
            "-c",
            "from paperdeck.core.resources import seeds_dir, styles_dir;"
            "print(seeds_dir()); print(sorted(p.name for p in styles_dir().glob('*.tcss')))",
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    )
    seeds_line, styles_line = located.stdout.splitlines()
    assert str(env_dir) in seeds_line
    assert ".tcss" in styles_line
