"""Stage 1: task authoring. Procedural scenario families with difficulty operators
(`generate`), and an LLM author that writes a task from a hint and repairs it from stage 2's
diagnostics (`stageclaw.author.llm`)."""

from stageclaw.author.family import all_families, generate

__all__ = ["all_families", "generate"]
