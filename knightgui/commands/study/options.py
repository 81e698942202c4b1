"""What every study command shares: ``--store``, ``--scheduler``, ``--worker-timeout``, the
progress bar, Ctrl-C.

A study's ``add_parser`` calls :func:`add_runner_options`; its ``run`` builds its tasks and
calls :func:`run_study`: a bad store (or a read-only one missing some tasks), a lost
scheduler or no worker for ``--worker-timeout`` seconds is one line and exit 2; Ctrl-C,
SIGTERM or SIGHUP leave at once (exit 130, 143, 129) saying how many tasks the store keeps.
"""
from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

from knightgui.commands._common import Activity, CliError, cli_errors, positive_int, write_above


def add_runner_options(p) -> None:
    """Add ``--store FILE``, ``--scheduler ADDR`` and ``--worker-timeout SECONDS`` to a
    study's parser."""
    p.add_argument("--store", metavar="FILE", default=None,
                   help="SQLite result store: finished tasks are kept there and not "
                        "computed again (many studies can share one file)")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="Dask scheduler, tcp://HOST:PORT (default: $KNIGHTGUI_SCHEDULER, "
                        "else this machine's cores: 'local', threads of this process without "
                        "Dask; 'threads' for an in-process Dask cluster, 'processes' for a "
                        "local cluster of worker processes)")
    p.add_argument("--worker-timeout", metavar="SECONDS", default=None,
                   help="end the study (exit 2; finished tasks stay in the store) when the "
                        "cluster has had no worker, or its scheduler has not answered, for "
                        "this many seconds (default 60)")


def worker_timeout_of(args) -> float:
    """``--worker-timeout`` in seconds (1 to 86,400; default 60); CliError if not."""
    from knightgui_core.run.runner import WORKER_TIMEOUT
    value = getattr(args, "worker_timeout", None)
    if value is None:
        return WORKER_TIMEOUT
    return float(positive_int("--worker-timeout", value, 1, 86_400))


@contextmanager
def open_study_store(args) -> Iterator[Any]:
    """The study's :class:`~knightgui_core.run.store.ResultStore` (``--store``; None without
    one; :class:`CliError` when the file is not usable), opened once ``--scheduler`` and
    ``--worker-timeout`` are checked (a malformed address leaves no new file behind), closed
    on leaving the ``with``."""
    scheduler_of(args)
    worker_timeout_of(args)
    store = None
    if getattr(args, "store", None) is not None:
        from knightgui_core.run.store import ResultStore, StoreError
        with cli_errors(StoreError, prefix="--store: "):
            store = ResultStore(args.store)
    try:
        yield store
    finally:
        if store is not None:
            store.close()


def refuse_read_only(store, tasks: Sequence[Any]) -> None:
    """A read-only store cannot keep what a study computes: when some of ``tasks`` are not
    in it, :class:`CliError` (one line, exit 2) before anything is computed."""
    why = getattr(store, "read_only", None)
    if store is None or not why or not tasks:
        return
    from knightgui_core.run.store import StoreError
    with cli_errors(StoreError, prefix="--store: "):
        missing = store.missing([t.key for t in tasks])
    if missing:
        raise CliError(f"--store: {store.path}: read-only ({why}), and {len(missing):,} of "
                       f"{len(tasks):,} tasks are not in it: make it writable or give "
                       "another --store")


def scheduler_of(args) -> str:
    """``--scheduler`` or ``$KNIGHTGUI_SCHEDULER`` or ``local``; CliError if malformed."""
    from knightgui_core.run.runner import SchedulerError, resolve_scheduler
    with cli_errors(SchedulerError, prefix="--scheduler: "):
        return resolve_scheduler(getattr(args, "scheduler", None))


class TaskBar(Activity):
    """A tqdm bar of tasks (or other ``unit``) on stderr (done / total, rate, time left),
    only when stderr is a terminal and ``enabled``; callable as ``progress(done, total)``."""

    def __init__(self, label: str, enabled: bool = True, stream=None,
                 mininterval: float = 0.1, unit: str = "task"):
        super().__init__(quiet=not enabled, stream=stream, mininterval=mininterval)
        self.label, self.unit = label, unit

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self.start(self.label, total, self.unit, initial=done)
        else:
            self.show(done)

    def say(self, line: str, always: bool = True) -> None:
        """``line`` on stderr, above the bar when one is drawn (with ``--json`` too)."""
        write_above(self._bar, self.stream, line)


def _kept(store, study: str | None) -> int | None:
    """How many of ``study``'s tasks ``store`` holds (None when it cannot tell)."""
    if store is None or study is None:
        return None
    try:
        return int(store.count(study))
    except Exception:  # noqa: BLE001 - leaving anyway; the count is a courtesy
        return None


def _quick_exit(store, *, signum: int | None = None, study: str | None = None) -> None:
    """Ctrl-C, or the terminating signal ``signum`` (SIGTERM, SIGHUP): close the store (every
    finished task is committed), say so in one line, leave now (exit 130, or 128 +
    ``signum``)."""
    kept = _kept(store, study)
    if store is not None:
        try:
            store.close()
        except Exception:  # noqa: BLE001 - leaving anyway
            pass
    from knightgui_core.run import runner
    t = threading.Thread(target=runner.shutdown_local, daemon=True)
    t.start()
    t.join(0.3)
    word = "interrupted" if signum is None else "terminated"
    if store is None:
        line = f"{word}; no --store, so nothing was kept"
    elif kept is None:
        line = f"{word}; every finished task is kept in the store"
    else:
        line = f"{word}; {kept} task{'' if kept == 1 else 's'} kept in the store"
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
        sys.stdout.flush()
    except Exception:  # noqa: BLE001
        pass
    os._exit(130 if signum is None else 128 + signum)


def _lost_tasks(store, e) -> str:
    """What a study that lost its cluster keeps, for its one line."""
    if store is None:
        return f"{e.done:,} of {e.total:,} tasks were done, and without --store none is kept"
    return (f"{e.done:,} of {e.total:,} tasks are kept in the store: run the same command "
            "again to finish")


def run_study(args, tasks: Sequence[Any], label: str, *, store=None,
              on_result: Callable[[str, Any], None] | None = None,
              workers: int | None = None):
    """Run ``tasks`` for a study command and return the
    :class:`~knightgui_core.run.runner.RunReport`. Opens ``args.store`` unless ``store`` is
    given (then the caller closes it). Errors become :class:`CliError` (exit 2)."""
    from knightgui_core.run.runner import ClusterLost, RunnerError, SchedulerError, run_tasks
    from knightgui_core.run.store import StoreError
    sched = scheduler_of(args)
    timeout = worker_timeout_of(args)
    bar = TaskBar(label, enabled=not getattr(args, "json", False))
    study = tasks[0].study if tasks else None
    with open_study_store(args) if store is None else nullcontext(store) as store:
        try:
            refuse_read_only(store, tasks)
            return run_tasks(tasks, store=store, scheduler=sched, progress=bar,
                             on_result=on_result, workers=workers, worker_timeout=timeout,
                             notice=lambda line: bar.say(f"{label}: {line}"))
        except KeyboardInterrupt as e:           # Ctrl-C, or Terminated (SIGTERM, SIGHUP)
            bar.close()
            _quick_exit(store, signum=getattr(e, "signum", None), study=study)
            raise                                  # not reached
        except SchedulerError as e:
            raise CliError(f"--scheduler: {e}") from None
        except ClusterLost as e:
            bar.close()
            raise CliError(f"{label}: {e.reason}; {_lost_tasks(store, e)}") from None
        except StoreError as e:
            raise CliError(f"--store: {e}") from None
        except RunnerError as e:
            raise CliError(f"{label}: {e}") from None
        finally:
            bar.close()
