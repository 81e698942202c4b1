"""Packaging pieces that run without building the bundle: the smoke exit hook, the frozen
app's choice of kernels, the wheel's data files and the PyInstaller spec's choices."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

WINDOW = """
import sys
from knightgui import smoke
if sys.argv[1] == "watch":
    smoke.install_when_app_exists()
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
if sys.argv[1] in ("direct", "nowindow"):
    smoke.install_smoke_exit(app)
w = QLabel("knightgui smoke")
if sys.argv[1] != "nowindow":
    w.show()
sys.exit(app.exec())
"""


def _run_window(mode, **env):
    e = dict(os.environ, QT_QPA_PLATFORM="offscreen", **env)
    return subprocess.run([sys.executable, "-c", WINDOW, mode], env=e, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("mode", ["direct", "watch"])
def test_smoke_exit_quits_cleanly_after_first_frame(mode):
    r = _run_window(mode, KNIGHTGUI_SMOKE_EXIT_MS="50")
    assert r.returncode == 0, r.stderr
    m = re.search(r"knightgui smoke: first frame ([\d.]+) s after (.+?) \(epoch ([\d.]+)\)", r.stderr)
    assert m, r.stderr
    assert 0 < float(m.group(1)) < 60


def test_smoke_exit_reports_a_window_that_never_paints():
    r = _run_window("nowindow", KNIGHTGUI_SMOKE_EXIT_MS="0", KNIGHTGUI_SMOKE_TIMEOUT_S="0.5")
    assert r.returncode == 3
    assert "no frame within 0.5 s" in r.stderr


def test_smoke_is_inert_without_the_variable(monkeypatch):
    from knightgui import smoke

    monkeypatch.delenv(smoke.ENV_EXIT_MS, raising=False)
    assert smoke.requested() is None
    assert smoke.install_smoke_exit(object()) is False  # never touches the app
    assert smoke.install_when_app_exists() is False


def test_smoke_rejects_a_malformed_delay(monkeypatch):
    from knightgui import smoke

    monkeypatch.setenv(smoke.ENV_EXIT_MS, "soon")
    with pytest.raises(SystemExit, match="whole number"):
        smoke.requested()


def test_process_start_is_in_the_past():
    import time

    from knightgui.smoke import process_start_epoch

    start, how = process_start_epoch()
    assert start <= time.time()
    if sys.platform.startswith("linux"):
        assert how == "process start"


def test_frozen_app_uses_the_compiled_kernels_and_never_numba(tmp_path):
    """A frozen app (sys.frozen) picks the ahead-of-time kernels; without them it says how to
    build them instead of falling back to a numba that the bundle does not have."""
    code = ("import sys; sys.frozen = True\n"
            "try:\n"
            "    import knightgui_core.system.jit as j\n"
            "except ImportError as e:\n"
            "    print('ERR', e)\n"
            "else:\n"
            "    print('MODE', j.MODE)\n"
            "print('numba' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("KNIGHTGUI_KERNELS", "PYTHONPATH")}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "ERR knightgui's compiled kernels (knightgui_aot) are missing" in r.stdout
    assert "packaging/build_aot.py" in r.stdout and r.stdout.strip().endswith("False")
    # with a stand-in module: AOT mode, and still no numba
    (tmp_path / "knightgui_aot.py").write_text("")
    (tmp_path / "knightgui_aot_sig.py").write_text("SIGNATURES = {}\n")
    env["PYTHONPATH"] = str(tmp_path)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.stdout.split() == ["MODE", "aot", "False"], r.stdout + r.stderr


def test_spec_leaves_out_unused_qt_and_keeps_what_the_app_needs():
    spec = (ROOT / "packaging" / "knightgui.spec").read_text()
    for unused in ("QtWebEngineCore", "Qt3DCore", "QtQuick", "QtQml", "QtMultimedia"):
        assert f'"{unused}"' in spec
    for needed in ("QtCore", "QtGui", "QtWidgets", "QtSvg"):
        assert f'"{needed}"' not in spec
    assert '"knightgui_resources"' in spec and '"knightgui_aot"' in spec
    assert '"numba", "llvmlite"' in spec   # the bundle runs the ahead-of-time kernels


def test_wheel_ships_the_resources(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                        "-w", str(tmp_path)], capture_output=True, text=True, timeout=300)
    if r.returncode != 0 and "No matching distribution" in r.stderr:
        pytest.skip("setuptools not reachable for an isolated build")
    assert r.returncode == 0, r.stderr[-2000:]
    (wheel,) = tmp_path.glob("knightgui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    from knightgui.resources import ICON_SIZES

    for s in ICON_SIZES:
        assert f"knightgui_resources/icons/knightgui-{s}.png" in names
    for f in ("knightgui.svg", "knightgui-small.svg", "knightgui.desktop", "knightgui.qss",
              "__init__.py", "icons/knightgui.ico", "icons/knightgui.icns"):
        assert f"knightgui_resources/{f}" in names
    assert "knightgui/resources.py" in names and "knightgui/smoke.py" in names
    # the engine is installed under a name of its own, never as a bare "core" or "resources"
    assert "knightgui_core/walks/walk_kernel.py" in names
    tops = {n.split("/", 1)[0] for n in names if not n.startswith("knightgui-0")}
    assert tops == {"knightgui", "knightgui_core", "knightgui_resources"}, tops


def test_install_desktop_writes_entry_and_icons_then_uninstalls(tmp_path):
    import shutil

    exe = tmp_path / "odd dir $x" / "app"
    exe.parent.mkdir()
    shutil.copy("/bin/true", exe)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    script = ROOT / "packaging" / "install_desktop.sh"
    r = subprocess.run(["bash", str(script), str(exe)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    entry = (tmp_path / "data" / "applications" / "knightgui.desktop").read_text()
    # quoted, with $ escaped for the Exec field and the backslash escaped for the string
    assert f'Exec="{str(exe.parent)[:-2]}\\\\$x/app"' in entry
    assert f"TryExec={exe}\n" in entry
    from knightgui.resources import ICON_SIZES

    hicolor = tmp_path / "data" / "icons" / "hicolor"
    for s in ICON_SIZES:
        assert (hicolor / f"{s}x{s}" / "apps" / "knightgui.png").is_file()
    assert (hicolor / "scalable" / "apps" / "knightgui.svg").is_file()
    if shutil.which("desktop-file-validate"):
        v = subprocess.run(["desktop-file-validate",
                            str(tmp_path / "data" / "applications" / "knightgui.desktop")],
                           capture_output=True, text=True)
        assert v.returncode == 0, v.stdout
    r = subprocess.run(["bash", str(script), "--uninstall"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "data" / "applications" / "knightgui.desktop").exists()
    assert not list(hicolor.rglob("knightgui.*"))


def test_install_desktop_refuses_a_missing_program(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run(["bash", str(ROOT / "packaging" / "install_desktop.sh"),
                        str(tmp_path / "nope")], env=env, capture_output=True, text=True)
    assert r.returncode == 2 and "not an executable" in r.stderr
    assert not (tmp_path / "applications" / "knightgui.desktop").exists()


def test_every_package_folder_is_listed_for_the_wheel():
    """pyproject lists the packages by name (core/ installs as knightgui_core): a package
    folder missing from the list would be left out of the wheel and the bundle."""
    tomllib = pytest.importorskip("tomllib")
    root = ROOT
    with open(root / "pyproject.toml", "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    for top, name in (("core", "knightgui_core"), ("knightgui", "knightgui")):
        for init in (root / top).rglob("__init__.py"):
            parts = init.parent.relative_to(root / top).parts
            assert ".".join([name, *parts]) in listed, init.parent
