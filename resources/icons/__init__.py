"""The application icon as PNG sizes, .ico and .icns (rendered by packaging/render_icons.py)."""
