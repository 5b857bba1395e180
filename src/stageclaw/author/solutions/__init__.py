"""Reference solutions of the families, one module per family.

Each module is ordinary code with a module-level `FACTS = {}` that the generator fills in: what
a careful person would look for (names, subjects, the phrase that states a fact). `solve(tools)`
finds everything else through the tools, computes what follows from it (time zones, due dates,
totals) and never relies on values the servers assign (uids of new items, message ids of sent
mail). The generator writes `solve` with FACTS and the helpers it uses as hidden/solution.py.
"""
