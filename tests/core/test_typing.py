"""The engine's public surface is typed and documented (mypy itself runs in `make lint`).

Public means a function defined at module level (also inside ``if``/``try`` blocks) or a
method of a public class, whose name does not start with ``_``; functions nested inside other
functions are local helpers, not API. numba kernels
count too: numba ignores the annotations, mypy and readers do not.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def _public_functions() -> list[tuple[str, FunctionNode, bool]]:
    """(``path:line name``, node, is_method) for every public function and method of core."""
    found: list[tuple[str, FunctionNode, bool]] = []

    def visit(node: ast.AST, where: Path, in_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                if not child.name.startswith("_"):
                    visit(child, where, True)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not child.name.startswith("_"):
                    label = f"{where.relative_to(ROOT)}:{child.lineno} {child.name}"
                    found.append((label, child, in_class))
            else:   # statements such as ``if MODE == "jit":`` may define API too
                visit(child, where, in_class)

    for path in sorted(CORE.rglob("*.py")):
        visit(ast.parse(path.read_text(encoding="utf-8")), path, False)
    return found


def _is_static(node: FunctionNode) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _missing(node: FunctionNode, is_method: bool) -> list[str]:
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if is_method and params and not _is_static(node) and params[0].arg in ("self", "cls"):
        params = params[1:]
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    out = [f"annotation of {a.arg}" for a in params if a.annotation is None]
    if node.returns is None:
        out.append("return annotation")
    if not ast.get_docstring(node):
        out.append("docstring")
    return out


def test_the_walk_finds_the_public_functions():
    names = {label.split()[-1] for label, _, _ in _public_functions()}
    # a few known ones from different corners of core, kernels included
    assert {"solve", "construct_closed", "greedy_walk", "advance_kernel", "parse",
            "run_orders", "to_json_dict", "njit"} <= names
    assert not any(n.startswith("_") for n in names)


def test_every_public_function_is_annotated_and_documented():
    problems = [f"{label}: {', '.join(miss)}"
                for label, node, is_method in _public_functions()
                if (miss := _missing(node, is_method))]
    assert not problems, "public functions of core lacking:\n" + "\n".join(problems)

