"""The board view: one pyqtgraph view for any board, its images, items and marks."""
