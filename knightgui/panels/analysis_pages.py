"""The pages of the Analysis view, in tab order: the one place to register a page.

A page is a :class:`knightgui.panels.analysis_base.AnalysisPage` subclass (a tab ``title``, its
``plots()``, and the study callbacks); add its class here and the Analysis view shows it,
runs its studies on the shared study thread and exports its plots.
"""
from __future__ import annotations

from knightgui.panels.analysis_base import AnalysisPage
from knightgui.panels.analysis_counts import CountStudyPage
from knightgui.panels.analysis_frontier import FrontierSequencePage
from knightgui.panels.analysis_orders import MoveOrdersPage
from knightgui.panels.analysis_tiebreaks import TieBreakPage
from knightgui.panels.analysis_uncrossed import UncrossedPage

PAGES: tuple[type[AnalysisPage], ...] = (
    MoveOrdersPage,
    TieBreakPage,
    CountStudyPage,
    FrontierSequencePage,
    UncrossedPage,
)
