"""stdout and stderr for the command line, made safe against hostile surroundings.

:func:`guarded_streams` wraps ``sys.stdout`` and ``sys.stderr`` while a command runs: a
write or flush that fails (``/dev/full``, a closed descriptor, ``| head``, a stream that is
``None``) raises :class:`OutputError`, which the CLI turns into exit 1 and one line; text
the encoding cannot hold is written with ``?`` instead of raising. After a failure on the
real stdout its descriptor points at ``/dev/null``, so the exit flush prints no traceback.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

from knightgui_core.system.errors import ResourceError

__all__ = ["OutputError", "guarded_streams", "say_on_stderr"]


class OutputError(ResourceError):
    """stdout or stderr could not be written."""

    def __init__(self, name: str, reason: str, stream=None):
        super().__init__(f"knightgui: cannot write to {name}: {reason}")
        self.name, self.stream = name, stream


def _reason(e: BaseException) -> str:
    if isinstance(e, BrokenPipeError):
        return "the reader has gone (broken pipe)"
    if isinstance(e, OSError):
        return e.strerror or str(e) or type(e).__name__
    if isinstance(e, ValueError):     # write to a closed file
        return "the stream is closed"
    return str(e) or type(e).__name__


class _Guarded:
    """A text stream that reports failures as :class:`OutputError`."""

    def __init__(self, stream, name: str):
        self._s, self._name = stream, name

    def write(self, s: str) -> int:
        if self._s is None:
            raise OutputError(self._name, "it is closed", None)
        try:
            return self._s.write(s)
        except UnicodeEncodeError:
            enc = getattr(self._s, "encoding", None) or "ascii"
            try:
                return self._s.write(s.encode(enc, "replace").decode(enc, "replace"))
            except (OSError, ValueError) as e:
                raise OutputError(self._name, _reason(e), self._s) from None
        except (OSError, ValueError) as e:
            raise OutputError(self._name, _reason(e), self._s) from None

    def flush(self) -> None:
        if self._s is None:
            return
        try:
            self._s.flush()
        except (OSError, ValueError) as e:
            raise OutputError(self._name, _reason(e), self._s) from None

    def isatty(self) -> bool:
        try:
            return bool(self._s is not None and self._s.isatty())
        except (OSError, ValueError):
            return False

    def __getattr__(self, name):
        return getattr(self._s, name)


def say_on_stderr(line: str) -> None:
    """Write one line to the process's stderr, whatever state it is in (never raises)."""
    data = (line.rstrip("\n") + "\n").encode("ascii", "replace")
    err = sys.stderr
    try:
        if isinstance(err, _Guarded):
            err = err._s
        if err is not None and err is not sys.__stderr__:
            err.write(data.decode("ascii"))
            err.flush()
            return
        os.write(2, data)
    except (OSError, ValueError, AttributeError):
        pass


def _silence(stream) -> None:
    """Point the real stdout/stderr descriptor at /dev/null after it failed, and drop its
    buffer, so that the interpreter's exit flush succeeds quietly."""
    if stream is None or stream not in (sys.__stdout__, sys.__stderr__):
        return
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError, ValueError):
        stream.flush()


@contextlib.contextmanager
def guarded_streams() -> Iterator[None]:
    """Run a block with guarded ``sys.stdout``/``sys.stderr`` (see the module); the last
    flush of stdout happens inside, so its failure is reported too."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Guarded(out, "stdout"), _Guarded(err, "stderr")
    try:
        yield
        sys.stdout.flush()
    except OutputError as e:
        _silence(e.stream)
        raise
    finally:
        sys.stdout, sys.stderr = out, err
