"""Run paperdeck as `python -m paperdeck`."""

from paperdeck.cli import main

raise SystemExit(main())
