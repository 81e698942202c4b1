"""Analysis page "Uncrossed": a run adds a row with the proved length beside the published
one and shows the path on the board; a click shows it again (offscreen)."""
import pytest

from knightgui_core.walks.result import Walk


@pytest.fixture
def view(analysis_view):
    return analysis_view


def test_a_run_adds_a_row_and_shows_the_path(qtbot, view):
    page = view.show_page("Uncrossed")
    page.rows_spin.setValue(5)
    page.cols_spin.setValue(5)
    shown = []
    page.show_tour.connect(shown.append)
    page.run()
    qtbot.waitUntil(lambda: page.results.rowCount() == 1, timeout=120000)
    cells = [page.results.item(0, j).text() for j in range(8)]
    assert cells[:5] == ["5×5", "path", "10", "4", "32"] and cells[7] == "10"
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=5000)
    walk = shown[0]
    assert isinstance(walk, Walk) and len(walk.path) == 11 and "10 moves" in walk.message
    page._row_clicked(0, 0)
    assert len(shown) == 2 and shown[1] is walk


def test_a_cycle_is_drawn_back_to_its_start(qtbot, view):
    page = view.show_page("Uncrossed")
    page.rows_spin.setValue(4)
    page.cols_spin.setValue(4)
    page.cycle_box.setChecked(True)
    shown = []
    page.show_tour.connect(shown.append)
    page.run()
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=120000)
    assert len(shown[0].path) == 5 and shown[0].path[0] == shown[0].path[-1]
    assert page.results.item(0, 2).text() == "4" and page.results.item(0, 7).text() == "4"
