"""The window steps through every knight's path, not only Warnsdorff's (issue 26 item 4)."""
from __future__ import annotations

import numpy as np

from knightgui_core.tietree.alltours.all_tours_list import AllToursLister

from gui_helpers import open_exhaustive, wait_until


def test_every_path_from_a1_on_5x5_is_steppable(window, qtbot):
    open_exhaustive(window, 5, "a1")
    c = window.controls
    c.all_tours.setChecked(True)
    assert window.controls.model.settings.all_tours
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    want = AllToursLister(5, 5, "a1").first(1000)
    r = window.results
    assert r.exhausted and r.found == len(want) == len(r.store) == 304
    for i in (0, 1, 150, 303):
        assert r.show_solution(i)
        np.testing.assert_array_equal(window.view.path, want[i])
    assert window.matrix.caption.text().startswith("Path 304")
    assert r.tour is not None and r.tour.method["method"] == "all-tours"
    assert window.timing.labels["method"].text().startswith("every knight's path")


def test_every_path_shows_no_dead_end_count_it_does_not_have(window, qtbot):
    """Issue 35: "Dead ends 0" after 15.4 M forward moves. The every-path search prunes
    instead of counting dead ends, so no figure is shown for them, while running or done."""
    open_exhaustive(window, 6, "a1")
    window.controls.all_tours.setChecked(True)
    seen = []
    window.worker.progress.connect(
        lambda *_: seen.append(window.timing.labels["dead_ends"].text()))
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=120)
    r = window.results
    assert r.exhausted and r.found == 524_486
    assert window.timing.labels["forward"].text() != "0"
    shown = {*seen, window.timing.labels["dead_ends"].text()}
    assert shown == {"not counted (every-path search)"}
    status = window.statusBar().currentMessage()
    assert "524,486 solutions" in status and "dead end" not in status
