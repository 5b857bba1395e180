"""The task directory (contract): load, check, build E0; the verifier runtime."""
