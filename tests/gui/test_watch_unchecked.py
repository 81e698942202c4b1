"""Watch is unchecked where the mode disables it (play mode, the every-tour and symmetric
listings): a greyed Watch never shows checked, and it stays off when the mode allows it
again until the user checks it."""
from __future__ import annotations

from gui_helpers import open_exhaustive


def test_play_mode_unchecks_watch_and_leaving_it_does_not_recheck(window):
    a = window.act
    open_exhaustive(window, 6, "a1")
    a.watch.setChecked(True)
    window.controls.model.update(mode="play")
    assert not a.watch.isEnabled() and not a.watch.isChecked()
    window.controls.model.update(mode="exhaustive")
    assert a.watch.isEnabled() and not a.watch.isChecked()
    a.watch.trigger()                               # the user checks it again
    assert a.watch.isChecked()


def test_a_symmetric_listing_unchecks_watch(window):
    a = window.act
    open_exhaustive(window, 6, "a1")
    a.watch.trigger()
    assert a.watch.isChecked()
    window.controls.model.update(all_tours=True)
    assert not a.watch.isEnabled() and not a.watch.isChecked()
    window.controls.model.update(all_tours=False)
    assert a.watch.isEnabled() and not a.watch.isChecked()
