"""Agents: the oracle (the task's reference solution), noop, and the LLM and external agents."""
