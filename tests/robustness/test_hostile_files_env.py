"""Generated hostile input for the entry points added by issue 15: solutions files, the safe
writer's file names, the environment check, the rotation repair's tables, and the CLI with a
broken stdout. Each ends in the documented error or a correct result; a crash (a signal)
would kill the test process. `make test` runs 300 cases each, `make stress` 10,000."""
from __future__ import annotations

import atexit
import io
import os
import shutil
import tempfile

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from knightgui_core.board.squares import Board
from knightgui_core.system import files
from knightgui_core.system.environment import MAX_THREADS, check_environment
from knightgui_core.tietree.enumeration.enumerator import EnumerationError
from knightgui_core.tietree.enumeration.solution_reader import open_solutions
from knightgui_core.tietree.enumeration.solution_writer import NPY_HEADER_BYTES
from knightgui_core.walks.close_kernel import repair_closed

N = 10_000 if os.environ.get("KNIGHTGUI_STRESS") == "1" else 300
FUZZ = settings(max_examples=N, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
FOLDER = tempfile.mkdtemp(prefix="kg-hostile-")     # one per process, removed at its exit
atexit.register(shutil.rmtree, FOLDER, True)


def _npy(shape, descr) -> bytes:
    head = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
    head = head + b" " * (NPY_HEADER_BYTES - 10 - len(head) - 1) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(head).to_bytes(2, "little") + head


blobs = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda s, d, body: _npy(s, d) + body,
              st.tuples(st.integers(0, 5), st.integers(0, 9), st.integers(0, 9)),
              st.sampled_from(["|u1", "<u2", "<i4", "<f8", "|b1", "<U3", "|O"]),
              st.binary(max_size=400)),
    st.builds(lambda rows: ("solution,branch,path\n" + "\n".join(rows)).encode(),
              st.lists(st.text(alphabet="abcdefgh12345678, \"-", max_size=40), max_size=4)),
    st.builds(lambda t: t.encode(), st.from_regex(
        r'\A\{"format":"knightgui-enumeration","rows":[0-9]{1,3},"cols":[0-9]{1,3},'
        r'"solutions_listed":\[\{"index":1,"branch":0,"path":\[(\[[0-9-]{1,2},[0-9]\],?)*\]'
        r'\}\]\}\Z')))


@FUZZ
@given(blob=blobs, ext=st.sampled_from([".npy", ".csv", ".json"]))
@example(blob=b"solution,branch,path\n,,", ext=".csv")        # found by make stress
@example(blob=b"\r\x00", ext=".csv")     # a bare CR: csv.Error (found by make stress, 27 Nov)
def test_solutions_files(blob, ext):
    p = os.path.join(FOLDER, "s" + ext)
    with open(p, "wb") as f:
        f.write(blob)
    try:
        sf = open_solutions(p)
    except EnumerationError as e:
        assert str(e)
        return
    for i in range(min(len(sf), 3)):
        try:
            path = sf.path(i)
        except (EnumerationError, IndexError) as e:
            assert str(e)
        else:
            assert sorted(path.tolist()) == list(range(sf.board.size))


names = st.one_of(st.text(max_size=30), st.sampled_from(
    ["", ".", "..", "/", "/dev/null", "/dev/full", "/dev/zero", "/proc/self/mem", "a\0b",
     "x/" * 40, "/nonexistent-dir/x.json", " ", "\n", "é" * 100, "a" * 300]))


@FUZZ
@given(name=names, data=st.binary(max_size=64))
def test_writer_and_reader_names(name, data):
    here = tempfile.mkdtemp(dir=FOLDER)            # a fresh folder per case
    p = name if name.startswith("/") else os.path.join(here, name)
    try:
        files.write_bytes(p, data)
    except OSError as e:            # FileRefused among them: one sentence
        assert str(e)
    else:
        assert files.read_bytes(p) == data
    try:
        files.read_bytes(p, limit=1 << 20)
    except OSError as e:
        assert str(e)
    mine = os.path.basename(p)
    assert not [n for n in os.listdir(here) if n.endswith(".tmp") and n != mine]


env_values = st.one_of(st.text(max_size=12), st.integers(-5, 5000).map(str),
                       st.sampled_from(["0", "1", "max", "tbb", " 3 ", "", "1e3", "-1"]))


@FUZZ
@given(env=st.dictionaries(st.sampled_from(
    ["NUMBA_NUM_THREADS", "NUMBA_BOUNDSCHECK", "NUMBA_OPT", "NUMBA_DISABLE_JIT",
     "NUMBA_THREADING_LAYER", "KNIGHTGUI_CACHE_DIR", "NUMBA_CACHE_DIR", "OTHER"]), env_values))
@example(env={"NUMBA_NUM_THREADS": "²"})      # a Unicode digit int() refuses (make stress)
def test_environment_values(env):
    before = dict(os.environ)
    try:
        dropped = check_environment(env)
    finally:
        os.environ.clear()
        os.environ.update(before)
    assert set(dropped).isdisjoint(env)
    v = env.get("NUMBA_NUM_THREADS")
    assert v is None or 1 <= int(v) <= MAX_THREADS


@FUZZ
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["values", "stats", "cols"]))
def test_repair_tables(seed, mode):
    rng = np.random.default_rng(seed)
    b = Board(6, 6)
    nbr = b.neighbours.copy()
    path = rng.permutation(36)
    stats = None
    cols = None
    if mode == "values":
        idx = rng.integers(0, nbr.size, size=3)
        nbr.reshape(-1)[idx] = rng.choice([-2, -1, 35, 36, 2**31 - 1, -2**31], size=3)
    elif mode == "stats":
        stats = [np.zeros(int(rng.integers(0, 4)), np.int64), np.zeros(2, np.int32),
                 np.zeros(3, np.float64)][int(rng.integers(0, 3))]
    else:
        cols = int(rng.integers(-3, 50))
    try:
        ok, out = repair_closed(nbr, path, max_steps=50, seed=seed, cols=cols, stats=stats)
    except ValueError as e:
        assert str(e)
    else:
        assert sorted(out.tolist()) == list(range(36))


class _Broken(io.TextIOBase):
    """A stdout whose writes fail (a flush fails only with something written, as a real
    buffered stream's does)."""

    def __init__(self, err):
        self.err, self.dirty = err, False

    def write(self, s):
        self.dirty = True
        raise self.err

    def flush(self):
        if self.dirty:
            raise self.err


@settings(max_examples=max(N // 20, 50), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(argv=st.sampled_from([["solve", "--rows", "5", "--cols", "5"],
                             ["solve", "--rows", "8", "--cols", "8", "--json"],
                             ["check", "/dev/null"], ["enumerate", "--start", "a8", "--end",
                                                      "c7", "--first", "2", "--json"]]),
       err=st.sampled_from([BrokenPipeError(32, "Broken pipe"), OSError(28, "No space left"),
                            ValueError("I/O operation on closed file")]))
def test_cli_with_a_broken_stdout(argv, err):
    import sys

    from knightgui.cli import run
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Broken(err), io.StringIO()
    try:
        code = run(argv)
        said = sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = old_out, old_err
    assert code in (1, 2)
    assert "Traceback" not in said and len(said.strip().splitlines()) <= 1
