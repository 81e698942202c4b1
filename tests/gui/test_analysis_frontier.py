"""Analysis page "Tours by length": a frontier sequence run on the study thread, its progress
column by column, the log plot and the table of exact counts, cancel, refusals (offscreen)."""
import math
import subprocess
import sys
import threading

import pytest

from knightgui.analysis.frontier import ROWS_UP_TO, log_points
from knightgui.analysis.window import AnalysisWindow

#: closed tours of 5×2n (OEIS A175855): 5×6, 5×8, 5×10
A175855 = {6: 8, 8: 44_202, 10: 13_311_268}


@pytest.fixture
def view(qtbot):
    v = AnalysisWindow()
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    yield v
    assert v.shutdown(30000)


def _page(view, k, a, b, closed=True):
    page = view.show_page("Tours by length")
    page.rows_spin.setValue(k)
    page.from_spin.setValue(a)
    page.to_spin.setValue(b)
    page.closed_box.setChecked(closed)
    return page


def test_a_run_fills_the_table_and_the_log_plot_off_the_gui_thread(qtbot, view, monkeypatch):
    import knightgui_core.studies.tour_methods as tm
    seen: list[str] = []
    real = tm.run_frontier

    def spy(*a, **kw):
        seen.append(threading.current_thread().name)
        return real(*a, **kw)
    monkeypatch.setattr(tm, "run_frontier", spy)
    page = _page(view, 5, 1, 10)
    formats: list[str] = []
    page.progress.valueChanged.connect(lambda _v: formats.append(page.progress.format()))
    page.run()
    qtbot.waitUntil(lambda: page.result is not None and not view.running, timeout=120000)
    assert seen and seen[0] != threading.main_thread().name
    assert formats and all(f.startswith("column ") for f in formats)
    assert page.progress.format() == "column 10 of 10"
    t = page.table
    assert t.rowCount() == 10
    got = {int(t.item(i, 0).text().split("×")[1]): t.item(i, 1).text() for i in range(10)}
    for n, want in A175855.items():
        assert got[n] == f"{want:,}"
    assert got[5] == "0" and got[7] == "0"
    assert t.item(0, 2).text() == "—"              # closed only: no open paths
    assert t.isColumnHidden(2) and t.isColumnHidden(3)
    bottom = page.plot.getPlotItem().getAxis("bottom")
    ticks = [v for _spacing, values in bottom.tickValues(1, 10, 800) for v in values]
    assert ticks and all(float(v).is_integer() for v in ticks)   # whole board lengths
    xs, ys = page.plot.curves["undirected_closed_tours"].getData()
    assert list(xs) == [6, 8, 10]              # the zeros have no point
    assert list(ys) == pytest.approx([math.log10(A175855[n]) for n in (6, 8, 10)])
    assert not page.plot.curves["undirected_paths"].isVisible()
    assert [lab.text for _s, lab in page.plot.legend.items] == ["closed tours"]
    assert page.plot.getPlotItem().getAxis("left").logMode
    assert not page.plot.empty_note.isVisible()
    assert "5×1 … 5×10: 10 boards" in page.status.text()


def test_open_paths_are_plotted_beside_the_closed_tours(qtbot, view):
    page = _page(view, 3, 4, 12, closed=False)
    page.run()
    qtbot.waitUntil(lambda: page.result is not None and not view.running, timeout=120000)
    rows = {page.table.item(i, 0).text(): (page.table.item(i, 1).text(),
                                           page.table.item(i, 2).text())
            for i in range(page.table.rowCount())}
    # A169696 (3×n paths): 3×4, 3×7, 3×12; A070030 (3×n closed): 3×10
    assert rows["3×4"][1] == "8" and rows["3×7"][1] == "52" and rows["3×12"][1] == "57,248"
    assert rows["3×10"][0] == "16" and rows["3×9"][0] == "0"
    assert not page.table.isColumnHidden(2) and not page.table.isColumnHidden(3)
    xs, _ys = page.plot.curves["undirected_paths"].getData()
    assert page.plot.curves["undirected_paths"].isVisible() and 4 in list(xs)
    assert len(page.plot.legend.items) == 2


def test_cancel_stops_the_run_between_cells(qtbot, view):
    page = _page(view, 6, 1, 60)
    page.run()
    qtbot.waitUntil(lambda: view.running and page.progress.value() > 0, timeout=120000)
    assert page.cancel_btn.isEnabled()
    page.cancel()
    qtbot.waitUntil(lambda: not view.running, timeout=30000)
    assert page.status.text().startswith("Cancelled")
    assert page.run_btn.isEnabled() and not page.cancel_btn.isEnabled()
    assert page.table.rowCount() == 0


def test_progress_reads_columns_not_cells(view):
    page = _page(view, 5, 1, 10)
    page._cols = 10
    page._running_text = "Counting …"
    page.status.setText("Preparing the engine: this first run waits for it")
    page.study_progress(35, 50)
    assert page.progress.format() == "column 7 of 10" and page.progress.value() == 700
    assert page.status.text() == "Counting …"      # the wait is over once cells are counted


def test_a_last_length_below_the_first_is_one_line(view):
    page = _page(view, 5, 9, 3)
    page.run()
    assert page.status.text() == "Cannot count: the last length (3) is below the first (9)"
    assert not view.running


def test_a_board_too_big_for_memory_is_refused_in_one_line(qtbot, view, monkeypatch):
    import knightgui_core.studies.tour_methods as tm
    monkeypatch.setattr(tm, "available_memory", lambda: 1 << 20)
    page = _page(view, 6, 30, 40)
    page.disk_box.setChecked(False)            # no slices on disk: too big is refused
    page.run()
    qtbot.waitUntil(lambda: not view.running and page.status.text().startswith("Failed"),
                    timeout=60000)
    assert "GiB" in page.status.text() and "\n" not in page.status.text()


def test_counts_past_the_float_range_still_plot():
    huge = 7 * 10 ** 400
    xs, ys = log_points([{"cols": 3, "c": huge}, {"cols": 4, "c": 0}, {"cols": 5, "c": None}],
                        "c")
    assert xs == [3] and ys == [pytest.approx(400 + math.log10(7))]


def test_the_row_limit_is_the_frontier_count_s():
    from knightgui_core.frontier.count import MAX_ROWS
    assert ROWS_UP_TO == MAX_ROWS


def test_the_page_loads_no_numba():
    code = ("import sys; import knightgui.analysis.frontier; "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_table_that_outgrows_memory_keeps_the_boards_counted_before(qtbot, view, monkeypatch):
    import knightgui_core.studies.tour_methods as tm
    monkeypatch.setattr(tm, "available_memory", lambda: 4 << 20)   # 4 MiB: a few columns
    page = _page(view, 6, 1, 8)
    page.disk_box.setChecked(False)
    page.run()
    qtbot.waitUntil(lambda: page.result is not None and not view.running, timeout=60000)
    text = page.status.text()
    assert text.startswith("Stopped: the frontier count of 6×8 needs a table"), text
    n = page.table.rowCount()
    assert 1 <= n < 8 and n == len(page.result.boards)
    assert [page.table.item(i, 0).text() for i in range(n)] == [f"6×{c}" for c in range(1, n + 1)]


#: closed tours of 6×n (OEIS A175881): 6×5 … 6×8
A175881 = {5: 8, 6: 9_862, 7: 1_067_638, 8: 55_488_142}


def test_the_cost_line_says_memory_disk_and_time_before_a_run(qtbot, view, monkeypatch,
                                                              tmp_path):
    import knightgui_core.studies.frontier_cost as fc
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(fc, "available_memory", lambda: 6 << 30)
    page = _page(view, 5, 1, 10)
    qtbot.waitUntil(lambda: "5×10" in page.cost.text(), timeout=5000)
    assert "in memory" in page.cost.text() and "CPU" in page.cost.text()
    page.rows_spin.setValue(8)
    page.to_spin.setValue(8)
    qtbot.waitUntil(lambda: "8×8" in page.cost.text(), timeout=5000)
    text = page.cost.text()
    assert "through slices on disk" in text and "GiB of disk" in text and "of CPU" in text
    page.disk_box.setChecked(False)
    qtbot.waitUntil(lambda: "refused" in page.cost.text(), timeout=5000)
    assert not view.running                        # the estimate runs nothing


def _spilled_page(view, monkeypatch, tmp_path):
    import knightgui_core.studies.tour_methods as tm
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tm, "available_memory", lambda: 16 << 20)   # 16 MiB: slices
    return _page(view, 6, 5, 8)


def _closed_counts(page) -> dict[int, str]:
    t = page.table
    return {int(t.item(i, 0).text().split("×")[1]): t.item(i, 1).text()
            for i in range(t.rowCount())}


def test_a_board_too_big_for_memory_goes_through_slices_on_disk(qtbot, view, monkeypatch,
                                                                tmp_path):
    page = _spilled_page(view, monkeypatch, tmp_path)
    page.run()
    qtbot.waitUntil(lambda: page.result is not None and not view.running, timeout=240000)
    assert _closed_counts(page) == {n: f"{c:,}" for n, c in A175881.items()}
    assert "through slices on disk" in page.status.text()
    assert page.detail.text().startswith("cell 48 of 48")
    assert list((tmp_path / "knightgui" / "frontier").iterdir()) == []   # done: removed


def test_a_cancelled_count_through_slices_goes_on_when_run_again(qtbot, view, monkeypatch,
                                                                 tmp_path):
    page = _spilled_page(view, monkeypatch, tmp_path)
    page.run()
    qtbot.waitUntil(lambda: page.detail.text().startswith("cell 30 "), timeout=240000)
    page.cancel()
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    assert page.status.text().startswith("Cancelled")
    assert "progress is kept" in page.detail.text()
    assert list((tmp_path / "knightgui" / "frontier").iterdir())   # its progress
    page.run()
    qtbot.waitUntil(lambda: "going on from" in page.status.text(), timeout=60000)
    qtbot.waitUntil(lambda: page.result is not None and not view.running, timeout=240000)
    assert _closed_counts(page) == {n: f"{c:,}" for n, c in A175881.items()}
    assert "cells were done before" in page.status.text()
