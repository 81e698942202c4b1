"""The tie-break page's trials control: seeds per size for the rules with random residual
ties, the per-size success rates with their 95 % intervals in the tables and the plot
(offscreen)."""
import numpy as np
import pytest

from knightgui.analysis.window import AnalysisWindow
from knightgui_core.board.rules import RANDOM_RULES
from knightgui_core.studies.tiebreaks.result import wilson_interval


@pytest.fixture
def page(qtbot):
    v = AnalysisWindow()
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    yield v, v.show_page("Tie-breaks")
    assert v.shutdown(30000)


def run(qtbot, view, page):
    page.tie_result = None
    page.run_tiebreaks()

    def ended():
        assert not page.status.text().startswith("Failed"), page.status.text()
        return not view.running and page.tie_result is not None
    qtbot.waitUntil(ended, timeout=120000)
    return page.tie_result


def cell(table, row, col):
    return table.item(row, col).text()


def test_trials_spin_box_defaults_and_tooltip(page):
    _, p = page
    s = p.trials_spin
    assert (s.minimum(), s.maximum(), s.value()) == (1, 1000, 10)
    assert "95 %" in s.toolTip() and all(r in s.toolTip() for r in RANDOM_RULES)
    assert s.isVisible() and s.width() >= 60
    # the sample size only matters for sampled starts
    assert not p.sample_spin.isEnabled()
    p.starts_combo.setCurrentText("sample")
    assert p.sample_spin.isEnabled()


def test_trials_reach_the_study_tables_and_plot(qtbot, page):
    view, p = page
    p.nmax_spin.setValue(25)
    p.trials_spin.setValue(7)
    res = run(qtbot, view, p)
    sizes = list(range(5, 26))
    for r, rule in enumerate(res.rules):
        assert res.trials[r] == (7 if rule in RANDOM_RULES else 1), rule
    # the rule table: trials, walks, and the rate with its interval
    rows = {cell(p.rule_table, i, 0): i for i in range(p.rule_table.rowCount())}
    i = rows["random"]
    assert cell(p.rule_table, i, 1) == "7" and cell(p.rule_table, i, 2) == f"{7 * 21:,}"
    d = res.summary()["random"]
    lo, hi = (float(v) for v in wilson_interval(d.completed, d.walks))
    assert d.success_rate is not None
    assert cell(p.rule_table, i, 4) == \
        f"{100 * d.success_rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    assert cell(p.rule_table, rows["first"], 1) == "1" and "[" not in cell(p.rule_table,
                                                                          rows["first"], 4)
    # the per-size table shows a random rule first, one row per n, as the JSON's by_n
    assert p.by_n_rule == "random" and "7 trials" in p.by_n_label.text()
    t = p.by_n_table
    by_n = res.by_n("random")
    assert t.rowCount() == len(by_n) == 21
    for row, n in enumerate(sizes):
        rate = by_n[n]
        assert cell(t, row, 0) == str(n) and cell(t, row, 1) == "7"
        assert cell(t, row, 2) == str(rate.completed)
        assert cell(t, row, 3) == f"{100 * rate.success_rate:.1f}%"
        lo, hi = rate.ci95
        assert cell(t, row, 4) == f"{100 * lo:.1f} – {100 * hi:.1f}%"
    # the plot: a band per random rule, the study's intervals size by size (window 1)
    plot = p.success_plot
    assert set(plot.bands) == set(RANDOM_RULES) and plot.window == 1
    low, high = res.interval()
    r = res.rules.index("random")
    x, blo, bhi = plot.bands["random"]
    assert x.tolist() == sizes
    assert np.allclose(blo, low[r]) and np.allclose(bhi, high[r])
    assert (blo <= res.success_rate()[r]).all() and (res.success_rate()[r] <= bhi).all()
    assert "95 %" in plot.lines.titleLabel.text
    # another rule, clicked: its rows (one walk per size)
    p._rule_clicked(rows["first"], 0)
    assert p.by_n_rule == "first" and t.rowCount() == 21
    assert {cell(t, k, 1) for k in range(21)} == {"1"}
    assert {cell(t, k, 4) for k in range(21)} == {"—"}      # one fixed walk: no interval


def test_one_trial_draws_no_band_and_a_wide_range_pools_the_window(qtbot, page):
    view, p = page
    p.trials_spin.setValue(1)
    p.nmax_spin.setValue(20)
    res = run(qtbot, view, p)
    assert set(res.trials.tolist()) == {1} and p.success_plot.bands == {}
    # 3 trials on n = 5 … 44: windows of 2 sizes, walks pooled over each window
    p.trials_spin.setValue(3)
    p.nmax_spin.setValue(44)
    res = run(qtbot, view, p)
    plot = p.success_plot
    assert plot.window == 2
    x, lo, hi = plot.bands["pohl-random"]
    r = res.rules.index("pohl-random")
    c = int(res.completed[r][:2].sum())
    assert x[0] == 5.5 and len(x) == 40 - 1
    assert lo[0] <= c / 6 <= hi[0] and hi[0] - lo[0] > 0.2      # six walks: a wide interval
