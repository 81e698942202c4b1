"""The Examples sections of the front door run as written: every doctest of
``knightgui_core`` (the package's docstring), ``knightgui_core.api`` and
``knightgui_core.api_results`` passes."""
import doctest

import pytest

import knightgui_core
from knightgui_core import api, api_results


@pytest.mark.parametrize("module", [knightgui_core, api, api_results],
                         ids=lambda m: m.__name__)
def test_the_examples_run(module):
    res = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE, report=True)
    assert res.failed == 0


def test_every_public_function_has_an_example():
    for name in api.__all__:
        obj = getattr(api, name)
        if callable(obj) and not isinstance(obj, type):
            assert ">>> " in (obj.__doc__ or ""), f"{name} has no Examples section"
