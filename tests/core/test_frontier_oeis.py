"""The frontier count's closed tours against the OEIS data lines of issue 39's "done when":
5×2n to 2n = 40 (A175855), 7×2n to 2n = 22 (A193054), 8×n for n ≤ 7 (A193055: the boards
1×8 … 7×8); 6×n to n = 20 (A175881) is in tests/core/test_frontier.py.

The terms were copied from the OEIS data lines (docs/counts.md says where they were read).
Fast tests take the short boards; the long runs are ``slow`` (``make slow``), with their
measured times, memory and states in docs/counts.md: 7×6, 7×8 (= 8×7) and 7×10 … 7×22 in
one pass, the last 982 s of CPU and 3.4 GiB under pytest with the mirror fold (1,431 s
and 4.4 GiB before it).
"""
import pytest

from knightgui_core.frontier.count import count_frontier

#: A175855: closed knight's tours of 5 × 2n, n = 1 … 20
A175855 = [0, 0, 8, 44202, 13311268, 4557702762, 1495135512514, 491857035772330,
           161514101568508400, 53034853662012222798, 17414154188157170439208,
           5717847862749642677204182, 1877435447920358266870897874,
           616447390029326136628439042672, 202407848349722353779265745190616,
           66459727085467788423206394162537418, 21821760546806761707309514948565417796,
           7165079447164571822068029945303172129766,
           2352622444655438705806553391345493395131580,
           772473271844923268504474277422663237674924998]
#: A193054: closed knight's tours of 7 × 2n, n = 1 … 11
A193054 = [0, 0, 1067638, 34524432316, 1250063279938854, 38350427205194670084,
           1254934986399237346242334, 40157773188600794694366079616,
           1293153423896688571314211086231916, 41575689378315795601749194654016984354,
           1337089200028352592236847382536061361269314]
#: A193055: closed knight's tours of 8 × n, n = 1 … 8
A193055 = [0, 0, 0, 0, 44202, 55488142, 34524432316, 13267364410532]
#: A175881: closed knight's tours of 6 × n, n = 1 … 8 (for the cross-check below)
A175881_TO_8 = [0, 0, 0, 0, 8, 9862, 1067638, 55488142]


def closed(rows: int, cols: list[int]) -> dict[int, int]:
    """Length → closed tours of ``rows`` × length, one frontier pass."""
    res = count_frontier(rows, cols, closed_only=True)
    assert [b.cols for b in res.boards] == sorted(cols)
    return {b.cols: b.cycles for b in res.boards}


def test_the_reference_lines_agree_where_they_name_the_same_board():
    # the same board counted in two sequences: a slip in copying a term shows here
    assert A193055[4] == A175855[3]            # 8×5 = 5×8
    assert A193055[5] == A175881_TO_8[7]       # 8×6 = 6×8
    assert A193055[6] == A193054[3]            # 8×7 = 7×8
    assert A193054[2] == A175881_TO_8[6]       # 7×6 = 6×7
    assert len(A175855) == 20 and len(A193054) == 11 and len(A193055) == 8


def test_five_by_2n_to_fourteen():
    got = closed(5, list(range(2, 15, 2)))
    assert [got[2 * n] for n in range(1, 8)] == A175855[:7]


def test_eight_by_n_on_the_short_boards():
    # A193055 for n ≤ 5: the boards n × 8 (n rows read column by column)
    for n in range(1, 6):
        assert closed(n, [8])[8] == A193055[n - 1], n


def test_seven_by_two_and_seven_by_four_have_no_closed_tour():
    got = closed(7, [2, 4])
    assert [got[2], got[4]] == A193054[:2]


@pytest.mark.slow
def test_five_by_2n_to_forty():
    got = closed(5, list(range(2, 41, 2)))
    assert [got[2 * n] for n in range(1, 21)] == A175855


@pytest.mark.slow
def test_eight_by_six_is_six_by_eight():
    assert closed(6, [8])[8] == A193055[5]


@pytest.mark.slow
@pytest.mark.timeout(3600)      # 288 s of CPU; half an hour of wall time at load 13
def test_seven_by_six():
    assert closed(7, [6])[6] == A193054[2]


@pytest.mark.slow
@pytest.mark.timeout(3600)      # 115 s of CPU, 448 s of wall time at load 5-10; 2.2 GiB
def test_seven_by_eight_is_eight_by_seven():
    assert closed(7, [8])[8] == A193054[3] == A193055[6]


@pytest.mark.slow
@pytest.mark.timeout(4 * 3600)  # 982 s of CPU, 1,488 s wall at load 2-8 on 2 shared cores
def test_seven_by_2n_from_ten_to_twenty_two():
    got = closed(7, list(range(10, 23, 2)))
    assert [got[2 * n] for n in range(5, 12)] == A193054[4:]
    assert len(A193054[4:]) == 7
