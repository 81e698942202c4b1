"""The application entry point: the window paints before numba is loaded; warm-up works."""
from __future__ import annotations

import os
import subprocess
import sys


def test_first_frame_comes_before_numba(tmp_path):
    env = dict(os.environ, KNIGHTGUI_FIRST_FRAME="1", QT_QPA_PLATFORM="offscreen",
               XDG_CONFIG_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", "from knightgui.app import main; "
                        "raise SystemExit(main([]))"], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("FIRST_FRAME"))
    assert line.endswith("numba=0")


def test_warm_up_loads_the_kernels_in_a_daemon_thread():
    from knightgui.app import start_warm_up
    from knightgui_core import kernel_exports
    from knightgui_core.system.compile_watch import watch_compiles
    from knightgui_core.warmup import warm_up
    t = start_warm_up()
    assert t.daemon
    t.join(300)
    assert not t.is_alive()
    assert "knightgui_core.tietree.enumeration.enumerator" in sys.modules
    assert "knightgui_core.walks.solve" in sys.modules

    def signatures():
        return {f"{mod}.{name}": len(getattr(getattr(sys.modules[f"knightgui_core.{mod}"], name),
                                             "signatures", ()))
                for mod, names in kernel_exports.EXPORTS.items() for name in names
                if f"knightgui_core.{mod}" in sys.modules}
    # the second time everything is loaded already: nothing is compiled or loaded again
    before, clock = signatures(), watch_compiles()
    try:
        warm_up()
    finally:
        if clock is not None:
            clock.stop()
    assert signatures() == before
    assert clock is None or clock.compiles == 0


def test_sigterm_and_sighup_close_the_window_and_save_its_settings(tmp_path):
    """``kill`` closes the window as its close button does: the settings file is written
    and the exit status is 128 + the signal's number."""
    import signal
    import time
    for sig in (signal.SIGTERM, signal.SIGHUP):
        conf = tmp_path / sig.name
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(conf),
                   KNIGHTGUI_SMOKE_EXIT_MS="600000")
        p = subprocess.Popen([sys.executable, "-c", "from knightgui.app import main; "
                              "raise SystemExit(main([]))"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            line = ""
            while "first frame" not in line and time.monotonic() < deadline:
                line = p.stderr.readline()             # the smoke line: the window is up
                assert line or p.poll() is None
            assert not list(conf.rglob("*.conf"))      # nothing saved before it is closed
            p.send_signal(sig)
            p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
        assert p.returncode == 128 + sig
        assert list(conf.rglob("*.conf"))              # the settings were saved on the way
