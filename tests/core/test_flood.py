"""The floods of walks/flood_kernel.py (one breadth-first loop, a visitor per use) against
plain Python on boards where the answers differ: bipartite or not, one group or several."""
from collections import deque

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.walks.flood_kernel import free_groups, two_colouring


def _groups(nbr, free):
    """Plain breadth-first: the group number of each free square (-1 elsewhere)."""
    label = [-1] * len(free)
    g = 0
    for s0 in range(len(free)):
        if not free[s0] or label[s0] >= 0:
            continue
        label[s0], todo = g, deque([s0])
        while todo:
            s = todo.popleft()
            for u in nbr[s]:
                if u >= 0 and free[u] and label[u] < 0:
                    label[u] = g
                    todo.append(u)
        g += 1
    return label, g


@pytest.mark.parametrize("board, bipartite", [
    (Board(8, 8), True),
    (Board(3, 3), True),                       # the centre square stands alone
    (Board(6, 6, topology="torus"), True),
    (Board(5, 5, topology="torus"), False),     # five moves across wrap round: an odd cycle
    (Board(5, 7, leaper=(1, 3)), True),
])
def test_two_colouring(board, bipartite):
    nbr = board.neighbours
    colour = np.full(board.size, 7, dtype=np.int8)
    queue = np.empty(board.size, dtype=np.int32)
    assert two_colouring(nbr, colour, queue) is bipartite
    if bipartite:
        for s in range(board.size):
            assert all(colour[u] != colour[s] for u in nbr[s] if u >= 0)
        # each part takes colour 0 on its lowest square: a1 and, on 3×3, the centre
        assert colour[0] == 0 and (board.size != 9 or colour[4] == 0)


@pytest.mark.parametrize("seed", range(6))
def test_free_groups(seed):
    board = Board(7, 9)
    rng = np.random.default_rng(seed)
    free = (rng.random(board.size) < 0.45).astype(np.uint8)
    label = np.full(board.size, 5, dtype=np.int32)
    queue = np.empty(board.size, dtype=np.int32)
    want, count = _groups(board.neighbours, free)
    assert count > 1
    assert free_groups(board.neighbours, free, label, queue) == count
    assert label.tolist() == want
