"""Hostile text in the window's fields (issue 9): every combination either becomes a valid
request or a message in the controls, never an exception. 300 examples in `make test`,
10,000 in `make stress`. Also: a settings file full of garbage restores to sane defaults."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knightgui.panels.controls.panel import ControlsPanel

EXAMPLES = 10_000 if os.environ.get("KNIGHTGUI_STRESS") == "1" else 300

texts = st.one_of(st.text(max_size=16), st.from_regex(r"\A[a-zA-Z]?\d{0,4}([, ]\d{0,4})?\Z"),
                  st.sampled_from(["a1", "h8", "c7", "z9", "0,0", "3,7", "99,99", "", " ",
                                   "12345678", "87654321", "⟨1,2⟩", "-1,2", "a" * 300]))


def test_hostile_field_values_become_requests_or_messages(qtbot):
    panel = ControlsPanel()
    qtbot.addWidget(panel)
    got = {"requests": 0, "messages": 0}
    panel.solveRequested.connect(lambda req: got.__setitem__("requests", got["requests"] + 1))

    sizes = st.one_of(st.integers(-5, 40), st.integers(-5, 3000))
    starts = st.one_of(st.sampled_from(["a1", "b1", "c3", "e5", "1,1", "2,3"]), texts)
    orders = st.one_of(st.sampled_from(["12345678", "87654321", "18273645"]), texts)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(rows=sizes, cols=sizes, start=starts, order=orders,
           closed=st.booleans(), exhaustive=st.booleans(), tie=st.integers(0, 10),
           seed=st.integers(-10, 2**40))
    def one(rows, cols, start, order, closed, exhaustive, tie, seed):
        panel.square_lock.setChecked(False)
        panel.rows.setValue(rows)
        panel.cols.setValue(cols)
        panel.closed.setChecked(closed)
        panel.mode.setCurrentIndex(panel.mode.findData("exhaustive" if exhaustive
                                                       else "single"))
        panel.tie.setCurrentIndex(tie % panel.tie.count())
        panel.seed.setValue(max(min(seed, panel.seed.maximum()), 0))
        panel.start.setText(start)
        panel.start.editingFinished.emit()
        panel.order.setText(order)
        before = got["requests"]
        panel.note.setText("")
        panel.submit()   # noqa: SLF001 - the Solve button's slot
        if got["requests"] == before:
            got["messages"] += 1
            assert panel.note.text(), "a refused request must say why"

    one()
    assert got["requests"] > 0 and got["messages"] > 0


def test_garbage_settings_restore_to_sane_values(qtbot):
    panel = ControlsPanel()
    qtbot.addWidget(panel)
    panel.set_state({"rows": "many", "cols": None, "square": [], "closed": {"x": 1},
                     "mode": 42, "start": object(), "tie": "nope", "order": 3.5,
                     "seed": "-", "method": None, "keep": -7, "dashes": "oops"})
    st = panel.state()
    assert st["rows"] >= 1 and st["cols"] >= 1
    assert isinstance(st["start"], str) and isinstance(st["order"], str)
