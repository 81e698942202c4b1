"""A cached kernel is stale when ANY kernel file changed, not only its own: the index's stamp
holds every kernel file's (knightgui_core.system.kernel_cache.kernel_sources_stamp)."""
import os
import pickle

import pytest
from cache_helpers import KEY, assert_right, fill_cache, run_kernels, write_kernels

from knightgui_core.system import kernel_cache as kc


def _tree(tmp_path):
    top = tmp_path / "pkg"
    (top / "system").mkdir(parents=True)
    (top / "walks").mkdir()
    (top / "system" / "jit.py").write_text("x = 1\n")
    (top / "walks" / "walk_kernel.py").write_text("y = 2\n")
    (top / "walks" / "walk.py").write_text("not a kernel\n")
    return top


def test_the_stamp_follows_every_kernel_file_and_nothing_else(tmp_path):
    top = _tree(tmp_path)
    first = kc.kernel_sources_stamp(top)
    assert first[0] == 2                       # walk_kernel.py and system/jit.py
    (top / "walks" / "walk.py").write_text("another non-kernel file, longer\n")
    assert kc.kernel_sources_stamp(top) == first
    k = top / "walks" / "walk_kernel.py"
    k.write_text("y = 3\n")                    # same size: the time tells it
    os.utime(k, ns=(first[1] + 10**9, first[1] + 10**9))
    second = kc.kernel_sources_stamp(top)
    assert second != first and second[1] == first[1] + 10**9
    (top / "walks" / "other_kernel.py").write_text("z = 4\n")
    assert kc.kernel_sources_stamp(top)[0] == 3


def test_the_engine_stamps_its_own_kernels():
    count, newest, total = kc.kernel_sources_stamp()
    assert count > 20 and newest > 0 and total > 100_000


def _index_stamps(root):
    out = {}
    for p in sorted(root.rglob("*.nbi")):
        data = kc.read_sealed(str(p))
        end = kc._pickle_end(data)            # noqa: SLF001 - the index's own layout
        out[p] = pickle.loads(data[end:])[0]
    return out


@pytest.mark.jit_only
def test_an_index_of_other_kernel_files_is_compiled_again(tmp_path):
    """The stamp goes into every index a process that imported the engine writes (the two
    kernels of :mod:`cache_helpers` here); an index with another stamp is a miss, and the
    entry is compiled and its index rewritten with the stamp of now."""
    kernels = write_kernels(tmp_path / "kernels")
    root = fill_cache(kernels, tmp_path)
    now = kc.kernel_sources_stamp()
    stamps = _index_stamps(root / KEY)
    assert stamps and all(s[1] == now for s in stamps.values())
    # as if another kernel file had been edited since: every index names an older stamp
    old = (now[0], now[1] - 10**9, now[2])
    for p, (own, _kernels) in stamps.items():
        data = kc.read_sealed(str(p))
        end = kc._pickle_end(data)            # noqa: SLF001
        overloads = pickle.loads(data[end:])[1]
        kc.write_sealed(str(p), data[:end] + pickle.dumps(((own, old), overloads), protocol=-1))
    assert all(s[1] == old for s in _index_stamps(root / KEY).values())
    r = assert_right(run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=str(root)), 0)
    assert r.report["misses"] > 0 and r.report["hits"] == 0, r   # compiled again, quietly
    again = _index_stamps(root / KEY)
    assert again.keys() == stamps.keys() and all(s[1] == now for s in again.values())
