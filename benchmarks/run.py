"""Run every benchmark module and print one table: name, value, unit, list size."""

from __future__ import annotations

import argparse
import importlib
import lzma
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE.parent))

MODULES = (
    "bench_load",
    "bench_formats",
    "bench_titles",
    "bench_search",
    "bench_notes",
    "bench_citations",
    "bench_enrich",
    "bench_reader",
    "bench_typing_while_loading",
)
SLOW_MODULES = ("bench_million",)
"""Run only when named with --only (minutes, gigabytes)."""
Row = tuple[str, float, str, str]


def data_paths(data: Path | None, seed: Path, scratch: Path) -> dict[str, Path | None]:
    """The lists the benchmarks read, None where a file is absent."""

    def find(name: str) -> Path | None:
        if data is None:
            return None
        path = data / name
        return path if path.exists() else None

    paths: dict[str, Path | None] = {
        "seed": seed,
        "icml5k_txt": find("icml-2020-2023.txt"),
        "icml5k_jsonl": find("icml-2020-2023.jsonl"),
        "conf100k_xz": find("conference-100k.txt.xz"),
        "icml2026_txt": find("icml2026-papers.txt"),
        "icml2026_jsonl": find("icml2026-papers.jsonl"),
        "perturbed_txt": find("icml2026-papers.perturbed.txt"),
        "meta95_jsonl": find("icml2026-papers.meta-95.jsonl"),
        "truth_jsonl": find("icml2026-papers.perturbed.truth.jsonl"),
        "bib500": find("icml-2021-500.bib"),
        "conf100k_txt": None,
    }
    xz = paths["conf100k_xz"]
    if xz is not None:
        # Benchmarks read the 100k list as a plain text file, unpacked once per run.
        target = scratch / "conference-100k.txt"
        with lzma.open(xz) as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        paths["conf100k_txt"] = target
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    default_data = HERE.parent.parent / "shared" / "data"
    parser.add_argument(
        "--data",
        type=Path,
        default=default_data if default_data.is_dir() else None,
        help="folder with the real lists (default: ../shared/data when present)",
    )
    parser.add_argument("--only", nargs="*", default=None, help="run only these modules")
    args = parser.parse_args()
    seed = HERE.parent / "seeds" / "icml2026.txt"
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-") as scratch:
        paths = data_paths(args.data, seed, Path(scratch))
        for name in (*MODULES, *SLOW_MODULES):
            if args.only and name not in args.only:
                continue
            if not args.only and name in SLOW_MODULES:
                continue
            try:
                module = importlib.import_module(f"benchmarks.{name}")
            except ModuleNotFoundError as error:
                print(f"# {name}: not available ({error})", file=sys.stderr)
                continue
            started = time.perf_counter()
            module_rows = module.rows(paths)
            elapsed = time.perf_counter() - started
            print(f"# {name}: {len(module_rows)} rows in {elapsed:.1f} s", file=sys.stderr)
            rows.extend(module_rows)
    print_table(rows)
    return 0


def print_table(rows: list[Row]) -> None:
    headers = ("name", "value", "unit", "list")
    cells = [(name, _format(value), unit, size) for name, value, unit, size in rows]
    widths = [
        max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(headers)
    ]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line)
    print("  ".join("-" * w for w in widths))
    for cell in cells:
        print(
            "  ".join(
                c.rjust(w) if i == 1 else c.ljust(w)
                for i, (c, w) in enumerate(zip(cell, widths, strict=True))
            )
        )


def _format(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        return str(value)  # a row whose measurement did not finish: shown, not a crash
    if value == int(value) and abs(value) >= 100:
        return f"{int(value):,}"
    return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.1f}"


if __name__ == "__main__":
    raise SystemExit(main())
