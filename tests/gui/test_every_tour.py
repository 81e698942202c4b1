"""The window steps through every knight's path, not only Warnsdorff's (issue 26 item 4)."""
from __future__ import annotations

import numpy as np

from knightgui_core.tietree.all_tours_list import AllToursLister

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
