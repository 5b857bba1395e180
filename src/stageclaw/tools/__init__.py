"""The agent's hands on the real world: typed tools, the registry, faults, the audit log, MCP."""
