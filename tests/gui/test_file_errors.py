"""Every file action of the window and the Analysis view goes through one error path: a
refused file is one line (a dialog in the window, the status line in the Analysis view) and
nothing is lost."""
from __future__ import annotations

import numpy as np

from knightgui.window.files import attempt, file_error_text


def test_one_line_that_names_the_file_and_the_reason(tmp_path):
    e = OSError(28, "No space left on device")
    assert file_error_text(tmp_path / "t.json", e) == "t.json: No space left on device"
    assert file_error_text("x.csv", ValueError("line 3: not a square\nmore")) == \
        "x.csv: line 3: not a square"
    said, done = [], []
    assert not attempt("x", lambda: (_ for _ in ()).throw(IsADirectoryError(21, "Is a "
                                                                             "directory")),
                       said.append, done.append, "ok")
    assert said == ["x: Is a directory"] and done == []
    assert attempt("x", lambda: None, said.append, done.append, "ok") and done == ["ok"]


def test_window_file_actions_say_one_line_and_keep_the_tour(window, dialogs, tmp_path):
    from knightgui_core.walks.solve import solve
    res = solve(8, 8, start="a1")
    window.show_tour(res.tour)
    folder = tmp_path / "a-folder.json"
    folder.mkdir()
    for act in (window.files.save_tour, window.files.export_png, window.files.export_svg):
        dialogs.clear()
        assert act(filename=str(folder)) is False
        assert len(dialogs) == 1 and "a-folder.json" in dialogs[0][1]
        assert "\n" not in dialogs[0][1]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    dialogs.clear()
    assert window.files.open_tour(filename=str(bad)) is False
    assert len(dialogs) == 1 and dialogs[0][1].startswith("bad.json: ")
    np.testing.assert_array_equal(window.view.path, res.path)      # nothing lost


def test_analysis_exports_say_one_line_on_the_page(window, dialogs, tmp_path):
    view = window.open_analysis()
    page = view.page("Move orders")
    folder = tmp_path / "plots.png"
    folder.mkdir()
    page.write_file(str(folder), lambda: open(folder, "w"), "saved")
    assert page.status.text().startswith("Could not save plots.png: ")
    assert dialogs == []
