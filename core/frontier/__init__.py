"""The frontier count: every knight's tour of a long board, column by column."""
