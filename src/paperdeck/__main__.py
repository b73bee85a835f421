"""Run paperdeck as `python -m paperdeck`."""

from paperdeck.cli.main import main

raise SystemExit(main())
