"""Found solutions: kept in memory, stepped through, told apart, read from files."""
