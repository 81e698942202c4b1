"""What the options-matrix panel says after a single solve (Qt-free): how the tour was made.
Only the rule's own walk (greedy, or backtracking on the rule) breaks ties that are moves of
the tour shown; for a walk closed by path reversals, a construction or a search, the caption
says what made the tour instead of "0 ties broken".
"""
from __future__ import annotations

from typing import Any

__all__ = ["single_tour_caption"]

#: the last words of every caption
MATRIX_NOTE = "Exhaustive mode fills this matrix."


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def single_tour_caption(res: Any, tie_label: str) -> str:
    """The caption for ``res`` (a :class:`knightgui_core.walks.solve_result.SolveResult`)
    solved with the tie rule named ``tie_label``: two lines of the options-matrix panel at
    most."""
    if not res.ok:
        return f"No tour (the status bar says why). {MATRIX_NOTE}"
    method = str(res.method)
    info = res.info or {}
    if "reversals" in info:
        walk = "the rule's open walk" if method.startswith("warnsdorff") else \
            f"the {method.split(' +')[0]}'s open tour"
        return (f"Single tour: {walk} closed by "
                f"{_plural(int(info['reversals']), 'path reversal')}. {MATRIX_NOTE}")
    if method.startswith(("warnsdorff greedy", "warnsdorff backtracking")):
        ties = int(sum(1 for t in res.ties if t))
        return (f"Single tour: {_plural(ties, 'tie')} broken by '{tie_label}' "
                f"(View ▸ Highlight ties). {MATRIX_NOTE}")
    return f"Single tour made by {method}: no ties to count. {MATRIX_NOTE}"
