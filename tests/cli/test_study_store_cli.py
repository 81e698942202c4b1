"""--store, --scheduler, the progress bar and Ctrl-C on the study commands."""
from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from knightgui.cli import run
from knightgui.commands.study.options import TaskBar


def _last_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _strip(d):
    return {k: v for k, v in d.items() if k not in ("seconds", "tasks")}


def test_store_resumes_and_is_shared_by_studies(tmp_path, capsys):
    st = str(tmp_path / "results.sqlite")
    assert run(["study", "move-orders", "--size", "5", "--json", "--store", st]) == 0
    first = _last_json(capsys)
    assert first["tasks"] == {"total": 8, "from_store": 0, "computed": 8}
    assert run(["study", "move-orders", "--size", "5", "--tie", "last", "--json",
                "--store", st]) == 0
    assert _last_json(capsys)["tasks"]["computed"] == 8       # other tie rule: other rows
    assert run(["study", "phadke", "--family", "strict", "--json", "--store", st]) == 0
    assert _last_json(capsys)["tasks"] == {"total": 10, "from_store": 0, "computed": 10}
    assert run(["study", "move-orders", "--size", "5", "--json", "--store", st]) == 0
    again = _last_json(capsys)
    assert again["tasks"] == {"total": 8, "from_store": 8, "computed": 0}
    assert _strip(again) == _strip(first)
    con = sqlite3.connect(st)
    per = dict(con.execute("SELECT study, count(*) FROM tasks GROUP BY study").fetchall())
    con.close()
    assert per == {"move-orders": 16, "phadke": 10}


def test_json_without_store_reports_tasks(capsys):
    assert run(["study", "phadke", "--family", "strict", "--json"]) == 0
    d = _last_json(capsys)
    assert d["tasks"] == {"total": 10, "from_store": 0, "computed": 10}
    assert d["strict"]["solutions"] == 989_931


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", ["garbage", "fifo", "directory", "json"])
def test_hostile_store_exits_2_in_one_line_untouched(tmp_path, capsys, kind):
    p = tmp_path / f"{kind}.sqlite"
    if kind == "garbage":
        p.write_bytes(b"\x00not a database\xff" * 100)
    elif kind == "json":
        p.write_text(json.dumps({"format": "knightgui-phadke-checkpoint", "done": []}))
    elif kind == "fifo":
        os.mkfifo(p)
    else:
        p.mkdir()
    before = os.stat(p).st_mtime_ns, (p.read_bytes() if p.is_file() else None)
    for cmd in (["study", "move-orders", "--size", "5"], ["study", "phadke"]):
        assert run(cmd + ["--store", str(p)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(p) in err[0]
    assert (os.stat(p).st_mtime_ns, (p.read_bytes() if p.is_file() else None)) == before


def test_edited_row_exits_2(tmp_path, capsys):
    st = tmp_path / "s.sqlite"
    assert run(["study", "phadke", "--family", "strict", "--json", "--store", str(st)]) == 0
    capsys.readouterr()
    con = sqlite3.connect(st)
    key, result = con.execute("SELECT key, result FROM tasks LIMIT 1").fetchone()
    rows = json.loads(result)
    rows[0][1] += 1                                   # one more solution, "edited"
    con.execute("UPDATE tasks SET result = ? WHERE key = ?", (json.dumps(rows), key))
    con.commit()
    con.close()
    assert run(["study", "phadke", "--family", "strict", "--json", "--store", str(st)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "checksum" in err[0] and key in err[0]


def test_bad_scheduler_values_exit_2(capsys, monkeypatch):
    assert run(["study", "move-orders", "--size", "5", "--scheduler", "nowhere"]) == 2
    assert "tcp://HOST:PORT" in capsys.readouterr().err
    monkeypatch.setenv("KNIGHTGUI_SCHEDULER", "tcp://127.0.0.1:notaport")
    assert run(["study", "phadke"]) == 2
    assert "KNIGHTGUI_SCHEDULER" not in capsys.readouterr().out


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_task_bar_draws_only_on_a_terminal_and_never_with_json():
    tty = _Tty()
    bar = TaskBar("demo", stream=tty, mininterval=0)
    for d in range(0, 11):
        bar(d, 10)
    bar.close()
    text = tty.getvalue()
    assert "demo" in text and "10/10" in text and "task" in text
    quiet = _Tty()
    bar = TaskBar("demo", enabled=False, stream=quiet)       # --json
    bar(3, 10)
    bar.close()
    plain = io.StringIO()                                    # not a terminal
    bar2 = TaskBar("demo", stream=plain)
    bar2(3, 10)
    bar2.close()
    assert quiet.getvalue() == "" and plain.getvalue() == ""


def _rows(path, timeout: float = 5.0) -> int:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)
        try:
            return int(con.execute("SELECT count(*) FROM tasks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig,code,word", [(signal.SIGINT, 130, "interrupted"),
                                           (signal.SIGTERM, 143, "terminated"),
                                           (signal.SIGHUP, 129, "terminated")])
def test_ctrl_c_and_sigterm_stop_within_a_second_and_the_store_stays_consistent(
        tmp_path, sig, code, word):
    st = tmp_path / "s.sqlite"
    # 16×16: 160 tasks (the whole study takes about half a minute), so the interrupt lands
    # mid-run on an idle machine as on a loaded one
    cmd = [sys.executable, "-m", "knightgui", "study", "move-orders", "--size", "16",
           "--json", "--store", str(st)]
    env = {k: v for k, v in os.environ.items() if k != "KNIGHTGUI_SCHEDULER"}
    # SIGINT as a terminal delivers it: a suite started in the background of a
    # non-interactive shell (`make test &`) inherits SIGINT ignored, and so would the study
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 90
        while _rows(st, timeout=0.2) < 2:   # never wait long on the writer's lock
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, (proc.returncode, err[-500:], out[-300:])
    assert took < 1.0, took
    from knightgui_core.run.store import ResultStore
    with ResultStore(st) as s:                     # opens, every row checks
        kept = s.verify()
    assert 2 <= kept < 160
    assert err.strip() == f"{word}; {kept} tasks kept in the store", err[-500:]


def _stderr_on_a_terminal(args) -> str:
    """Run the CLI with stderr on a pseudo-terminal (100 columns); what it drew there."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k != "KNIGHTGUI_SCHEDULER"}
    proc = subprocess.Popen([sys.executable, "-m", "knightgui", *args],
                            stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    buf = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
    os.close(master)
    assert proc.wait(60) == 0
    return buf.decode("utf-8", "replace")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty")
def test_progress_bar_on_a_real_terminal_and_not_with_json():
    drawn = _stderr_on_a_terminal(["study", "move-orders", "--size", "5"])
    assert "/8 [" in drawn and "task/s" in drawn and "move orders 5×5" in drawn
    assert _stderr_on_a_terminal(["study", "move-orders", "--size", "5", "--json"]).strip() == ""
