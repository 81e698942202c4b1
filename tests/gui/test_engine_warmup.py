"""The warm-up as the window shows it (issue 35, item 2): "Preparing the engine — n of m" in
the status bar while the stages run, updated through a Qt signal (widgets only ever touched
on the GUI thread), gone when they are done; a feature asked for meanwhile says that it waits,
its stages go first, and it starts when they are done. The stages here are fakes that wait
for the test, so every state is seen in turn."""
from __future__ import annotations

import threading

import pytest

from knightgui.window import engine_warmup
from knightgui.window.engine_warmup import WAIT_TEXT, EngineWarmUp
from knightgui_core.warmup import Stage

from gui_helpers import wait_until


class Gates:
    """Fake stages that each wait until the test opens their gate."""

    def __init__(self, *names: str):
        self.gates = {n: threading.Event() for n in names}
        self.ran: list[str] = []
        self.threads: set[str] = set()
        self.stages = [Stage(n, self._runner(n), ()) for n in names]

    def _runner(self, name):
        def run():
            self.ran.append(name)
            self.threads.add(threading.current_thread().name)
            assert self.gates[name].wait(60)
        return run

    def open(self, name: str) -> None:
        self.gates[name].set()

    def open_all(self) -> None:
        for g in self.gates.values():
            g.set()


@pytest.fixture
def gates(monkeypatch):
    g = Gates("move orders", "tie-break studies", "tours", "backtracking")
    warm = EngineWarmUp(g.stages)
    monkeypatch.setattr(engine_warmup, "_ENGINE", warm)
    yield g
    g.open_all()
    if warm.worker is not None:
        warm.worker.join(30)


def _progress(window) -> str:
    st = window.engine_status
    return st.label.text() if st.isVisible() else ""


def test_status_bar_shows_the_warm_up_n_of_m_and_clears_when_done(gates, window, qtbot):
    warm = window.engine
    assert not window.engine_status.isVisible()          # nothing before the warm-up starts
    on_gui = []
    warm.progressed.connect(lambda *_: on_gui.append(threading.current_thread()
                                                     is threading.main_thread()))
    warm.start()
    wait_until(qtbot, lambda: "(move orders)" in _progress(window), 10)
    assert _progress(window) == "Preparing the engine — 0 of 4 (move orders)"
    assert window.engine_status.bar.value() == 0 and window.engine_status.bar.maximum() == 4
    gates.open("move orders")
    wait_until(qtbot, lambda: "1 of 4" in _progress(window), 10)
    assert _progress(window) == "Preparing the engine — 1 of 4 (tie-break studies)"
    gates.open_all()
    wait_until(qtbot, lambda: warm.over, 10)
    qtbot.wait(50)
    assert not window.engine_status.isVisible() and window.engine_status.label.text() == ""
    assert on_gui and all(on_gui)                # every report handled on the GUI thread
    assert gates.threads == {"knightgui-warm-up"}


def test_a_solve_asked_for_meanwhile_waits_says_so_and_starts_when_its_stages_are_done(
        gates, window, qtbot):
    warm = window.engine
    solved = []
    window.worker.tourSolved.connect(lambda gen, res: solved.append(res))
    warm.start()
    wait_until(qtbot, lambda: "(move orders)" in _progress(window), 10)
    window.solve()                                     # 8×8 from a8: tours, backtracking
    assert window.statusBar().currentMessage() == WAIT_TEXT
    assert warm.waiting("board") and not window.results.running
    assert window.act.cancel.isEnabled()
    gates.open("move orders")
    # the stages the solve needs go before the tie-break study
    wait_until(qtbot, lambda: "(tours)" in _progress(window), 10)
    gates.open("tours")
    wait_until(qtbot, lambda: "(backtracking)" in _progress(window), 10)
    qtbot.wait(100)
    assert solved == [] and window.statusBar().currentMessage() == WAIT_TEXT
    gates.open("backtracking")
    wait_until(qtbot, lambda: solved, 60)
    assert solved[0].ok and not warm.waiting("board")
    assert gates.ran == ["move orders", "tours", "backtracking", "tie-break studies"]
    assert "3 of 4 (tie-break studies)" in _progress(window)     # the rest goes on


def _solve_waiting(window):
    """Start the warm-up and ask for a solve, which waits for its stage: the warm-up and the
    list the solved tours go to."""
    warm = window.engine
    solved = []
    window.worker.tourSolved.connect(lambda gen, res: solved.append(res))
    warm.start()
    window.solve()
    assert warm.waiting("board")
    return warm, solved


def test_cancel_drops_a_waiting_solve(gates, window, qtbot):
    warm, solved = _solve_waiting(window)
    window.cancel()
    assert not warm.waiting("board") and not window.act.cancel.isEnabled()
    gates.open_all()
    wait_until(qtbot, lambda: warm.over, 10)
    qtbot.wait(200)
    assert solved == [] and not window.results.running


def test_changing_the_board_drops_a_waiting_solve(gates, window, qtbot):
    warm, solved = _solve_waiting(window)
    window.controls.model.update(rows=10, cols=10)
    assert not warm.waiting("board") and not window.act.cancel.isEnabled()
    gates.open_all()
    wait_until(qtbot, lambda: warm.over, 10)
    qtbot.wait(200)
    assert solved == []


def test_a_study_asked_for_meanwhile_waits_for_its_stage(gates, window, qtbot):
    warm = window.engine
    warm.start()
    wait_until(qtbot, lambda: "(move orders)" in _progress(window), 10)
    page = window.open_analysis().show_page("Move orders")
    page.size_spin.setValue(5)
    page.run()
    assert page.status.text() == WAIT_TEXT and not page.runner.running
    assert warm.waiting("analysis")
    gates.open("move orders")
    wait_until(qtbot, lambda: page.runner.running or page.orders_result is not None, 10)
    wait_until(qtbot, lambda: not page.runner.running, 120)
    assert page.orders_result is not None and page.orders_result.complete
