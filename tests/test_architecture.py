"""The house rules of the source tree, checked on the import graph (read from the source,
imports inside functions included):

* ``core`` never imports Qt, pyqtgraph or ``knightgui``; ``knightgui`` uses ``core``.
* No import loops anywhere in ``core`` or ``knightgui``.
* ``core`` is cut into layer folders, bottom to top: ``system`` (compiling kernels, files,
  environment), ``board`` (squares, rules, tours), ``construct`` (guaranteed tours),
  ``walks`` (one tour), ``tietree`` (every tie followed) and ``frontier`` (every tour of a
  long board, column by column), ``run`` (tasks, store, Dask),
  ``studies``; ``warmup``, ``kernel_exports`` and the front door (``api``,
  ``api_results``) on top. A module imports only its own
  layer and the ones below; ``walks`` and ``tietree`` stand side by side and do not import
  each other.
* ``tietree`` is cut into rooms by job, bottom to top: ``enumeration`` (Phadke's options
  matrix), ``counting`` (the count by states) and ``alltours`` (every tour); a room imports
  only itself and the rooms below; the modules of ``tietree`` itself may use any room.
* A kernel module (``*_kernel.py``) imports only other kernels, ``system.jit`` and the
  ``TieRule`` enum (``board.tie_rule``, which imports nothing).
* No two modules of ``core`` or ``knightgui`` share a file name.
* ``core/warmup.py`` sits on top: nothing imports it back except the window's warm-up
  (``knightgui/window/engine_warmup.py``) and the ``knightgui warmup`` command.
* No function takes more than 12 parameters; no comment or docstring carries a date, a
  machine's load or a tracker item.
"""
from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"knightgui_core": ROOT / "core", "knightgui": ROOT / "knightgui"}


@functools.cache
def _tree(path: Path) -> ast.Module:
    """``path`` parsed once per test process: the rules below all walk the same files."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _modules() -> dict[str, Path]:
    mods = {}
    for pkg, folder in PACKAGES.items():
        for p in folder.rglob("*.py"):
            parts = list(p.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join([pkg, *parts])] = p
    return mods


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ours that ``name`` imports (a package import counts as its __init__)."""
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(_tree(path)):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = [f"{mod}.{a.name}" for a in node.names]
            # ``from pkg import mod``: an import of the module, not of the package's __init__
            targets = subs if all(t in known for t in subs) else [mod, *subs]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


@functools.cache
def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {m: _imports(m, p, known) for m, p in mods.items()}


def _third_party(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_core_is_display_free_and_never_imports_the_app():
    for p in (ROOT / "core").rglob("*.py"):
        bad = _third_party(p) & {"PySide6", "pyqtgraph", "knightgui", "shiboken6"}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_no_import_loops():
    g = _graph()
    # packages count as their __init__; an __init__ importing its own submodules is the
    # package re-exporting them, not a loop
    def edges(m):
        return {t for t in g[m] if not m.startswith(t + ".") and not t.startswith(m + ".")}

    state: dict[str, int] = {}
    stack: list[str] = []
    loops = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == 1:
                loops.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
    assert not loops, "import loops: " + "; ".join(" -> ".join(c) for c in loops)


LAYERS = {"system": 0, "board": 1, "construct": 2, "walks": 3, "tietree": 3, "frontier": 3,
          "run": 4, "studies": 5}
TOP = 6


def _layer(mod: str) -> tuple[int, str]:
    parts = mod.split(".")
    if len(parts) == 1:
        return (TOP, "")
    if parts[1] in LAYERS:
        return (LAYERS[parts[1]], parts[1])
    return (TOP, parts[1])


def test_every_core_module_lives_in_a_layer_folder():
    loose = sorted(p.name for p in (ROOT / "core").glob("*.py"))
    assert loose == ["__init__.py", "api.py", "api_results.py", "kernel_exports.py",
                     "warmup.py"], loose
    folders = {p.name for p in (ROOT / "core").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(LAYERS), "a folder of core/ that is not a layer"


def test_no_arrow_points_up_or_sideways():
    g = _graph()
    bad = []
    for m, targets in g.items():
        if not m.startswith("knightgui_core.") or m.count(".") < 2:
            continue
        lm, fm = _layer(m)
        for t in targets:
            if not t.startswith("knightgui_core.") or t.count(".") < 2:
                continue
            lt, ft = _layer(t)
            if lt > lm or (lt == lm and ft != fm):
                bad.append(f"{m} -> {t}")
    assert not bad, "imports that point up or sideways: " + "; ".join(bad)


TIETREE_ROOMS = {"enumeration": 0, "counting": 1, "alltours": 2}


def _room(mod: str) -> int:
    """The rank of a module of ``knightgui_core.tietree``: its room's, or above all rooms."""
    parts = mod.split(".")
    return TIETREE_ROOMS.get(parts[2], len(TIETREE_ROOMS)) if len(parts) > 3 else len(TIETREE_ROOMS)


def test_tietree_rooms():
    rooms = {p.name for p in (ROOT / "core" / "tietree").iterdir()
             if p.is_dir() and p.name != "__pycache__"}
    assert rooms == set(TIETREE_ROOMS), "a folder of core/tietree/ that is not a room"
    g = _graph()
    bad = [f"{m} -> {t}" for m, targets in g.items() if m.startswith("knightgui_core.tietree.")
           for t in targets if t.startswith("knightgui_core.tietree.") and _room(t) > _room(m)]
    assert not bad, "imports from a higher room of tietree: " + "; ".join(bad)


#: besides other kernels: the compiler's configuration, and the plain enums kernels compare with
KERNEL_MAY_IMPORT = {"knightgui_core.system.jit", "knightgui_core.board.tie_rule"}


def test_kernels_import_only_kernels_and_the_jit():
    g = _graph()
    for m, targets in g.items():
        if m.endswith("_kernel"):
            other = {t for t in targets if not (t.endswith("_kernel") or t in KERNEL_MAY_IMPORT)}
            assert not other, f"{m} imports {other}"


def _folders(top: str) -> dict[Path, list[str]]:
    """Each folder of ``top`` with the names of its modules (``__init__``/``__main__`` aside)."""
    out: dict[Path, list[str]] = {}
    for p in sorted((ROOT / top).rglob("*.py")):
        if "__pycache__" in p.parts or p.name in ("__init__.py", "__main__.py"):
            continue
        out.setdefault(p.parent, []).append(p.stem)
    return out


@pytest.mark.parametrize("top", ["knightgui", "core"])
def test_folders_name_concepts_and_files_their_parts(top):
    """A folder holds at most 16 modules and no family of three or more modules sharing a
    name prefix (``play_model``, ``play_view``, ``play_files``): such a family is a package
    of its own, whose folder names the concept and whose files name its parts."""
    problems = []
    for folder, names in _folders(top).items():
        rel = str(folder.relative_to(ROOT))
        if len(names) > 16:
            problems.append(f"{rel}: {len(names)} modules")
        prefixes: dict[str, list[str]] = {}
        for n in names:
            if "_" in n.strip("_"):
                prefixes.setdefault(n.strip("_").split("_")[0], []).append(n)
        problems += [f"{rel}: {', '.join(fam)}" for fam in prefixes.values() if len(fam) >= 3]
    assert not problems, problems


def test_the_warm_up_is_on_top():
    g = _graph()
    users = {m for m, targets in g.items() if "knightgui_core.warmup" in targets}
    assert users <= {"knightgui.window.engine_warmup", "knightgui.commands.warmup"}, users


def _parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = fn.args
    names = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    n = len(names) + (a.vararg is not None) + (a.kwarg is not None)
    return n - (bool(names) and names[0].arg in ("self", "cls"))


@pytest.mark.parametrize("top", ["knightgui", "core"])
def test_no_function_takes_more_than_twelve_parameters(top):
    """State that travels together is one named record (a kernel's ``NamedTuple``, a
    wrapper's options dataclass), so no signature reads like a register file."""
    over = [f"{p.relative_to(ROOT)}:{node.lineno} {node.name} ({_parameters(node)})"
            for p in sorted((ROOT / top).rglob("*.py"))
            for node in ast.walk(_tree(p))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and _parameters(node) > 12]
    assert not over, over


_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
#: a date, a machine's load or an item of our tracker ("pyqtgraph issue 3485" is upstream's)
_DIARY = re.compile(rf"\b20\d\d-\d\d-\d\d\b|\b\d{{1,2}} (?:{_MONTHS})[a-z]*\b"
                    rf"|\bload (?:of )?\d+(?:\.\d+)?\b|(?<!pyqtgraph )\b(?:issue|task) #?\d+\b")


@pytest.mark.parametrize("top", ["knightgui", "core"])
def test_no_diary_in_the_source(top):
    """Comments and docstrings state the contract and the reason; dates, loads and tracker
    items belong in git and in docs/figures.md."""
    found = []
    for p in sorted((ROOT / top).rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                found += [f"{p.relative_to(ROOT)}:{tok.start[0]} {m.group(0)!r}"
                          for m in _DIARY.finditer(tok.string)]
    assert not found, found
