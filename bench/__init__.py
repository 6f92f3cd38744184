"""Benchmarks: each module prints a table of figures (medians) and target ratios."""
