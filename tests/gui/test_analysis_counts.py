"""The count study page of the Analysis view: runs, fills the table, cancels, closes cleanly."""
import os
import re
import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings

from knightgui.analysis import counts as count_study
from knightgui.analysis.base import StudyRunner
from knightgui.analysis.counts import CountStudyPage
from knightgui_core.board.squares import Board


@pytest.fixture(autouse=True)
def _own_settings(tmp_path, monkeypatch):
    """QSettings(org, app) uses the native format, which the conftest's path override does
    not reach: give the page an ini file of its own so no test writes the user's settings."""
    path = str(tmp_path / "settings.ini")
    monkeypatch.setattr(count_study, "qsettings", lambda: QSettings(path, QSettings.IniFormat))


def qsettings():
    return count_study.qsettings()


def _page(qtbot):
    """A page on a study runner of its own (the Analysis view shares one among its pages)."""
    runner = StudyRunner()
    p = CountStudyPage(runner)
    runner.busyChanged.connect(p.set_busy)      # as the Analysis view wires its pages
    qtbot.addWidget(p)
    return p


@pytest.fixture
def page(qtbot):
    p = _page(qtbot)
    p.resize(600, 500)
    p.show()
    yield p
    assert p.runner.shutdown(30000)
    assert not p.running


def _ended(p):
    assert not p.status.text().startswith("Failed"), p.status.text()
    return not p.runner.running


def test_run_fills_the_table(qtbot, page):
    page.size_spin.setValue(6)
    page.scheduler_edit.setText("threads")
    page.run()
    assert page.running and not page.run_btn.isEnabled() and page.cancel_btn.isEnabled()
    qtbot.waitUntil(lambda: _ended(page), timeout=60000)
    res = page.result
    assert res is not None and res.totals["tours"] == 1_984
    t = page.table
    assert t.rowCount() == len(res.classes) + 1 == 7
    assert t.item(t.rowCount() - 1, 0).text() == "all"
    assert t.item(t.rowCount() - 1, 2).text() == "1,984"
    assert t.item(t.rowCount() - 1, 3).text() == "360"
    assert "1,984 tours" in page.status.text()
    assert page.run_btn.isEnabled() and not page.cancel_btn.isEnabled()
    assert qsettings().value("count/scheduler") == "threads"


def test_a_count_on_a_cylinder_shows_its_board_and_wraps_its_rows(qtbot, page):
    from knightgui_core.studies.count_study import CountOptions, run_count
    page.size_spin.setValue(5)
    page.edges_combo.setCurrentIndex(page.edges_combo.findData("cylinder"))
    page.scheduler_edit.setText("threads")
    page.run()
    qtbot.waitUntil(lambda: _ended(page), timeout=60000)
    res = page.result
    want = run_count(5, 5, "all", workers=1, options=CountOptions(board=Board(5, 5, "cylinder")))
    assert res.per_start == want.per_start and "5×5 cylinder" in page.status.text()
    heat = page.heat.quantities["tours"]
    for r in range(5):                       # the cylinder's translations: rows are constant
        assert len({float(heat[r, c]) for c in range(5)}) == 1
    with qtbot.waitSignal(page.startChosen, timeout=2000) as got:
        page.heat.squareClicked.emit(7)
    assert got.args == [Board(5, 5, "cylinder"), 7]
    page.piece_combo.setEditText("2,2")
    page.run()
    assert "Cannot count" in page.status.text() and not page.running
    page.piece_combo.setEditText("1,2")
    page.starts_combo.setEditText("a1,z9")                 # refused at the page, not the study
    page.run()
    assert "Cannot count" in page.status.text() and "z9" in page.status.text()
    assert not page.running


def test_scheduler_address_comes_from_the_settings(qtbot):
    qsettings().setValue("count/scheduler", "tcp://10.1.2.3:8786")
    p = _page(qtbot)
    assert p.scheduler_edit.text() == "tcp://10.1.2.3:8786"


def test_unreachable_scheduler_fails_in_one_line(qtbot, page):
    page.size_spin.setValue(5)
    page.scheduler_edit.setText("tcp://127.0.0.1:1")
    page.run()
    qtbot.waitUntil(lambda: not page.runner.running, timeout=30000)
    assert page.status.text().startswith("Failed")
    assert "\n" not in page.status.text() and page.result is None
    assert page.heat.empty_note.isVisible() and "No counts yet" in page.heat.empty_note.toPlainText()


def test_cancel_stops_a_long_count(qtbot, page):
    page.size_spin.setValue(10)
    page.starts_combo.setEditText("a1")
    page.scheduler_edit.setText("threads")
    page.run()
    qtbot.wait(300)
    page.cancel()
    qtbot.waitUntil(lambda: not page.runner.running, timeout=20000)
    assert page.result is None and page.table.rowCount() == 0
    assert page.status.text().startswith("Cancelled")


def test_store_resume_and_bad_store(qtbot, page, tmp_path):
    store = tmp_path / "c.sqlite"
    page.size_spin.setValue(5)
    page.store_edit.setText(str(store))
    page.run()
    qtbot.waitUntil(lambda: _ended(page), timeout=60000)
    page.run()
    qtbot.waitUntil(lambda: _ended(page), timeout=60000)
    assert page.result.tasks["from_store"] == page.result.tasks["total"] > 0
    bad = tmp_path / "bad.sqlite"
    bad.write_text("garbage")
    page.store_edit.setText(str(bad))
    page.run()
    qtbot.waitUntil(lambda: not page.runner.running, timeout=30000)
    assert page.status.text().startswith("Failed") and bad.read_text() == "garbage"


def test_shutting_down_while_running_stops_the_thread(qtbot):
    p = _page(qtbot)
    p.show()
    p.size_spin.setValue(10)
    p.starts_combo.setEditText("a1")
    p.scheduler_edit.setText("threads")
    p.run()
    qtbot.wait(200)
    assert p.running
    assert p.runner.shutdown(20000)
    assert not p.running and not p.runner.worker.isRunning()


def test_the_analysis_view_has_the_page(qtbot):
    from knightgui.analysis.window import AnalysisWindow
    d = AnalysisWindow()
    qtbot.addWidget(d)
    page = d.pages[CountStudyPage.title]
    assert d.tabs.indexOf(page) >= 0 and page.runner is d.runner
    assert d.shutdown(1000)


def test_the_heat_map_shows_every_start_and_a_click_chooses_the_start(qtbot, page, tmp_path):
    page.size_spin.setValue(6)
    page.scheduler_edit.setText("threads")
    page.run()
    qtbot.waitUntil(lambda: _ended(page), timeout=60000)
    res = page.result
    t = page.table
    assert t.item(t.rowCount() - 1, 5).text() == "97.179 %"            # Knuth: 97.2 %
    heat = page.heat
    assert (heat.rows, heat.cols) == (6, 6) and heat.shown == "tours"
    assert float(heat.quantities["tours"][0, 0]) == res.per_start["a1"]["tours"]
    page.quantity_combo.setCurrentText("P(success)")
    assert heat.shown == "P(success)"
    assert "P(success): 76.562 %" in heat.describe(2 * 6 + 2)        # c3
    with qtbot.waitSignal(page.startChosen, timeout=2000) as got:
        heat.squareClicked.emit(2 * 6 + 2)
    assert got.args == [Board(6, 6), 14]
    csv_path, png_path = tmp_path / "h.csv", tmp_path / "h.png"
    assert page.export_csv(str(csv_path)) and page.export_png(str(png_path))
    lines = csv_path.read_text().splitlines()
    assert lines[0] == "square,tours,closed,dead ends,P(success),P(closed)" and len(lines) == 37
    assert png_path.read_bytes()[:4] == b"\x89PNG"
    assert not page.export_png(str(tmp_path))          # a folder: refused, one line
    assert page.status.text().startswith("Could not save")


def test_a_chosen_start_reaches_the_main_window(qtbot):
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)
    qtbot.addWidget(w)
    w.open_analysis()
    w.analysis.start_chosen.emit(Board(7, 7), 3 * 7 + 2)              # c4 on 7×7
    assert (w.controls.rows.value(), w.controls.cols.value()) == (7, 7)
    assert w.controls.start_square() == 23
    assert "c4" in w.statusBar().currentMessage()
    w.analysis.start_chosen.emit(Board(6, 6, "cylinder", (2, 3)), 5)    # f1, a zebra's cylinder
    assert w.controls.board() == Board(6, 6, "cylinder", (2, 3)) == w.view.board
    assert w.controls.start_square() == 5
    assert w.analysis.runner.shutdown(30000)
    w.close()


def test_progress_only_moves_forward_and_each_start_shows_as_soon_as_it_is_counted(qtbot,
                                                                                    page):
    """A small task budget splits 7×7's starts over many rounds. The bar used to restart
    with each round's tasks (0/19, 9/19, then 23/64 …, ending "8/8 tasks" beside "135
    tasks"), and no row appeared before the end."""
    page.size_spin.setValue(7)
    page.scheduler_edit.setText("threads")
    page.task_moves = 20_000
    values: list[int] = []
    page.progress.valueChanged.connect(values.append)
    texts: list[str] = []
    rows_while_running: list[int] = []
    page.table.model().rowsInserted.connect(
        lambda *_: rows_while_running.append(page.table.rowCount()) if page.running else None)
    page.run()

    def sample():
        texts.append(page.progress.text())
        return _ended(page)
    qtbot.waitUntil(sample, timeout=120000)
    texts.append(page.progress.text())
    res = page.result
    assert res is not None and res.rounds > 1 and res.totals["tours"] == 388_312
    assert values == sorted(values) and values[-1] == 1000
    while texts[0] == "0 / 49 starts counted · starting …":   # the cluster is starting
        texts.pop(0)
    counted = [re.match(r"([\d,]+) / 49 starts counted · ([\d,]+) tasks done", t)
               for t in texts]
    assert all(counted), [t for t, m in zip(texts, counted, strict=True) if not m][:3]
    starts = [int(m.group(1)) for m in counted]
    tasks = [int(m.group(2).replace(",", "")) for m in counted]
    assert starts == sorted(starts) and tasks == sorted(tasks)
    total = res.tasks["total"]
    assert texts[-1] == f"49 / 49 starts counted · {total:,} tasks done"
    assert f"{total:,} tasks" in page.status.text()
    assert rows_while_running and min(rows_while_running) < len(res.classes)
    assert page.table.rowCount() == len(res.classes) + 1


def _big_result():
    """An 11×11 count's figures (18,771,434,659,016 tours): the widest the table shows."""
    from knightgui_core.studies.count_study import CountResult
    from knightgui_core.tietree.counting.subtrees import start_classes
    b = Board(11, 11)
    res = CountResult(11, 11)
    res.classes = {b.name(r): [b.name(s) for s in m]
                   for r, m in start_classes(11, 11, range(121)).items()}
    for i, name in enumerate(b.name(s) for s in range(121)):
        res.per_start[name] = {"tours": 155_135_823_628 + i, "closed": 15_413_582_960 + i,
                               "dead_ends": 9_876_543_210 + i, "p_success": 0.98765,
                               "p_closed": 0.123456}
    res.tasks = {"total": 12_345, "from_store": 0, "computed": 12_345}
    return res


def test_no_column_is_cut_at_the_default_size(qtbot):
    from knightgui.analysis.window import AnalysisWindow
    view = AnalysisWindow()
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    assert (view.width(), view.height()) == (1280, 820)
    page = view.show_page(CountStudyPage.title)
    t = page.table
    h = t.horizontalHeader()

    def whole():
        return all(h.sectionSize(j) >= max(h.sectionSizeHint(j), t.sizeHintForColumn(j))
                   for j in range(t.columnCount())) and h.length() <= t.viewport().width()
    qtbot.waitUntil(whole, timeout=2000)                 # the headers alone
    page.show_result(_big_result())
    qtbot.waitUntil(whole, timeout=2000)
    assert t.item(t.rowCount() - 1, 2).text() == "18,771,434,666,248"
    assert not t.horizontalScrollBar().isVisible()
    assert page.heat.width() >= 360
    assert view.shutdown(1000)


def test_the_embedded_cluster_keeps_its_log_lines_out_of_the_terminal(tmp_path):
    """The window configures logging (app.main: logging.basicConfig), so distributed's
    start-up lines ("dashboard at: http://…", "Start worker at: …") reached the terminal
    through the root handler when a count started the cluster on this machine."""
    script = tmp_path / "count.py"
    script.write_text(
        "import logging, sys\n"
        "logging.basicConfig(level=logging.WARNING, format='%(name)s: %(message)s')\n"
        "from knightgui.analysis.counts import count_study\n"
        "res = count_study(5, list(range(25)), None, None)(progress=lambda d, t: None, cancel=None)\n"
        "print('tours', res.totals['tours'])\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=240, env=env, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "tours 320"
    assert "distributed" not in run.stderr and "dashboard" not in run.stderr, run.stderr
