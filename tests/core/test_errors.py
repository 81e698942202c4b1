"""One error base class: every exception class the project defines derives from
KnightguiError, bad input is an InputError (and a ValueError), a cancel is never bad input."""
import importlib
import inspect
import os
import pkgutil

import pytest

import knightgui
import knightgui_core
from knightgui_core.system.errors import Cancelled, InputError, KnightguiError, ResourceError, require


def _modules():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for pkg in (knightgui_core, knightgui):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            yield importlib.import_module(info.name)


def test_every_exception_class_of_the_project_derives_from_the_base():
    found = []
    for mod in _modules():
        for name, obj in vars(mod).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == mod.__name__):
                found.append(obj)
                # an interrupt (a terminating signal) is a KeyboardInterrupt, so that it
                # passes every `except Exception` on its way out as Ctrl-C does
                assert issubclass(obj, (KnightguiError, KeyboardInterrupt)), \
                    f"{mod.__name__}.{name}"
    assert len(found) >= 20, [c.__name__ for c in found]


def test_the_three_kinds_are_apart():
    assert issubclass(InputError, ValueError)
    assert not issubclass(Cancelled, ValueError)
    assert not issubclass(ResourceError, ValueError)
    from knightgui_core.tietree.enumeration.engine import Cancelled as EngineCancelled
    assert EngineCancelled is Cancelled


@pytest.mark.parametrize("call", [
    lambda: __import__("knightgui_core.board.squares", fromlist=["Board"]).Board(-1, 3),
    lambda: __import__("knightgui_core.board.rules", fromlist=["parse_tie"]).parse_tie("nope"),
    lambda: __import__("knightgui_core.walks.solve", fromlist=["solve"]).solve(8, 8, start="z9"),
])
def test_bad_input_is_one_catchable_error(call):
    with pytest.raises(InputError) as e:
        call()
    assert "\n" not in str(e.value)


def test_require_raises_where_assert_would_be_optimised_away():
    require(2 + 2 == 4, "arithmetic")
    with pytest.raises(RuntimeError, match="self-check failed: the warm-up board"):
        require(False, "the warm-up board")
    with pytest.raises(RuntimeError, match="^self-check failed$"):
        require(0)
    import subprocess
    import sys
    code = ("from knightgui_core.system.errors import require\n"
            "try:\n    require(False)\nexcept RuntimeError:\n    print('raised')")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "raised"
