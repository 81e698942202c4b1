"""Regression guard: PySide6 6.12.0 on Python < 3.12 drops a reference to None on every call
of a void C++ method until the interpreter aborts (Fatal Python error: none_dealloc). The
project pins PySide6 < 6.12 there; this test fails loudly if a leaking build comes back."""
import sys

from PySide6.QtCore import QPointF


def test_void_calls_do_not_leak_references_to_none():
    p = QPointF(0.0, 0.0)
    before = sys.getrefcount(None)
    for i in range(100_000):
        p.setX(float(i & 7))
    after = sys.getrefcount(None)
    assert before - after <= 5, f"None refcount dropped by {before - after} over 100,000 calls"
    assert p.x() == float(99_999 & 7)
