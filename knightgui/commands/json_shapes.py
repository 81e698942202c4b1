"""The object each command prints with ``--json``: which result type's ``to_dict()`` it is,
and its keys.

Every ``--json`` line is the ``to_dict()`` of one result of :mod:`knightgui_core.api_results`,
built by the same function of :mod:`knightgui_core.api` that the Python API uses, so a
script calling the API and one parsing the command line read one shape. This list is what
the command-line reference prints (``docs/tools/gen_cli.py``), and
``tests/api/test_cli_json.py`` runs each command to check that its keys are these.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SHAPES", "Shape"]

_BOARD = ("rows", "cols", "topology", "leaper")


@dataclass(frozen=True)
class Shape:
    """One command's ``--json`` object: ``command`` (with the options that pick this
    shape), ``result`` (the type in :mod:`knightgui_core.api_results`), ``api`` (the
    function of the Python API that answers the same question, empty when only the
    engine's own function does), ``keys`` (always there, in order), ``optional`` (each
    there only when ``when`` says) and ``more``: keys named by the run itself (empty
    when there are none)."""

    command: str
    result: str
    api: str
    keys: tuple[str, ...]
    optional: tuple[str, ...] = ()
    when: str = ""
    more: str = ""


SHAPES: tuple[Shape, ...] = (
    Shape("knightgui solve", "TourResult", "solve",
          (*_BOARD, "closed", "valid", "method", "seconds", "path", "message", "nodes",
           "stuck_at", "moves", "start", "rule_walk", "answer", "why"),
          ("animation",), "with --animate: the file written, its format, frames, size, fps, "
                          "moves a frame and bytes"),
    Shape("knightgui enumerate", "EnumerationCount", "warnsdorff_tours(...).count",
          (*_BOARD, "start", "end", "solutions", "dead_ends", "forward_moves", "exhausted",
           "seconds", "method", "p_success"),
          ("first",), "with --first K: the solutions listed"),
    Shape("knightgui enumerate --list-tails", "CornerTails", "corner_tails",
          (*_BOARD, "start", "end", "free_corners", "ecd", "xcd")),
    Shape("knightgui enumerate --all-tours", "PathCount", "",
          ("all_tours", *_BOARD, "start", "solutions", "exhausted", "closed", "seconds"),
          ("first",), "with --first K: the paths listed, as square names"),
    Shape("knightgui check FILE", "TourCheck", "check_tour",
          ("valid", "file", "why", *_BOARD, "closed", "closed_path", "squares", "method",
           "canonical", "symmetry", "magic", "row_sums", "col_sums", "diagonal_sums"),
          more="a file whose path is not a tour has valid false and only file and why"),
    Shape("knightgui check --path", "PathVerdict", "check_path",
          (*_BOARD, "path", "free", "verdict"),
          ("extendable", "completions", "example", "reason", "nodes", "seconds"),
          "with --completions: the exact count"),
    Shape("knightgui study count", "WarnsdorffCount", "count_warnsdorff_tours",
          ("study", "rows", "cols", "totals", "per_start", "tasks", "seconds"),
          ("dead_end_lengths", "distinct", "distinct_up_to_symmetry", "orbit_sizes"),
          "dead_end_lengths with --lengths; the distinct counts with --distinct"),
    Shape("knightgui study count --all-tours (visited-set counter)", "TourCount",
          "count_tours",
          ("study", "rows", "cols", "topology", "leaper", "totals", "undirected_paths",
           "undirected_closed_tours", "per_start", "tasks", "seconds", "method",
           "method_reason")),
    Shape("knightgui study count --all-tours (frontier)", "TourCount", "count_tours",
          ("study", "rows", "cols", "totals", "undirected_paths", "undirected_closed_tours",
           "topology", "leaper", "method", "method_reason", "closed_only", "peak_states",
           "peak_table_bytes", "column_states", "slices", "resumed_cells", "seconds")),
    Shape("knightgui study count --all-tours --starts", "StartPathCount", "",
          ("study", *_BOARD, "per_start", "method", "method_reason", "seconds")),
    Shape("knightgui study count --all-tours --boards-up-to", "TourCountTable", "",
          ("study", "boards_up_to", "boards", "seconds")),
    Shape("knightgui study count --all-tours --cols-from --cols-to", "TourCountTable", "",
          ("study", "rows", "cols_from", "cols_to", "method", "closed_only", "peak_states",
           "column_states", "state_cells", "peak_table_bytes", "slices", "resumed_cells",
           "boards", "seconds")),
    Shape("knightgui study count --all-tours --symmetry", "SymmetricCount", "study_symmetric",
          ("study", "rows", "cols", "topology", "leaper", "symmetry", "orbits",
           "undirected_paths", "undirected_closed_tours", "reasons", "parts", "tasks",
           "seconds")),
    Shape("knightgui study phadke", "PhadkeStudy", "study_phadke",
          ("study", "family", "seconds", "tasks"), ("distinct",), "with --distinct",
          "one record per family run, under its name (strict, cd, semi, ecd, xcd)"),
    Shape("knightgui study move-orders", "MoveOrderStudy", "study_move_orders",
          ("study", "orders", "walks", "failed_walks", "orders_with_failure",
           "max_failures_per_order", "closed_walks", "closed_share_of_complete", "seconds",
           "rows", "cols", "tie", "complete", "distribution", "failures_per_start",
           "worst_orders", "tasks")),
    Shape("knightgui study move-orders --walk", "OrderWalk", "",
          ("rows", "cols", "order", "matrix", "tie", "complete", "closed", "squares", "end",
           "path", "message")),
    Shape("knightgui study tie-breaks", "TieBreakStudy", "study_tie_breaks",
          ("study", "rules", "n_min", "n_max", "starts", "order", "seed", "seconds",
           "complete", "first_failing_n", "left_out", "per_rule", "tasks"),
          ("sample", "notes", "table"), "sample with --starts sample, notes when the run "
                                       "left starts out, table with --table"),
    Shape("knightgui study uncrossed", "UncrossedStudy", "study_uncrossed",
          ("rows", "cols", "cycle", "length", "count", "total", "path", "nodes", "seconds",
           "squares", "wall_seconds")),
    Shape("knightgui study semimagic", "SemimagicStudy", "study_semimagic",
          ("status", "tours", "found", "nodes", "seconds", "starts_done", "starts", "size",
           "symmetry", "closed", "nested", "squares", "kinds", "diagonal_sums",
           "proved_none")),
    Shape("knightgui study semimagic --census", "SemimagicStudy", "study_semimagic",
          ("size", "mode", "nested", "complete", "numbered", "classes", "closed_tours",
           "tours", "nodes", "seconds", "tasks", "squares")),
)
