import os
import signal

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# A suite started in the background of a non-interactive shell (`make test &`, a CI runner)
# inherits SIGINT ignored, and so would every process a test starts: the tests of Ctrl-C need
# it heard, so the run (each xdist worker too) restores Python's handler, which the children
# then start with.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# The same for SIGHUP under `nohup make test`: the tests of a hang-up send it to the processes
# they start (and to their own), which would otherwise inherit it ignored.
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _own_config_folder(tmp_path_factory):
    """Every window a test starts in a subprocess (the app, the smoke exit, the bundle) saves
    its settings under XDG_CONFIG_HOME when it closes: a folder of the test run's own, never
    the user's. (In-process windows: tests/gui/conftest.py points QSettings there too.)"""
    old = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))
    yield
    if old is None:
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        os.environ["XDG_CONFIG_HOME"] = old


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "jit_only: inspects numba's JIT (dispatchers, its cache); skipped when the "
                   "suite runs on the ahead-of-time kernels (KNIGHTGUI_KERNELS=aot)")


def pytest_collection_modifyitems(config, items):
    import knightgui_core.system.jit
    if knightgui_core.system.jit.MODE != "aot":
        return
    skip = pytest.mark.skip(reason="numba JIT only: the kernels are the compiled knightgui_aot")
    for item in items:
        if "jit_only" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="module")
def _close_local_dask_clusters():
    """A module that ran studies on the runner leaves no local Dask cluster behind: its
    threads (heartbeats, monitors) would take time from later modules' timing tests."""
    yield
    import sys
    runner = sys.modules.get("knightgui_core.run.runner")
    if runner is not None:
        runner.shutdown_local()


@pytest.fixture
def address_space():
    """A context manager factory: inside ``address_space(extra)`` this process may map at most
    ``extra`` more bytes (RLIMIT_AS), so a reader that swallows /dev/zero or allocates what a
    hostile header claims gets a MemoryError instead of the machine's memory."""
    import contextlib
    import resource

    @contextlib.contextmanager
    def limit(extra: int = 1 << 30):
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = size + extra if hard == resource.RLIM_INFINITY else min(size + extra, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        try:
            yield
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))

    return limit
