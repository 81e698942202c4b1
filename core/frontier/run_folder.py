"""A spilled count's own folder inside the spill folder: named by what is counted, owned by
one live run at a time, holding the run's progress so that the same count resumes.

``{parent}/knightgui-frontier-{key}``: ``key`` is a hash of the question (rows, lengths,
closed or open, the mirror fold, the forced end, the moduli, the key words), so the same
count asked again finds its folder. In it:

* ``owner`` — the pid and host of the run that has it, locked (``flock``) for the run's
  life. The lock goes with the process, however it ends (SIGKILL too), so a folder whose
  ``owner`` can be locked has no live run. The file is made under another name, locked,
  then linked in, so no one sees an ``owner`` that is not yet locked.
* ``progress.json`` — written (atomically: a new file, fsync, rename) before each cell
  from the second on: the code's version, the question, the next cell, its input files'
  segments with their rows and checksums, and what the count had summed so far.
* the slice files of that cell (and, while a cell runs, of the next).

A run removes the folders of dead runs in ``parent`` that hold no progress; one with
progress is left for its own count to resume (:meth:`RunFolder.open`: every slice file read
back against its checksum first, a damaged folder or one saved by another version of the
code refused in one line). A count that ends keeps nothing; one that stops keeps its
progress and the slice files it needs.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import socket
from collections.abc import Callable
from typing import Any

from ..system.files import write_text
from .merge import Segment, SpillError, _read_blocks, os_errors

__all__ = ["PREFIX", "OWNER", "PROGRESS", "RunFolder", "code_version", "question_key"]

PREFIX = "knightgui-frontier-"
OWNER = "owner"
PROGRESS = "progress.json"
#: the progress file's own format
FORMAT = 1


def code_version() -> str:
    """A hash of the frontier count's source (this folder's modules): a saved count is
    resumed only by the code that saved it."""
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            with open(os.path.join(here, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()[:16]


def question_key(question: dict[str, Any]) -> str:
    """The folder's name part for ``question`` (JSON): a hash of it."""
    text = json.dumps(question, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _try_lock(path: str) -> int | None:
    """A descriptor of ``path`` with its exclusive lock held, or None when another process
    holds it (or the file is gone)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _owner_of(path: str) -> str:
    try:
        with open(os.path.join(path, OWNER)) as f:
            return f.read().strip() or "another process"
    except OSError:
        return "another process"


class RunFolder:
    """The folder of one spilled count in ``parent`` (:func:`question_key` of ``question``);
    ``report(line)`` hears what is removed, resumed or kept."""

    def __init__(self, parent: str, question: dict[str, Any],
                 report: Callable[[str], None] | None = None) -> None:
        self.parent = parent
        self.question = question
        self.report = report
        self.path = os.path.join(parent, PREFIX + question_key(question))
        self.version = code_version()
        self.lock_fd: int | None = None
        self.saved = False
        #: the slice files the saved progress needs
        self.needed: set[str] = set()

    def _say(self, line: str) -> None:
        if self.report is not None:
            self.report(line)

    def open(self, width: int, words: int) -> dict[str, Any] | None:
        """Takes the folder (made if need be) and cleans the spill folder of dead runs'
        folders without progress; returns the saved progress to go on from (its slice
        files checked: ``width`` words a row, ``words`` of key), or None to start afresh.
        :class:`SpillError` in one line when a live run has the folder, or its progress is
        damaged or from another version of the code."""
        self._clean_dead()
        with os_errors(f"the spill folder {self.parent} cannot be written"):
            os.makedirs(self.path, exist_ok=True)
        self._lock()
        progress = self._load()
        if progress is None:
            self._empty()
            return None
        self._check(progress, width, words)
        self.needed = {str(f[2]) for f in progress["files"]}
        self._empty({OWNER, PROGRESS} | self.needed)
        self.saved = True
        return progress

    def _lock(self) -> None:
        """Holds the folder's ``owner`` lock: the file made locked under another name and
        linked in (a link fails where another run linked its own first), or the existing
        one when no live process holds it."""
        owner = os.path.join(self.path, OWNER)
        fd = _try_lock(owner)
        if fd is None and not os.path.exists(owner):
            tmp = os.path.join(self.path, f".{OWNER}-{os.getpid()}")
            with os_errors(f"the spill folder {self.path} cannot be taken"):
                fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                try:
                    os.link(tmp, owner)
                except FileExistsError:
                    os.close(fd)
                    fd = _try_lock(owner)
                finally:
                    os.remove(tmp)
        if fd is None:
            raise SpillError(f"the spill folder {self.path} is in use by a running count "
                             f"({_owner_of(self.path)}): wait for it to end or give "
                             "another --spill folder")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
        self.lock_fd = fd

    def _load(self) -> dict[str, Any] | None:
        path = os.path.join(self.path, PROGRESS)
        if not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                got = json.load(f)
            if not isinstance(got, dict) or got.get("format") != FORMAT:
                raise ValueError("not a progress file of this format")
        except (OSError, ValueError) as e:
            raise SpillError(f"the spill folder {self.path} holds a progress file that "
                             f"cannot be read ({e}): remove the folder to count "
                             "afresh") from None
        if got.get("version") != self.version:
            raise SpillError(f"the spill folder {self.path} holds a stopped count saved by "
                             "another version of the code: remove the folder to count "
                             "afresh")
        if got.get("question") != self.question:
            raise SpillError(f"the spill folder {self.path} holds a stopped count of "
                             "another board or options: remove it to count afresh")
        return got

    def _check(self, progress: dict[str, Any], width: int, words: int) -> None:
        """Every saved slice file reads back whole, against its checksums."""
        files: list[Segment] = progress["files"]
        try:
            for _ in _read_blocks(self.path, files, width, words):
                pass
        except SpillError as e:
            raise SpillError(f"the spill folder {self.path} holds a stopped count whose "
                             f"slices are damaged ({e}): remove the folder to count "
                             "afresh") from None

    def _empty(self, keep: set[str] = frozenset({OWNER})) -> None:   # type: ignore[assignment]
        """Removes every entry of the folder but ``keep``."""
        for name in os.listdir(self.path):
            if name not in keep:
                p = os.path.join(self.path, name)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    try:
                        os.remove(p)
                    except FileNotFoundError:
                        pass

    def _clean_dead(self) -> None:
        """Removes the folders of dead runs in the spill folder that hold no progress; says
        which are kept for their counts to resume."""
        try:
            names = os.listdir(self.parent)
        except OSError:
            return
        for name in sorted(names):
            path = os.path.join(self.parent, name)
            if not name.startswith(PREFIX) or path == self.path or not os.path.isdir(path):
                continue
            fd = _try_lock(os.path.join(path, OWNER))
            if fd is None:
                continue                    # a live run's, or not a folder of this kind
            try:
                if os.path.exists(os.path.join(path, PROGRESS)):
                    self._say(f"frontier: {path} holds a stopped count of another board "
                              "or options (the same count resumes it; remove it to free "
                              "the disk)")
                else:
                    shutil.rmtree(path, ignore_errors=True)
                    self._say(f"frontier: removed {path}, the folder of a count that "
                              "stopped before it saved any progress")
            finally:
                os.close(fd)

    def save(self, state: dict[str, Any]) -> None:
        """Writes the progress ``state`` (JSON) for the same count to go on from: a new
        file put on disk, then renamed over the old one."""
        body = {"format": FORMAT, "version": self.version, "question": self.question,
                **state}
        with os_errors(f"the spill folder {self.path} could not take the count's progress"):
            write_text(os.path.join(self.path, PROGRESS),
                       json.dumps(body, separators=(",", ":")))
        self.saved = True
        self.needed = {str(f[2]) for f in state.get("files", [])}

    def _needed_on_disk(self) -> set[str] | None:
        """The slice files that the progress file on disk names (None when there is none).
        Read back rather than taken from :attr:`needed`: a signal between the rename in
        :meth:`save` and its last line leaves the new file on disk and the old set here."""
        if not self.saved and not os.path.isfile(os.path.join(self.path, PROGRESS)):
            return None
        try:
            with open(os.path.join(self.path, PROGRESS)) as f:
                return {str(seg[2]) for seg in json.load(f)["files"]}
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return self.needed if self.saved else None

    def release(self) -> None:
        """Lets the folder go as it is (a refused folder is left for the user)."""
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    def close(self, finished: bool) -> None:
        """Lets the folder go: removed when the count ``finished`` or saved no progress;
        else its progress kept with the slice files it needs (the rest removed) and said
        so. Safe to call when the folder is already gone."""
        try:
            if os.path.isdir(self.path):
                on_disk = self._needed_on_disk()
                if finished or on_disk is None:
                    shutil.rmtree(self.path, ignore_errors=True)
                else:
                    self._empty({OWNER, PROGRESS} | on_disk)
                    self._say(f"frontier: the count's progress is kept in {self.path}: the "
                              "same command goes on from it (remove the folder to drop it)")
        finally:
            self.release()
