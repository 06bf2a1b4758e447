"""Benchmarks: commands that measure and report (never asserted in tests)."""
