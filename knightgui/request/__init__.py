"""The window's request model, free of Qt: its fields, their checks, the runs."""
