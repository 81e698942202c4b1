"""Analysis page "Move orders": every one of the 8! move orders walked from every start square
with plain Warnsdorff; a histogram of failures per order, a heat map of failures per start
square, the worst orders and their failed walks (click one to see it on the board)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QSplitter, QVBoxLayout, QWidget

from knightgui.analysis.base import AnalysisPage, add_row, button, combo, rows, spin, table
from knightgui.analysis.plots import FailureHistogram, StartHeatMap

if TYPE_CHECKING:
    from knightgui_core.studies.orders import OrdersResult


class MoveOrdersPage(AnalysisPage):
    """The move-order analysis (``knightgui_core.studies.orders``)."""

    title = "Move orders"

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent,
                         run_tip="walk all 40,320 move orders from every start square",
                         status="Run the analysis: every move order from every square.")
        self.orders_result: OrdersResult | None = None
        v = QVBoxLayout(self)
        self.size_spin = spin(5, 12, 8, "n = ")
        self.tie_combo = combo(["first", "last"],
                               "ties go to the first (or last) tied move in the order")
        self.csv_btn = button("CSV…", self.export_orders_csv, "one row per order")
        self.csv_btn.setEnabled(False)
        rows(v, (QLabel("Board"), self.size_spin, QLabel("ties"), self.tie_combo,
             self.run_btn, self.cancel_btn, self.csv_btn, self.export_btn))
        v.addWidget(self.progress)
        v.addWidget(self.status)
        split = QSplitter(Qt.Orientation.Vertical)
        plots = QSplitter(Qt.Orientation.Horizontal)
        self.histogram = FailureHistogram()
        self.heatmap = StartHeatMap()
        self.heatmap.squareClicked.connect(self._start_clicked)
        plots.addWidget(self.histogram)
        plots.addWidget(self.heatmap)
        split.addWidget(plots)
        lists = QSplitter(Qt.Orientation.Horizontal)
        self.worst_table = table(["#", "order", "⟨dx,dy⟩ matrix order", "failed"], stretch=2)
        self.worst_table.cellClicked.connect(self._worst_clicked)
        self.walks_list = QListWidget()
        self.walks_list.itemClicked.connect(self._walk_clicked)
        self.walks_list.setToolTip("click a walk to show it on the board")
        lists.addWidget(self.worst_table)
        lists.addWidget(self.walks_list)
        lists.setSizes([380, 200])
        split.addWidget(lists)
        split.setSizes([420, 260])        # in proportion: the plots get most of the height
        v.addWidget(split, 1)

    def plots(self) -> dict[str, QWidget]:
        """The histogram of failures per order and the heat map of failures per start."""
        return {"histogram": self.histogram, "heatmap": self.heatmap}

    def run_orders(self) -> None:
        """Walk every move order from every square of the chosen board (the Run button)."""
        from knightgui_core.studies.orders.runner import run_study
        n, tie = self.size_spin.value(), self.tie_combo.currentText()
        self.status.setText(f"Walking 40,320 orders × {n * n} starts on {n}×{n} …")
        # the runner, as knightgui study orders: the same tasks, on this machine's cores
        self.start_study("orders", lambda progress, cancel: run_study(
            n, tie, progress=progress, cancel=cancel)[0])

    run = run_orders

    def study_done(self, res) -> None:
        """The study ended: fill the summary, the plots and the table of the worst orders."""
        self.orders_result = res
        s = res.summary()
        pct = 100 * s.failed_walks / s.walks if s.walks else 0.0
        state = "" if res.complete else f" — cancelled after {s.orders:,} of 40,320 orders"
        self.status.setText(
            f"{res.board.cols}×{res.board.rows}, ties {res.tie}: {s.walks:,} walks, "
            f"{s.failed_walks:,} failed ({pct:.2f}%); {s.orders_with_failure:,} orders "
            f"with a failure, at most {s.max_failures_per_order} per order; "
            f"{s.closed_walks:,} closed walks "
            f"({100 * s.closed_share_of_complete:.1f}% of the complete ones); "
            f"{s.seconds:.2f} s{state}")
        self.progress.setValue(1000 if res.complete else self.progress.value())
        self.histogram.set_distribution(res.distribution())
        self.heatmap.set_counts(res.failures_per_start, res.board.rows, res.board.cols)
        self.worst_table.setRowCount(0)
        for w in res.worst(50):
            add_row(self.worst_table, (w["index"], w["order"], w["matrix"], w["failed_walks"]),
                    w["index"])
        self.walks_list.clear()
        self.csv_btn.setEnabled(res.orders > 0)

    def _list_walks(self, res, walks) -> None:
        """The failed walks ``(order index, start)`` in the list, in place of what it held."""
        from knightgui_core.studies.orders import digits
        self.walks_list.clear()
        for i, s in walks:
            it = QListWidgetItem(f"{digits(res.order(i))} from {res.board.name(s)}: stuck "
                                 f"after {int(res.lengths[i, s])} squares")
            it.setData(Qt.ItemDataRole.UserRole, (i, s))
            self.walks_list.addItem(it)

    def _worst_clicked(self, row: int, _col: int) -> None:
        it = self.worst_table.item(row, 0)
        res = self.orders_result
        if it is None or res is None:
            return
        index = int(it.data(Qt.ItemDataRole.UserRole))
        starts = res.failed_starts(index)
        self._list_walks(res, [(index, int(s)) for s in starts])
        if len(starts):
            self.emit_walk(index, int(starts[0]))

    def _walk_clicked(self, item: QListWidgetItem) -> None:
        index, s = item.data(Qt.ItemDataRole.UserRole)
        self.emit_walk(int(index), int(s))

    def _start_clicked(self, sq: int) -> None:
        """Heat-map click: list the orders whose walk from that square fails (first 200)."""
        res = self.orders_result
        if res is None:
            return
        bad = (res.lengths[:, sq] < res.squares).nonzero()[0]
        self._list_walks(res, [(int(i), int(sq)) for i in bad[:200]])
        if len(bad) > 200:
            self.walks_list.addItem(f"… and {len(bad) - 200:,} more orders")

    def emit_walk(self, index: int, start: int) -> None:
        """Replay order ``index`` from ``start`` and emit it on :attr:`show_tour`."""
        from knightgui_core.studies.orders import replay
        res = self.orders_result
        if res is None:
            return
        rows, cols, order, tie = res.board.rows, res.board.cols, res.order(index), res.tie
        self.show_walk(lambda: replay(rows, order, tie, start, cols=cols))

    def export_orders_csv(self, *_, filename: str | None = None) -> None:
        """Save one row per move order as CSV (asks for a name when none is given)."""
        self.save_csv(self.orders_result, "Save move-order table", "move-orders.csv", filename)
