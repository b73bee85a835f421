"""Benchmarks for paperdeck: `python benchmarks/run.py --data DIR` prints a table of figures."""
