"""The window's controls follow the mode: what cannot act now is disabled (stepping with
nothing to step, Watch where nothing can be watched, Animate without a tour), and every
toolbar control is in sight at 1024 px; in play mode the run docks each say their own."""
from __future__ import annotations

from PySide6.QtWidgets import QToolBar

from gui_helpers import open_exhaustive, some_tour, wait_until


def _stepping(window):
    a = window.act
    return (a.first, a.prev, a.next, a.last, a.play, a.jump_box, a.play_speed)


def test_a_fresh_window_enables_only_what_can_act(window):
    a = window.act
    assert a.solve.isEnabled()
    assert not any(x.isEnabled() for x in _stepping(window))
    assert not any(x.isEnabled() for x in (a.watch, a.watch_speed, a.watch_pause,
                                           a.watch_step, a.anim, a.anim_speed))
    window.show_tour(some_tour(8, 8))              # a tour on the board: Animate
    assert a.anim.isEnabled() and a.anim_speed.isEnabled()
    assert not any(x.isEnabled() for x in _stepping(window))


def test_exhaustive_runs_enable_stepping_and_watch(window, qtbot):
    a = window.act
    open_exhaustive(window, 6, "a1")
    assert a.watch.isEnabled() and not a.watch_pause.isEnabled()
    window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    assert all(x.isEnabled() for x in _stepping(window)) and a.anim.isEnabled()
    a.watch.setChecked(True)
    window.solve()
    assert window.watcher.active and a.watch_pause.isEnabled() and a.watch_step.isEnabled()
    assert not any(x.isEnabled() for x in _stepping(window))
    window.cancel()
    assert not a.watch_pause.isEnabled() and not a.watch_step.isEnabled()


def test_play_mode_disables_stepping_watch_and_animate(window, qtbot):
    open_exhaustive(window, 6, "a1")
    window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    window.controls.model.update(mode="play")
    a = window.act
    assert not any(x.isEnabled() for x in _stepping(window))
    assert not a.watch.isEnabled() and not a.anim.isEnabled()
    window.controls.model.update(mode="exhaustive")
    assert a.watch.isEnabled()


def test_every_toolbar_control_is_in_sight_at_1024(window, qtbot):
    window.resize(1024, 700)
    wait_until(qtbot, lambda: window.width() == 1024, timeout=5)
    tb = window.findChild(QToolBar, "stepping")
    right = tb.mapTo(window, tb.rect().topRight()).x()
    for act in tb.actions():
        w = tb.widgetForAction(act)
        if act.isSeparator() or w is None:
            continue
        qtbot.waitUntil(w.isVisible, timeout=2000)
        assert w.mapTo(window, w.rect().topRight()).x() <= right, act.text()


def test_the_go_to_label_follows_its_box(window, qtbot):
    from PySide6.QtWidgets import QLabel
    tb = window.findChild(QToolBar, "stepping")
    label = next(x for x in tb.findChildren(QLabel) if x.text().strip() == "Go to")
    assert not window.act.jump_box.isEnabled() and not label.isEnabled()
    open_exhaustive(window, 6, "a1")
    window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    assert window.act.jump_box.isEnabled() and label.isEnabled()


def test_disabled_toolbar_icons_look_disabled(window):
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon

    def ink(img) -> int:
        return sum(img.pixelColor(x, y).alpha() for x in range(img.width())
                   for y in range(img.height()))
    a = window.act
    for act in (a.first, a.prev, a.next, a.last, a.play, a.watch_pause):
        icon = act.icon()
        normal = icon.pixmap(QSize(24, 24), QIcon.Mode.Normal).toImage()
        off = icon.pixmap(QSize(24, 24), QIcon.Mode.Disabled).toImage()
        assert ink(off) < 0.5 * ink(normal), act.text()


def test_a_watch_stopped_while_paused_leaves_pause_up_for_the_next(window, qtbot):
    a = window.act
    open_exhaustive(window, 6, "a1")
    a.watch.setChecked(True)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.active)
    a.watch_pause.trigger()                          # paused
    assert a.watch_pause.isChecked() and window.watcher.paused
    window.cancel()                                  # Esc
    assert not a.watch_pause.isChecked()
    window.solve()                                   # the next watch plays, as Pause says
    wait_until(qtbot, lambda: window.watcher.active)
    assert not window.watcher.paused and not a.watch_pause.isChecked()
    window.cancel()
