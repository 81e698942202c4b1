"""Play mode tried as a user would, on a virtual X server: real X clicks on the squares and
real key presses for the shortcuts (xdotool), a screenshot of the screen (ImageMagick's
``import``) after each step, and the status line printed beside its name.

    Xvfb :97 -screen 0 1280x820x24 &
    DISPLAY=:97 QT_QPA_PLATFORM=xcb .venv/bin/python bench/_play_screenshots.py SCENE [FOLDER]

SCENE: ``6x6`` (a tour by hand with hints, a click back, redos and two undos), ``lost`` (a
lost position, a refused square, "Can it be finished?" both ways), ``closed8`` (an 8×8
closed tour finished by the rule), ``torus`` (the zebra on the 10×10 torus, hint and finish).
Fresh settings in a temporary folder; FOLDER defaults to /tmp/playshots. The user guide's
pictures of play mode are two of these: ``lost4_finish_shown.png`` is
docs/guide/img/window-play-8x8.png and ``torus1_zebra.png`` is window-play-zebra-torus.png."""
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp())
from PySide6.QtCore import QPointF, Qt  # noqa: E402 - after the settings folder is set
from PySide6.QtWidgets import QApplication  # noqa: E402

app = QApplication(sys.argv)
from knightgui import settings  # noqa: E402 - after the QApplication

settings.use_folder(tempfile.mkdtemp())
from knightgui.window.main import MainWindow  # noqa: E402

w = MainWindow(restore_settings=False)
w.show()
w.resize(1280, 820)
w.move(0, 0)

def pump(sec=0.3):
    t = time.time() + sec
    while time.time() < t:
        app.processEvents()
        time.sleep(0.01)

def shot(name):
    pump(0.4)
    subprocess.run(["import", "-window", "root", os.path.join(OUT, f"{name}.png")], check=True)
    print(name, "|", w.statusBar().currentMessage(), flush=True)

def click(sq_name):
    """A real X click (xdotool) at the square's centre on the screen."""
    b = w.play.model.board
    s = b.parse(sq_name)
    col, row = s % b.cols, s // b.cols
    pt = w.view.vb.mapViewToScene(QPointF(col + 0.5, row + 0.5))
    g = w.view.viewport().mapToGlobal(w.view.mapFromScene(pt))
    subprocess.run(["xdotool", "mousemove", str(g.x()), str(g.y()), "click", "1"], check=True)
    pump(0.25)

def key(k, mod=Qt.KeyboardModifier.NoModifier):
    w.activateWindow()
    w.view.setFocus()
    pump(0.1)
    names = []
    if mod & Qt.KeyboardModifier.ControlModifier:
        names.append("ctrl")
    if mod & Qt.KeyboardModifier.ShiftModifier:
        names.append("shift")
    names.append(k.name[4:].lower())
    subprocess.run(["xdotool", "key", "+".join(names)], check=True)
    pump(0.3)

def wait(cond, sec=60):
    t = time.time() + sec
    while not cond() and time.time() < t:
        pump(0.05)

pump(1.5)
scene = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/playshots"
os.makedirs(OUT, exist_ok=True)
if scene == "6x6":
    w.controls.model.update(rows=6, cols=6)
    key(Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)        # Ctrl+P: play mode
    shot("play0_mode")
    for s in "a1 b3 a5 c6".split():
        click(s)
    key(Qt.Key.Key_H)
    shot("play1_hint")
    # follow hints for a while
    for _ in range(10):
        h = w.play.model.hint()
        s = w.play.model.name(h.choice)
        click(s)
    click("a1")          # a refused / click-back? a1 is visited: goes back
    shot("play2_clickback")
    key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    # play on by hints to the end, with two undos on the way
    undos = 0
    while not w.play.model.finished:
        h = w.play.model.hint()
        if h is None or h.choice < 0:
            key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
            undos += 1
            if undos > 40:
                break
            continue
        click(w.play.model.name(h.choice))
        if len(w.play.model.path) == 20 and undos < 2:
            key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
            key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
            shot("play3_two_undos")
            undos = 2
            key(Qt.Key.Key_H)
    shot("play4_6x6_done")
elif scene == "lost":
    key(Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    for s in "c2 a3 b1 d2 b3 d4".split():
        click(s)
    shot("lost1_marked")
    click("a1")   # refused
    shot("lost2_refused")
    key(Qt.Key.Key_C)
    wait(lambda: w.play.model.answer is not None)
    shot("lost3_no_finish")
    w.play.new()
    for s in "a1 b3 c5 d7 f8 h7 g5".split():
        click(s)
    w.controls.play_box.ask_btn.click()
    wait(lambda: w.play.model.answer is not None)
    shot("lost4_finish_shown")
elif scene == "closed8":
    w.controls.model.update(closed=True)
    key(Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    for s in "a8 c7 e8".split():
        click(s)
    key(Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)      # Solve = finish it
    wait(lambda: w.play.model.finished)
    shot("closed8_finished")
elif scene == "torus":
    w.controls.model.update(rows=10, cols=10, topology="torus", leaper="2,3")
    key(Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    click("e5")
    for _ in range(12):
        click(w.play.model.name(w.play.model.hint().choice))
    key(Qt.Key.Key_H)
    shot("torus1_zebra")
    w.controls.play_box.finish_btn.click()
    wait(lambda: w.play.model.finished)
    shot("torus2_finished")
w.close()
