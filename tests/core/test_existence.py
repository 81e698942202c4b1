import pytest

from knightgui_core.board.existence import closed_tour_exists, open_tour_exists, why_no_tour


@pytest.mark.parametrize("m,n,closed,expect", [
    (8, 8, True, True), (5, 5, True, False), (4, 8, True, False), (3, 8, True, False),
    (3, 10, True, True), (6, 6, True, True), (2, 100, True, False), (5, 6, True, True),
    (1, 1, False, True), (3, 4, False, True), (3, 5, False, False), (3, 6, False, False),
    (3, 7, False, True), (4, 4, False, False), (4, 5, False, True), (2, 9, False, False),
    (5, 5, False, True), (1, 2, False, False)])
def test_schwenk_and_open_rules(m, n, closed, expect):
    f = closed_tour_exists if closed else open_tour_exists
    assert f(m, n) is expect and f(n, m) is expect
    assert (why_no_tour(m, n, closed) is None) is expect


def test_reason_mentions_the_cause():
    assert "odd" in why_no_tour(5, 7, True)
    assert "Schwenk" in why_no_tour(3, 6, True)
