"""The Analysis view: opened from View ▸ Analysis, plots big enough at the default size, runs,
clicks that show walks, cancel, export, shutdown (offscreen)."""
import numpy as np
import pytest

from knightgui.analysis.base import AnalysisPage
from knightgui.analysis.pages import PAGES
from knightgui_core.board.tour import Tour
from knightgui_core.studies.orders import run_orders
from knightgui_core.walks.result import Walk

MIN_W, MIN_H = 360, 220


@pytest.fixture
def view(analysis_view):
    return analysis_view


def orders(view):
    return view.show_page("Move orders")


def ties(view):
    return view.show_page("Tie-breaks")


def finish(qtbot, view, page, attr, timeout=60000):
    def ended():
        for label in ("summary_label", "tie_label"):
            w = getattr(page, label, None)
            assert w is None or not w.text().startswith("Failed"), w.text()
        return not view.running and getattr(page, attr) is not None
    qtbot.waitUntil(ended, timeout=timeout)


def _plot_items(plot):
    """The pyqtgraph plot items inside a plot widget (one, or several in a layout)."""
    import pyqtgraph as pg
    if isinstance(plot, pg.PlotWidget):
        return [plot.getPlotItem()]
    return [it for it in plot.ci.items if isinstance(it, pg.PlotItem)]


def test_view_menu_opens_the_analysis_view_at_the_default_size(window, qtbot):
    assert window.act.analysis.text() == "Analysis"
    assert window.act.analysis in window.act.view_menu.actions()
    assert window.analysis is None                  # made on first use
    window.act.analysis.trigger()                   # its modules imported off the GUI thread
    qtbot.waitUntil(lambda: window.analysis is not None, timeout=60000)
    v = window.analysis
    assert v is not None and v.isVisible() and v.isWindow()
    assert (v.width(), v.height()) == (1280, 820)
    assert [v.tabs.tabText(i) for i in range(v.tabs.count())] == [p.title for p in PAGES]
    window.act.analysis.trigger()                   # a second time: the same view
    assert window.analysis is v


def test_every_plot_is_at_least_360_by_220_with_labels_and_legend(view, qtbot):
    assert (view.width(), view.height()) == (1280, 820)
    checked = 0
    for title, page in view.pages.items():
        view.show_page(title)
        qtbot.wait(50)
        for key, plot in page.plots().items():
            assert plot.isVisible(), (title, key)
            assert plot.width() >= MIN_W and plot.height() >= MIN_H, \
                (title, key, plot.width(), plot.height())
            for pi in _plot_items(plot):
                g = pi.geometry()
                assert g.width() >= MIN_W and g.height() >= MIN_H, (title, key, g)
                for side in ("left", "bottom"):
                    assert pi.getAxis(side).labelText, (title, key, side)
                checked += 1
    assert checked >= 4
    o, t = view.pages["Move orders"], view.pages["Tie-breaks"]
    assert o.histogram.legend is not None and o.heatmap.colorbar is not None
    assert t.success_plot.legend is not None


def test_pages_are_registered_in_one_place():
    assert all(issubclass(p, AnalysisPage) and p.title for p in PAGES)
    assert len({p.title for p in PAGES}) == len(PAGES)


def test_move_order_run_fills_bars_heat_map_and_table(qtbot, view, tmp_path):
    page = orders(view)
    page.size_spin.setValue(6)
    page.run_orders()
    assert view.running and not page.run_btn.isEnabled()
    assert not view.pages["Tie-breaks"].run_btn.isEnabled()   # one study at a time
    finish(qtbot, view, page, "orders_result")
    res = page.orders_result
    ref = run_orders(6, "first")
    assert res.complete and res.failed_walks == ref.failed_walks > 0
    assert (page.histogram.heights == ref.distribution()).all()
    assert page.histogram.bars.opts["height"].sum() == 40320
    assert (page.heatmap.values == ref.failures_per_start.reshape(6, 6)).all()
    assert page.heatmap.image.image.shape == (6, 6)
    assert len(page.heatmap.labels) == 36
    assert page.worst_table.rowCount() == 50
    assert int(page.worst_table.item(0, 3).text()) == ref.max_failures_per_order
    assert "1,451,520 walks" in page.status.text()
    assert page.progress.value() == 1000 and page.run_btn.isEnabled()
    page.export_orders_csv(filename=str(tmp_path / "o.csv"))
    assert (tmp_path / "o.csv").read_text(encoding="utf-8").count("\n") == 40321


def test_plots_export_to_png_and_svg(qtbot, view, tmp_path):
    from PySide6.QtGui import QImage
    page = orders(view)
    page.size_spin.setValue(5)
    page.run_orders()
    finish(qtbot, view, page, "orders_result")
    pngs = page.export_plots(filename=str(tmp_path / "mo.png"))
    assert [p.name for p in pngs] == ["mo-histogram.png", "mo-heatmap.png"]
    for p in pngs:
        img = QImage(str(p))
        assert img.width() >= 2 * MIN_W and img.height() >= 2 * MIN_H
    svgs = page.export_plots(filename=str(tmp_path / "mo.svg"))
    for p in svgs:
        text = p.read_text(encoding="utf-8")
        assert text.lstrip().startswith("<?xml") and "<svg" in text
        assert "failed walks" in text                    # the axis labels are in the SVG
    assert not list(tmp_path.glob(".*tmp*"))             # no temporary files left


def test_clicks_emit_walks(qtbot, view):
    page = orders(view)
    page.size_spin.setValue(6)
    page.run_orders()
    finish(qtbot, view, page, "orders_result")
    res = page.orders_result
    shown = []
    view.show_tour.connect(shown.append)

    def click(fn, *args):                     # the walk comes from the walk thread
        before = len(shown)
        fn(*args)
        qtbot.waitUntil(lambda: len(shown) > before, timeout=30000)
    click(page._worst_clicked, 0, 1)
    d = shown[-1]
    assert isinstance(d, Walk) and not d.complete and d.message
    index = int(page.worst_table.item(0, 0).text())
    start = int(res.failed_starts(index)[0])
    assert d.path[0] == start and len(d.path) == res.lengths[index, start] < 36
    assert page.walks_list.count() == res.failures_per_order[index]
    click(page._walk_clicked, page.walks_list.item(page.walks_list.count() - 1))
    assert isinstance(shown[-1], Walk) and "stuck" in shown[-1].message
    sq = int(np.argmax(res.failures_per_start))
    c, r = sq % 6, sq // 6
    assert page.heatmap.square_at(c + 0.5, r + 0.5) == sq
    page._start_clicked(sq)
    assert page.walks_list.count() == min(200, res.failures_per_start[sq]) + (
        1 if res.failures_per_start[sq] > 200 else 0)
    ok = int(np.flatnonzero(res.lengths[:, 0] == 36)[0])
    click(page.emit_walk, ok, 0)
    assert isinstance(shown[-1], Tour) and len(shown[-1].path) == 36


def test_a_replayed_walk_is_computed_off_the_gui_thread(qtbot, view, monkeypatch):
    import threading

    import knightgui_core.studies.orders as orders_mod
    page = orders(view)
    page.size_spin.setValue(5)
    page.run_orders()
    finish(qtbot, view, page, "orders_result")
    threads = []
    original = orders_mod.replay

    def recording(*a, **kw):
        threads.append(threading.get_ident())
        return original(*a, **kw)
    monkeypatch.setattr(orders_mod, "replay", recording)
    shown = []
    view.show_tour.connect(shown.append)
    page.emit_walk(0, 0)
    assert shown == []                            # the click returns before the walk
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=30000)
    assert threads and threads[0] != threading.get_ident()


def test_cancel_stops_the_study_and_keeps_a_partial_result(qtbot, view):
    page = orders(view)
    page.size_spin.setValue(12)  # about 5.8 million walks: long enough to cancel
    page.run_orders()
    qtbot.waitUntil(lambda: page.progress.value() > 0, timeout=60000)
    assert page.cancel_btn.isEnabled()
    page.cancel()
    finish(qtbot, view, page, "orders_result")
    res = page.orders_result
    assert not res.complete and 0 < res.orders < 40320
    assert "cancelled" in page.status.text()
    assert page.run_btn.isEnabled() and not page.cancel_btn.isEnabled()
    assert view.runner.worker.isRunning()          # the study thread stays, idle


def test_tie_break_run_plot_and_rule_click(qtbot, view):
    page = ties(view)
    page.nmax_spin.setValue(30)
    page.run_tiebreaks()
    finish(qtbot, view, page, "tie_result")
    res = page.tie_result
    assert page.rule_table.rowCount() == len(res.rules) >= 6
    assert page.success_plot.image.image.shape == (len(res.rules), 26)
    assert set(page.success_plot.curves) == set(res.rules)
    shown = []
    view.show_tour.connect(shown.append)
    row = list(res.rules).index("lookahead")
    assert res.first_failing_n("lookahead") is not None
    page._rule_clicked(row, 0)
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=30000)
    d = shown[-1]
    ff = res.first_failure("lookahead")
    assert isinstance(d, Walk) and ff is not None and len(d.path) == ff.visited
    assert d.board.rows == ff.n


def test_a_walk_from_the_view_reaches_the_board(window, qtbot):
    v = window.open_analysis()
    page = v.page("Tie-breaks")
    page.nmax_spin.setValue(15)
    page.run_tiebreaks()
    finish(qtbot, v, page, "tie_result")
    row = list(page.tie_result.rules).index("lookahead")
    page._rule_clicked(row, 0)
    ff = page.tie_result.first_failure("lookahead")
    assert ff is not None
    qtbot.waitUntil(lambda: (window.view.rows, len(window.view.path)) == (ff.n, ff.visited),
                    timeout=30000)


def test_closing_the_main_window_stops_a_running_study(window, qtbot):
    v = window.open_analysis()
    page = v.page("Move orders")
    page.size_spin.setValue(12)
    page.run_orders()
    qtbot.waitUntil(lambda: page.progress.value() > 0, timeout=60000)
    window.close()
    assert not v.runner.worker.isRunning() and not v.isVisible()


def test_the_view_reopens_where_it_was(qtbot, dialogs):
    from knightgui.window.main import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    v = w.open_analysis()
    v.resize(780, 520)          # within the offscreen screen (800×600)
    v.show_page("Tie-breaks")
    w.close()
    w2 = MainWindow()
    qtbot.addWidget(w2)
    v2 = w2.open_analysis()
    assert (v2.width(), v2.height()) == (780, 520)
    assert v2.tabs.currentWidget() is v2.page("Tie-breaks")
    w2.close()


def test_empty_plots_say_no_data_yet_and_show_no_scale(view, qtbot):
    """Before a run: "No data yet" and no axis values, not pyqtgraph's −0.5…0.5 read as
    "rank (x0.001)" from −500 to 500; a run brings the scales back."""
    from knightgui.analysis.plots import EMPTY_TEXT
    page = orders(view)
    counts = view.pages["Tour counts"]
    plots = [page.histogram, page.heatmap, counts.heat]
    for plot in plots:
        note = getattr(plot, "empty_note", None)
        assert note is not None and note.isVisible(), plot
        assert note.toPlainText().startswith(("No data yet", "No counts yet"))
        for side in ("left", "bottom"):
            ax = plot.getPlotItem().getAxis(side)
            assert not ax.style["showValues"] and "(x0." not in ax.labelString(), (plot, side)
    assert page.histogram.empty_note.toPlainText() == EMPTY_TEXT
    page.size_spin.setValue(5)
    page.run_orders()
    finish(qtbot, view, page, "orders_result")
    for plot in plots[:2]:
        assert not plot.empty_note.isVisible()
        assert plot.getPlotItem().getAxis("bottom").style["showValues"]
    assert page.heatmap.colorbar.isVisible()
