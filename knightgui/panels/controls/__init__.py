"""The Controls panel: its fields, their layout and its collapsible sections."""
