"""Phadke's JSON checkpoints (``knightgui-phadke-checkpoint``): the finished algorithms of a
:func:`knightgui_core.studies.phadke.run` with ``checkpoint=``, written atomically and read
back through the safe reader (:mod:`knightgui_core.system.files`): a FIFO, a device or a file
above :data:`CHECKPOINT_BYTES` is refused unread; JSON nested too deep, holding ``Infinity``
or numbers beyond int64 is refused before it becomes a count."""
from __future__ import annotations

import errno
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...system.files import FileRefused, read_json, write_text
from ...system.text import INT64_MAX, JsonRefused

__all__ = ["CHECKPOINT_BYTES", "read_checkpoint", "load_checkpoint", "save_checkpoint"]

#: An old checkpoint of all 22,432 algorithms is about 1.2 MB; larger files are refused unread.
CHECKPOINT_BYTES = 16 * 2**20


def read_checkpoint(path: str | os.PathLike[str], algos: Iterable[Any]) -> dict:
    """The finished algorithms of the JSON checkpoint ``path`` among ``algos``: id ->
    (solutions, dead ends, forward moves). A record whose id and key match none of ``algos``,
    or whose counts are not whole numbers in 0..2**63-1, is skipped. The file is read through
    the safe reader: :class:`~knightgui_core.system.files.FileRefused` (an ``OSError``) for a
    FIFO, device, folder or a file above :data:`CHECKPOINT_BYTES`;
    :class:`~knightgui_core.system.text.JsonRefused` (a ``ValueError``) for JSON nested too
    deep, holding ``Infinity`` or numbers beyond int64, or not a checkpoint."""
    d = read_json(path, CHECKPOINT_BYTES)
    if not isinstance(d, dict) or d.get("format") != "knightgui-phadke-checkpoint":
        raise JsonRefused("not a knightgui phadke checkpoint")
    keys = {a.id: a.key for a in algos}
    out = {}
    done = d.get("done")
    for rec in done if isinstance(done, list) else []:
        if (isinstance(rec, list) and len(rec) == 5 and type(rec[0]) is int
                and keys.get(rec[0]) == rec[1]
                and all(type(v) is int and 0 <= v <= INT64_MAX for v in rec[2:])):
            out[rec[0]] = (rec[2], rec[3], rec[4])
    return out


def load_checkpoint(path: Path, algos: Iterable[Any]) -> dict:
    """:func:`read_checkpoint` for :func:`~knightgui_core.studies.phadke.run`: a missing file
    or JSON that is no checkpoint counts as none (it is rewritten as the run finishes work);
    a file the safe reader refuses (a FIFO, a device, a folder, too big) is an error, raised
    before any work."""
    try:
        return read_checkpoint(path, algos)
    except ValueError:
        return {}
    except FileRefused as e:
        if e.errno == errno.ENOENT:
            return {}
        raise


def save_checkpoint(path: Path, algos: Iterable[Any], counts: dict) -> None:
    """Write ``counts`` (id -> counts) of ``algos`` to ``path`` atomically."""
    keys = {a.id: a.key for a in algos}
    done = [[i, keys[i], *counts[i]] for i in sorted(counts) if i in keys]
    write_text(path, json.dumps({"format": "knightgui-phadke-checkpoint", "version": 1,
                                 "done": done}, separators=(",", ":")), make_parents=True)
