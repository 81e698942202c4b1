"""The pages of the Analysis view, in tab order: the one place to register a page (a
:class:`knightgui.analysis.base.AnalysisPage` subclass)."""
from __future__ import annotations

from knightgui.analysis.base import AnalysisPage
from knightgui.analysis.counts import CountStudyPage
from knightgui.analysis.frontier import FrontierSequencePage
from knightgui.analysis.orders import MoveOrdersPage
from knightgui.analysis.tiebreaks import TieBreakPage
from knightgui.analysis.uncrossed import UncrossedPage

PAGES: tuple[type[AnalysisPage], ...] = (
    MoveOrdersPage,
    TieBreakPage,
    CountStudyPage,
    FrontierSequencePage,
    UncrossedPage,
)
