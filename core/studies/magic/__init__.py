"""Semi-magic knight's tours: the line-sum search and the census of its tours."""
