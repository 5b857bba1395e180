"""stageclaw: state-based benchmarking of personal AI agents on real applications."""

__version__ = "0.1.0"
