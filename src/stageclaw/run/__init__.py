"""Stage 3: episodes, budgets, trajectories, the scheduler, the result store, resume."""
