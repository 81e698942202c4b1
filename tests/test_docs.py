"""The documentation is checked like code (docs/develop/testing.md):

- every fenced ``sh`` block of README.md and docs/ has its ``knightgui …`` lines run, and
  every ``python`` block is run, page by page in a temporary folder of the page's own (so a
  later block can read an earlier one's file); where the page shows the output in a ``text``
  block right after, each line shown must appear in the output, in order (``…`` stands for
  anything; timings such as ``0.35 s`` may differ);
- a block after a ``<!-- slow -->`` comment runs only under ``-m slow``; ``<!-- exit N -->``
  says the command exits N (default 0);
- the site builds with ``mkdocs build --strict`` (a broken link or a missing image fails);
- docs/reference/cli.md is what the parser says (docs/tools/gen_cli.py --check), and the
  results tables are what their data files in docs/results/data say (gen_results.py);
- no page of the guide, the results or the reference names a date, a machine load, a
  session or an issue number; the guide stays plain CommonMark with relative links (the
  in-app guide viewer renders it with Qt).

Lines of an ``sh`` block that are not ``knightgui`` commands (``make``, ``sudo``, ``dask``,
``export``) are not run; commands that need a window or a cluster are written as indented
code, which is not run either. Those that can run here have tests of their own below: a
command that takes minutes, or has names to fill in, runs in the same shape on a small board
(``SHAPES``); the cluster page runs on a real local scheduler and workers; the runner page's
``sqlite3`` lines read a real store."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent


def pages() -> list[Path]:
    found = [ROOT / "README.md"]
    found += sorted(p for p in DOCS.rglob("*.md") if "tools" not in p.relative_to(DOCS).parts)
    return found


@dataclass
class Block:
    lang: str
    code: str
    line: int
    slow: bool = False
    exit: int = 0
    expected: str | None = None      # the text block that follows, if any
    skip: bool = False
    end: int = 0                     # the line after the closing fence


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)


FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
MARK = re.compile(r"^<!--\s*(.*?)\s*-->\s*$")


def parse(path: Path) -> Page:
    """The fenced blocks of one page, with their markers and the output shown after them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = Page(path)
    i, marks = 0, ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            mm = MARK.match(lines[i])
            if mm:
                marks = mm.group(1)
            elif lines[i].strip():
                marks = ""
            i += 1
            continue
        lang, start = m.group(1).lower(), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        code = "\n".join(lines[i + 1:j])
        i = j + 1
        if lang == "text" and page.blocks and page.blocks[-1].expected is None \
                and page.blocks[-1].lang in ("sh", "python") \
                and all(not ln.strip() for ln in lines[page.blocks[-1].end:start]):
            page.blocks[-1].expected = code
        elif lang in ("sh", "python"):
            b = Block(lang, code, start + 1)
            words = re.findall(r"[a-z]+", marks)
            b.slow = "slow" in words
            b.skip = "skip" in words
            em = re.search(r"exit\s+(\d+)", marks)
            if em:
                b.exit = int(em.group(1))
            b.end = i
            page.blocks.append(b)
        else:
            page.blocks.append(Block(lang, code, start + 1, skip=True))
            page.blocks[-1].end = i
        marks = ""
    return page


def commands(code: str) -> list[str]:
    """The knightgui commands of an sh block, without their trailing comments."""
    out = []
    for ln in code.splitlines():
        ln = re.split(r"\s{2,}#", ln)[0].strip()
        if ln.startswith("knightgui ") or ln == "knightgui":
            out.append(ln)
    return out


TIMING = re.compile(r"(\d[\d,]*(?:\.\d+)?)(?=\s?(?:s|ms|µs)\b)")


def line_pattern(shown: str) -> re.Pattern[str]:
    """A regex for one line of shown output: ``…`` is anything, a timing (``0.35 s``,
    ``228.88 ms``) any number, a run of spaces any whitespace."""
    rx = []
    parts = shown.strip().split("…")
    for k, part in enumerate(parts):
        if k:
            rx.append(".*")
        if len(parts) > 1:
            part = part.strip()
        for j, piece in enumerate(TIMING.split(part)):
            if j % 2:
                rx.append(r"[\d.,]+")
            else:
                rx.append(r"\s+".join(re.escape(w) for w in re.split(r"\s+", piece)))
    return re.compile("".join(rx))


def check_output(expected: str, actual: str, where: str) -> None:
    got = [ln.strip() for ln in actual.splitlines()]
    k = 0
    for shown in expected.splitlines():
        if not shown.strip() or shown.strip() == "…":
            continue
        rx = line_pattern(shown)
        while k < len(got) and not rx.search(got[k]):
            k += 1
        if k == len(got):
            tail = "\n".join(actual.splitlines()[-30:])
            pytest.fail(f"{where}: the page shows\n  {shown.strip()}\nbut the output (in order) "
                        f"has no such line; its end:\n{tail}")
        k += 1


def run_knightgui(cmd: str, cwd: Path) -> tuple[int, str]:
    """Run one knightgui command line: in this process when it is a plain command (no Python
    start, the compiled kernels loaded once), through the shell when it has a pipe or a
    redirection."""
    if re.search(r"[|<>;&]", cmd):
        env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
        p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=1800)
        return p.returncode, p.stdout + p.stderr
    from knightgui.cli import run
    argv = shlex.split(cmd)[1:]
    out = io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            rc = run(argv)
    finally:
        os.chdir(old)
    return rc, out.getvalue()


def run_page(page: Page, tmp: Path, slow: bool) -> int:
    """Run the page's examples in order; the number of blocks run."""
    ran = 0
    rel = page.path.relative_to(ROOT)
    for b in page.blocks:
        if b.skip or b.lang not in ("sh", "python") or (b.slow and not slow):
            continue
        where = f"{rel}:{b.line}"
        if b.lang == "sh":
            cmds = commands(b.code)
            if not cmds:
                continue
            text = ""
            for c in cmds:
                rc, out = run_knightgui(c, tmp)
                text += out
                assert rc == b.exit, f"{where}: `{c}` exited {rc}, not {b.exit}:\n{out[-2000:]}"
        else:
            p = subprocess.run([sys.executable, "-c", b.code], cwd=tmp, capture_output=True,
                               text=True, timeout=600)
            text = p.stdout + p.stderr
            assert p.returncode == b.exit, f"{where}: the Python block exited {p.returncode}:\n{text}"
        ran += 1
        if b.expected is not None:
            check_output(b.expected, text, where)
    return ran


PAGES = [parse(p) for p in pages()]
RUNNABLE = [p for p in PAGES if any(b.lang in ("sh", "python") and not b.skip
                                    and (b.lang == "python" or commands(b.code))
                                    for b in p.blocks)]


def _id(p: Page) -> str:
    return str(p.path.relative_to(ROOT))


@pytest.mark.timeout(900)
@pytest.mark.parametrize("page", [p for p in RUNNABLE
                                  if any(not b.slow for b in p.blocks if b.lang in ("sh", "python"))],
                         ids=_id)
def test_the_examples_of_a_page_run_and_print_what_it_shows(page, tmp_path):
    run_page(page, tmp_path, slow=False)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("page", [p for p in RUNNABLE if any(b.slow for b in p.blocks)], ids=_id)
def test_the_long_examples_of_a_page_run_too(page, tmp_path):
    run_page(page, tmp_path, slow=True)


def test_the_runner_reads_markers_output_and_commands(tmp_path):
    md = tmp_path / "x.md"
    md.write_text("text\n\n<!-- slow, exit 1 -->\n```sh\nknightgui solve --rows 3 --cols 3"
                  "   # none\nmake run\n```\n\n```text\nno … here\n```\n\n```python\nprint(1)\n"
                  "```\n", encoding="utf-8")
    page = parse(md)
    sh, py = page.blocks
    assert (sh.slow, sh.exit, sh.expected) == (True, 1, "no … here")
    assert commands(sh.code) == ["knightgui solve --rows 3 --cols 3"]
    assert (py.slow, py.exit, py.expected) == (False, 0, None)
    check_output("tour found … in 228.88 ms\n…\n  finishes: 16,716 (0.35 s)",
                 "tour found by rule in 1.5 ms\nx\n  finishes: 16,716 (12.9 s)\n", "x")
    with pytest.raises(pytest.fail.Exception):
        check_output("finishes: 16,717", "finishes: 16,716\n", "x")


def test_the_cli_reference_is_what_the_parser_says():
    gen = _load(DOCS / "tools" / "gen_cli.py")
    assert gen.render() == (DOCS / "reference" / "cli.md").read_text(encoding="utf-8"), (
        "docs/reference/cli.md is out of date: run .venv/bin/python docs/tools/gen_cli.py")


def test_every_command_and_flag_has_its_section_in_the_cli_reference():
    import argparse

    from knightgui.cli import build_parser
    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")

    def walk(p: argparse.ArgumentParser, name: str) -> None:
        assert f"`{name}`" in text, name
        for a in p._actions:
            for opt in a.option_strings:
                assert opt in text, f"{name} {opt}"
            if isinstance(a, argparse._SubParsersAction):
                for sub, sp in a.choices.items():
                    walk(sp, f"{name} {sub}")
    walk(build_parser(), "knightgui")


def _load(path: Path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


DATED = re.compile(
    r"\b(?:19|20)\d\d-\d\d-\d\d\b|\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* 20\d\d\b"
    r"|\bload(?: average)? (?:of )?(?:about )?\d|\bsessions?\b|\bissue \d+|\bissues? #\d+"
    r"|\bhelpers?\b|\b\d\d:\d\d UTC\b", re.IGNORECASE)


@pytest.mark.parametrize("folder", ["guide", "results", "reference", "top"])
def test_user_pages_name_no_date_load_session_or_issue(folder):
    bad = []
    files = ([DOCS / "index.md", DOCS / "spec.md", ROOT / "README.md"] if folder == "top"
             else sorted((DOCS / folder).rglob("*.md")))
    for p in files:
        for n, ln in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            m = DATED.search(ln)
            if m:
                bad.append(f"{p.relative_to(ROOT)}:{n}: {m.group(0)!r} in {ln.strip()[:100]}")
    assert not bad, "\n".join(bad)


def test_the_guide_is_plain_commonmark_with_relative_links():
    guide = DOCS / "guide"
    assert (guide / "index.md").is_file() and (guide / "getting-started.md").is_file()
    bad = []
    for p in sorted(guide.rglob("*.md")):
        text = p.read_text(encoding="utf-8")
        for n, ln in enumerate(text.splitlines(), 1):
            if re.match(r"^\s*(?:!!!|\?\?\?|===\s)", ln) or re.search(r"\{:\s|\{#|\{\.", ln):
                bad.append(f"{p.name}:{n}: mkdocs-only syntax: {ln.strip()[:80]}")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:|^/", target) and not target.startswith(("http:", "https:")):
                bad.append(f"{p.name}: a link that is not relative: {target}")
            if target.startswith(("http:", "https:")) and re.search(r"\.(png|gif|svg)$", target):
                bad.append(f"{p.name}: a remote image: {target}")
            local = target.split("#")[0]
            if local and not re.match(r"^[a-z]+:", local) and not (p.parent / local).exists():
                bad.append(f"{p.name}: {target} does not exist")
    assert not bad, "\n".join(bad)


def test_images_are_small():
    big = [f"{p.relative_to(ROOT)}: {p.stat().st_size // 1024} KB"
           for p in DOCS.rglob("*") if p.suffix in (".png", ".gif") and p.stat().st_size > 400_000]
    assert not big, big


def test_the_readme_starts_with_the_two_commands_and_reaches_the_tasks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = text.split("```")[1]
    assert re.search(r"^make run\b", first.split("\n", 1)[1], re.M)
    assert re.search(r"^make test\b", first, re.M)
    links = re.findall(r"\]\((docs/[^)#\s]+)", text)
    for p in links:
        assert (ROOT / p).exists(), p
    # a link to a section names a heading of that page (GitHub's anchors: lower case, spaces
    # to hyphens, anything but letters, digits, - and _ dropped)
    for p, anchor in re.findall(r"\]\((docs/[^)#\s]+\.md)#([^)\s]+)\)", text):
        heads = [re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in
                 re.findall(r"^#+ (.+)$", (ROOT / p).read_text(encoding="utf-8"), re.M)]
        assert anchor in heads, f"README links to {p}#{anchor}, which has no such heading"
    links = [p for p in links if p.endswith(".md")]
    # each task named in the brief is on a page the README links to
    for words in ("step to solution 1981", "make a tour by hand", "export a gif",
                  "count every 6×n tour", "run a study on a cluster"):
        hits = [p for p in links if words in (ROOT / p).read_text(encoding="utf-8").lower()
                or any(words in (ROOT / p).parent.joinpath(q).read_text(encoding="utf-8").lower()
                       for q in re.findall(r"\]\(([^)#\s]+\.md)", (ROOT / p).read_text(
                           encoding="utf-8")) if (ROOT / p).parent.joinpath(q).is_file())]
        assert hits, f"'{words}' is not within two clicks of the README"


@pytest.mark.timeout(300)
def test_the_site_builds_in_strict_mode(tmp_path):
    mkdocs = BIN / "mkdocs"
    if not mkdocs.is_file() and shutil.which("mkdocs") is None:
        pytest.skip("mkdocs is not installed (make docs installs it: pip install -e '.[docs]')")
    exe = str(mkdocs) if mkdocs.is_file() else "mkdocs"
    p = subprocess.run([exe, "build", "--strict", "--quiet", "-f", str(ROOT / "mkdocs.yml"),
                        "-d", str(tmp_path / "site")], capture_output=True, text=True,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (tmp_path / "site" / "guide" / "getting-started.html").is_file()


def test_the_results_tables_are_their_data_files():
    gen = _load(DOCS / "tools" / "gen_results.py")
    stale = [p.name for p in sorted((DOCS / "results").glob("*.md"))
             if gen.rewrite(p.read_text(encoding="utf-8")) != p.read_text(encoding="utf-8")]
    assert not stale, (f"tables out of date with docs/results/data: {stale}; run "
                       ".venv/bin/python docs/tools/gen_results.py")
    assert list((DOCS / "results" / "data").glob("*.csv"))


def test_the_files_the_docs_name_exist():
    """A path in backticks under knightgui/, core/, tests/, bench/, packaging/ or docs/ names a
    file or folder of the checkout: a moved module makes the page that names it fail here."""
    missing = []
    for p in pages():
        for path in re.findall(r"`((?:knightgui|core|tests|bench|packaging|docs)/[\w./-]+)`",
                               p.read_text(encoding="utf-8")):
            path = path.rstrip(".")
            if "*" not in path and "…" not in path and not (ROOT / path).exists():
                missing.append(f"{p.relative_to(ROOT)}: {path}")
    assert not missing, "\n".join(missing)


def test_the_python_names_the_docs_give_exist():
    """A ``knightgui_core.…`` or ``knightgui.…`` name in the docs imports (a module, or an
    attribute of one): a module moved into a package makes the page that names it fail."""
    import importlib
    bad = []
    for p in pages():
        text = p.read_text(encoding="utf-8")
        for name in set(re.findall(r"\b(knightgui(?:_core)?(?:\.\w+)+)", text)):
            if re.search(r"\.(exe|app|py|md|json|csv|npy|sqlite|gif|png|toml)$", name):
                continue                      # a file name, not a Python name
            parts = name.split(".")
            for k in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:k]))
                except ImportError:
                    continue
                for attr in parts[k:]:
                    obj = getattr(obj, attr, None)
                    if obj is None:
                        bad.append(f"{p.relative_to(ROOT)}: {name}")
                        break
                break
            else:
                bad.append(f"{p.relative_to(ROOT)}: {name}")
    assert not bad, "\n".join(sorted(set(bad)))


# Commands a page shows that take minutes, or whose shape has names to fill in (R, C, N),
# run here in the same shape on a small board: (page, the line as the page shows it, the
# line run, lines its output must show, in order, as a shown-output block). The page must
# still show the line, so the two cannot drift apart.
SHAPES = [
    ("docs/guide/command-line.md",
     "knightgui study count --all-tours --rows 6 --cols-from 1 --cols-to 12 --closed-only",
     "knightgui study count --all-tours --rows 6 --cols-from 1 --cols-to 8 --closed-only",
     "method: frontier, 6 rows at a time (one pass for every length)\n"
     "6×1 0 — —\n…\n6×6 9,862 — —\n6×7 1,067,638 — —\n6×8 55,488,142 — —"),
    ("docs/guide/command-line.md",
     "knightgui study count --size 8 --all-tours --symmetry half-turn --closed-only",
     "knightgui study count --size 6 --all-tours --symmetry half-turn --closed-only",
     "6×6, half-turn: 78 closed tours that it maps onto themselves (18 orbits); …"),
    ("docs/results/symmetric.md",
     "knightgui study count --all-tours --rows R --cols C --symmetry NAME",
     "knightgui study count --all-tours --rows 6 --cols 6 --symmetry half-turn",
     "6×6, half-turn: 0 open paths and 78 closed tours that it maps onto themselves …"),
    ("docs/results/all-tours.md",
     "knightgui study count --rows R --cols C --all-tours",
     "knightgui study count --rows 5 --cols 5 --all-tours",
     "5×5: 1,728 directed paths (864 undirected), 0 closed tours; …"),
    ("docs/results/all-tours.md",
     "knightgui study count --all-tours --rows 8 --cols 8 --closed-only --method frontier "
     "--spill DIR --memory-mb 6000 --json",
     "knightgui study count --all-tours --rows 6 --cols 6 --closed-only --method frontier "
     "--spill . --memory-mb 6000 --slices 4 --json",
     '…"undirected_closed_tours":9862,…"resumed_cells":0…'),
    ("docs/results/distinct.md",
     "knightgui study count --size N --distinct --json",
     "knightgui study count --size 5 --distinct --json",
     "all 25 320 0 616 …\ndistinct: 256 … up to symmetry: 32 (classes by size: 32 of 8); …"),
    ("docs/results/tie-rules.md",
     "knightgui study tie-breaks --max 2000 --rules first,pohl,lookahead,center-far,squirrel,"
     "squirrel-unsplit,phadke --order 56781234 --json",
     "knightgui study tie-breaks --max 80 --rules first,pohl,lookahead,center-far,squirrel,"
     "squirrel-unsplit,phadke --order 56781234 --json",
     '…"first_failing_n":{"first":41,"pohl":17,"lookahead":70,"center-far":null,'
     '"squirrel":74,"squirrel-unsplit":29,"phadke":64}…'),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("page, shown, run, expected", SHAPES,
                         ids=[f"{p}:{r.split()[2]}" for p, _, r, _ in SHAPES])
def test_a_long_command_of_a_page_runs_in_its_shape_on_a_small_board(page, shown, run, expected,
                                                                    tmp_path):
    lines = [ln.strip() for ln in (ROOT / page).read_text(encoding="utf-8").splitlines()]
    assert shown in lines, f"{page} no longer shows `{shown}`: update SHAPES"
    rc, out = run_knightgui(run, tmp_path)
    assert rc == 0, out[-2000:]
    check_output(expected, out, f"{page}: {run}")


def test_the_class_totals_command_reads_the_table_it_names(tmp_path):
    """docs/results/warnsdorff-counts.md recomputes its totals from its own tables."""
    page = (DOCS / "results" / "warnsdorff-counts.md").read_text(encoding="utf-8")
    shown = '.venv/bin/python docs/tools/class_totals.py --size 10 --heading "## 10×10"'
    assert shown in page
    p = subprocess.run([sys.executable, *shlex.split(shown)[1:]], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    check_output("starts 100\ntours 117,143,031,736\nclosed 13,598,942,920", p.stdout,
                 "warnsdorff-counts.md: class_totals")


def test_the_sqlite3_lines_of_the_runner_page_read_a_real_store(tmp_path):
    """docs/develop/runner.md's sqlite3 shell lines, on a store two small studies wrote."""
    if shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 shell is not installed")
    page = parse(DOCS / "develop" / "runner.md")
    block = next(b for b in page.blocks if b.lang == "sh" and "sqlite3 " in b.code)
    for cmd in ("knightgui study phadke --family strict --store results.sqlite",
                "knightgui study move-orders --size 5 --store results.sqlite"):
        rc, out = run_knightgui(cmd, tmp_path)
        assert rc == 0, out[-2000:]
    outs = []
    for ln in block.code.splitlines():
        ln = re.split(r"\s{2,}#", ln)[0].strip()
        if ln.startswith("sqlite3 "):
            p = subprocess.run(["bash", "-c", ln], cwd=tmp_path, capture_output=True, text=True,
                               timeout=60)
            assert p.returncode == 0 and not p.stderr, f"{ln}: {p.stderr}"
            outs.append(p.stdout)
    assert len(outs) == 4
    assert re.search(r"^phadke\|10\|", outs[0], re.M) and re.search(r"^move-orders\|", outs[0], re.M)
    assert len(outs[1].splitlines()) == 5 and outs[1].startswith("phadke/v1/strict/")
    assert '"key":"phadke/v1/strict/' in outs[2].replace(" ", "")
    left = subprocess.run(["sqlite3", "results.sqlite", "SELECT DISTINCT study FROM tasks"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60).stdout
    assert left.split() == ["phadke"]


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.timeout(300)
def test_the_cluster_page_runs_on_a_real_scheduler_and_workers(tmp_path):
    """docs/guide/cluster.md, steps 2 to 4, on this machine: `dask scheduler`, `dask worker
    … --nthreads 1 --nworkers -1`, then the study against it with a store (6×6 for the
    page's 10×10), and again with KNIGHTGUI_SCHEDULER set instead of --scheduler."""
    page = (DOCS / "guide" / "cluster.md").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in page.splitlines()]
    for shown in ("dask scheduler", "dask worker tcp://HOST:8786 --nthreads 1 --nworkers -1",
                  "knightgui study count --size 10 --scheduler tcp://HOST:8786 --store "
                  "counts10.sqlite", "export KNIGHTGUI_SCHEDULER=tcp://HOST:8786"):
        assert shown in lines, f"docs/guide/cluster.md no longer shows `{shown}`"
    dask = BIN / "dask"
    if not dask.is_file():
        pytest.skip("dask is not installed in this environment")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("KNIGHTGUI_SCHEDULER", None)
    procs = []
    try:
        for cmd in ([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--no-dashboard"],
                    [str(dask), "worker", address, "--nthreads", "1", "--nworkers", "-1",
                     "--no-dashboard"]):
            procs.append(subprocess.Popen(cmd, cwd=tmp_path, env=env, start_new_session=True,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        knightgui = str(BIN / "knightgui")
        run = subprocess.run([knightgui, "study", "count", "--size", "6", "--scheduler", address,
                              "--store", "counts10.sqlite", "--worker-timeout", "120"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
        assert run.returncode == 0, run.stdout + run.stderr
        check_output("all 36 1,984 360 …\n36 starts (… classes) in … s; … (0 from the store)",
                     run.stdout, "cluster.md: --scheduler")
        env["KNIGHTGUI_SCHEDULER"] = address
        again = subprocess.run([knightgui, "study", "count", "--size", "5", "--store",
                                "counts10.sqlite", "--json"], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=240)
        assert again.returncode == 0, again.stdout + again.stderr
        check_output("all 25 320 0 616 …", again.stdout, "cluster.md: KNIGHTGUI_SCHEDULER")
        from distributed import Client
        with Client(address, timeout=30, set_as_default=False) as client:
            # the tasks of both runs went through this scheduler: 3 + 6 tasks, several
            # transitions each
            moved = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)
        assert moved >= 9 * 3, moved
    finally:
        import signal
        for p in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=20)


def test_the_per_column_table_of_a_spilled_count(tmp_path):
    """docs/tools/frontier_columns.py turns a spilled count's --json line into one row a
    column and a total; the states after each column are the count's own."""
    out = subprocess.run([sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                          "--rows", "5", "--cols", "6", "--closed-only", "--method", "frontier",
                          "--spill", str(tmp_path), "--slices", "2", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-300:]
    (tmp_path / "r.json").write_text(out.stdout)
    table = subprocess.run([sys.executable, str(ROOT / "docs" / "tools" / "frontier_columns.py"),
                            str(tmp_path / "r.json")], capture_output=True, text=True, timeout=60)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.strip().splitlines()
    record = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(lines) == 1 + 6 + 1 and lines[-1].startswith("all,")
    assert [int(r.split(",")[1]) for r in lines[1:-1]] == record["column_states"]


def test_the_per_column_table_of_a_stopped_count_from_its_log():
    """--log reads the per-cell lines of a count that printed no --json line: the columns
    reached, the last one marked unfinished, the states after each finished column."""
    line = ("cell {n} of 12 (column {c}): 1 slice(s), {s:,} states in ({s:,} rows read), "
            "{o:,} rows out in 1 slice(s), 3 MiB written, 0.5 s, CPU 0.7 s, largest "
            "slice's tables 2 MiB, peak RSS 0.25 GiB")
    states = [1, 2, 5, 9, 20, 44, 60]               # cells 1-7 of a 3-row board
    text = "\n".join(line.format(n=i + 1, c=i // 3 + 1, s=s, o=s * 2)
                     for i, s in enumerate(states))
    spec = importlib.util.spec_from_file_location(
        "frontier_columns", ROOT / "docs" / "tools" / "frontier_columns.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.rows(mod.from_log(text))
    assert [r[0] for r in rows] == ["1", "2", "3 (1 of 3 cells)", "all"]
    assert [r[1] for r in rows[:2]] == ["9", "60"]  # what columns 2 and 3 first read
    assert rows[-1][2] == "60" and rows[-1][3] == "120"
