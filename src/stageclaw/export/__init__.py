"""Exports of stageclaw tasks to other harnesses' formats: `harbor` (Harbor task directories)."""
