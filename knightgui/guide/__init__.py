"""The user guide inside the app: where its Markdown pages are (:mod:`.locate`, no Qt) and
the window that shows them (:mod:`.viewer`)."""
from __future__ import annotations

from knightgui.guide.locate import Guide, find_docs, find_guide

__all__ = ["Guide", "find_guide", "find_docs"]
