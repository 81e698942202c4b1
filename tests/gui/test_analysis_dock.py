"""The analysis dock: runs, plots, clicks that show walks, cancel, shutdown (offscreen)."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow

from knightgui_core.studies.orders import run_orders
from knightgui_core.tour import Tour
from knightgui.panels.analysis import AnalysisDock


@pytest.fixture
def dock(qtbot):
    d = AnalysisDock()
    qtbot.addWidget(d)
    d.resize(900, 760)
    d.show()
    yield d
    assert d.shutdown(30000)
    assert not d.running


def finish(qtbot, d, attr, timeout=60000):
    def ended():
        for label in (d.summary_label, d.tie_label):
            assert not label.text().startswith("Failed"), label.text()
        return d.study_thread is None and getattr(d, attr) is not None
    try:
        qtbot.waitUntil(ended, timeout=timeout)
    except qtbot.TimeoutError:
        t = d.study_thread
        raise AssertionError(
            f"study did not end: thread={'none' if t is None else t.isRunning()}, "
            f"progress={d.progress.value()}/{d.tie_progress.value()}, "
            f"labels={d.summary_label.text()!r} {d.tie_label.text()!r}") from None


def test_move_order_run_fills_bars_heat_map_and_table(qtbot, dock, tmp_path):
    dock.size_spin.setValue(6)
    dock.run_orders()
    assert dock.running and not dock.run_orders_btn.isEnabled()
    finish(qtbot, dock, "orders_result")
    res = dock.orders_result
    ref = run_orders(6, "first")
    assert res.complete and res.failed_walks == ref.failed_walks > 0
    assert (dock.histogram.heights == ref.distribution()).all()
    assert dock.histogram.bars.opts["height"].sum() == 40320
    assert (dock.heatmap.values == ref.failures_per_start.reshape(6, 6)).all()
    assert dock.heatmap.image.image.shape == (6, 6)
    assert len(dock.heatmap.labels) == 36
    assert dock.worst_table.rowCount() == 50
    assert int(dock.worst_table.item(0, 3).text()) == ref.max_failures_per_order
    assert "1,451,520 walks" in dock.summary_label.text()
    assert dock.progress.value() == 1000 and dock.run_orders_btn.isEnabled()
    png = tmp_path / "dock.png"
    assert dock.grab().save(str(png)) and png.stat().st_size > 10_000
    dock.export_orders_csv(filename=str(tmp_path / "o.csv"))
    assert (tmp_path / "o.csv").read_text(encoding="utf-8").count("\n") == 40321


def test_clicks_emit_walks(qtbot, dock):
    dock.size_spin.setValue(6)
    dock.run_orders()
    finish(qtbot, dock, "orders_result")
    res = dock.orders_result
    shown = []
    dock.show_tour.connect(shown.append)
    # a worst order: its first failed walk, as a partial path
    dock._worst_clicked(0, 1)
    d = shown[-1]
    assert isinstance(d, dict) and set(d) >= {"board", "path", "message"}
    index = int(dock.worst_table.item(0, 0).text())
    start = int(res.failed_starts(index)[0])
    assert d["path"][0] == start and len(d["path"]) == res.lengths[index, start] < 36
    assert dock.walks_list.count() == res.failures_per_order[index]
    # a failed walk in the list
    dock._walk_clicked(dock.walks_list.item(dock.walks_list.count() - 1))
    assert isinstance(shown[-1], dict) and "stuck" in shown[-1]["message"]
    # a heat-map square: the orders failing from it; a complete walk arrives as a Tour
    sq = int(np.argmax(res.failures_per_start))
    c, r = sq % 6, sq // 6
    assert dock.heatmap.square_at(c + 0.5, r + 0.5) == sq
    dock._start_clicked(sq)
    assert dock.walks_list.count() == min(200, res.failures_per_start[sq]) + (
        1 if res.failures_per_start[sq] > 200 else 0)
    ok = int(np.flatnonzero(res.lengths[:, 0] == 36)[0])
    dock.emit_walk(ok, 0)
    assert isinstance(shown[-1], Tour) and len(shown[-1].path) == 36


def test_cancel_stops_the_thread_and_keeps_a_partial_result(qtbot, dock):
    dock.size_spin.setValue(12)  # about 5.8 million walks: long enough to cancel
    dock.run_orders()
    qtbot.waitUntil(lambda: dock.progress.value() > 0, timeout=60000)
    ended = []
    dock.study_thread.finished.connect(lambda: ended.append(True))
    dock.cancel()
    finish(qtbot, dock, "orders_result")
    assert ended and not dock.running
    res = dock.orders_result
    assert not res.complete and 0 < res.orders < 40320
    assert "cancelled" in dock.summary_label.text()
    assert dock.run_orders_btn.isEnabled() and not dock.cancel_btn.isEnabled()


def test_tie_break_run_plot_and_rule_click(qtbot, dock):
    dock.tabs.setCurrentIndex(1)
    dock.nmax_spin.setValue(30)
    dock.run_tiebreaks()
    finish(qtbot, dock, "tie_result")
    res = dock.tie_result
    assert dock.rule_table.rowCount() == len(res.rules) >= 6
    assert dock.success_plot.image.image.shape == (len(res.rules), 26)
    assert set(dock.success_plot.curves) == set(res.rules)
    shown = []
    dock.show_tour.connect(shown.append)
    row = list(res.rules).index("lookahead")
    assert res.first_failing_n("lookahead") is not None
    dock._rule_clicked(row, 0)
    d = shown[-1]
    ff = res.first_failure("lookahead")
    assert isinstance(d, dict) and len(d["path"]) == ff["visited"]
    assert d["board"].rows == ff["n"]


def test_closing_the_window_stops_a_running_study(qtbot):
    win = QMainWindow()
    qtbot.addWidget(win)
    d = AnalysisDock(win)
    win.addDockWidget(Qt.RightDockWidgetArea, d)
    win.show()
    d.size_spin.setValue(12)
    d.run_orders()
    qtbot.waitUntil(lambda: d.progress.value() > 0, timeout=60000)
    thread = d.study_thread
    win.close()  # the dock waits for its thread before the window goes
    assert thread.isFinished()
