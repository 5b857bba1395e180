"""stageclaw benchmarks as Inspect AI tasks (`pip install 'stageclaw[inspect]'`).

    inspect eval stageclaw/stage40 --model openai/gpt-4.1-mini
    inspect eval stageclaw/examples --model anthropic/claude-sonnet-4-20250514 -T ids=quarterly-sync
    inspect eval stageclaw/benchmark -T path=tasks/generated --model ...

Each sample is one task folder; its input is the prompt and nothing else of the task. The solver
builds a fresh world for the sample on this process's service pool, gives the model the task's
tools (stageclaw's registry, same names, descriptions and JSON Schemas) within the task's budgets,
and keeps s0, sH and the trajectory in the sample's store; the scorer is stageclaw's grader.
Inspect's logs, viewer, model providers, epochs and limits apply unchanged.

This package imports nothing of Inspect itself, so `stageclaw` works without the extra; its
modules (`tasks`, `solver`, `scorer`, `dataset`) do.
"""
