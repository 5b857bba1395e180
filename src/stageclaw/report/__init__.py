"""Reports: terminal tables, the HTML report, the episode viewer."""
