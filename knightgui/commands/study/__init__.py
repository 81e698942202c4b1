"""``knightgui study <name>``: batch studies that reproduce the literature.

Each study is a module ``knightgui.commands.study.<name>`` with ``add_parser(subparsers)``.
"""
from __future__ import annotations

import importlib
import importlib.util

STUDIES = ("phadke", "orders", "tiebreaks", "count", "uncrossed", "semimagic")


def add_parser(sub) -> None:
    """``knightgui study``: the studies (count, phadke, orders, tiebreaks, uncrossed, semimagic)."""
    p = sub.add_parser("study", help="batch studies: phadke, move-orders, tie-breaks, count, "
                       "uncrossed, semimagic")
    studies = p.add_subparsers(dest="study", metavar="STUDY", parser_class=type(p))
    for name in STUDIES:
        modname = f"{__package__}.{name}"
        if importlib.util.find_spec(modname) is None:
            continue
        importlib.import_module(modname).add_parser(studies)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])
