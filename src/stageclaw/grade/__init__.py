"""Stage 4: rubric scoring, the default-deny collateral check, the judge, diagnostics."""
