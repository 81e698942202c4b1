# %% [markdown]
# # knightgui for researchers: the front door in ten minutes
#
# Everything below uses only what `import knightgui_core as kg` offers: a `Board` and one
# function per question, each returning a frozen result whose `to_dict()` is JSON-ready
# (the same keys as the matching `knightgui … --json` command). Run it as a plain script
# (`python examples/researcher.py`, a few seconds) or cell by cell in an editor that reads
# the `# %%` markers. The figures it checks are published ones.

# %%
import json
import sys
from itertools import islice

import knightgui_core as kg

board = kg.Board(8, 8)          # rows, cols; also topology="cylinder"/"torus", leaper=(1, 3)
print(board.describe(), "-", board.size, "squares")

# %% [markdown]
# ## One tour by a tie rule
# Warnsdorff's rule moves to the square with the fewest onward exits; the tie rule picks
# among equals. The result says whether a tour was found and how.

# %%
for tie in ("phadke", "first", "center-far"):
    r = kg.solve(board, start="a1", tie=tie)
    print(f"{tie:>10}: found={r.found}, {r.message}")
print(kg.solve(board, start="d4", closed=True).tour.render())

# No tour exists on 4×4: that is an answer with its proof, not an error.
print(kg.solve(kg.Board(4, 4)).message)

# %% [markdown]
# ## Every Warnsdorff tour between two squares (Phadke's enumeration)
# An iterator: read as many as you need; `count()` runs on to the end without building tours.

# %%
tours = kg.warnsdorff_tours(board, "a8", end="c7")
for t in islice(tours, 2):
    print("closed tour from", board.name(int(t.path[0])), "to", board.name(int(t.path[-1])))
count = tours.count()
print(f"a8→c7: {count.solutions:,} closed Warnsdorff tours, {count.dead_ends:,} dead ends")
assert count.solutions == 14258                      # Phadke's count for this pair

# %% [markdown]
# ## How many Warnsdorff tours, and how likely is a random walk to finish?
# Every tie followed from every start; `p_success` is the exact probability that breaking
# each tie uniformly at random completes a tour (Knuth, TAOCP Pre-Fascicle 8A: 97.2 % on
# 6×6, 97.9 % on 8×8).

# %%
c6 = kg.count_warnsdorff_tours(kg.Board(6, 6))
print(f"6×6: {c6.tours:,} Warnsdorff tours ({c6.closed:,} closed), "
      f"P(success) = {c6.p_success:.4%}")
assert round(100 * c6.p_success, 1) == 97.2

# The studies run embedded by default; `client=` takes a distributed.Client or a scheduler
# address such as "tcp://HOST:8786", and `store="counts.sqlite"` keeps finished tasks.
c8 = kg.count_warnsdorff_tours(board, "corners", client=None)
print("8×8 from the corners:", {s: rec["tours"] for s, rec in c8.per_start.items()})

# %% [markdown]
# ## Every tour, Warnsdorff's or not

# %%
every = kg.count_tours(kg.Board(5, 5))
print(f"5×5: {every.directed_paths:,} directed open paths, {every.closed_tours} closed "
      f"(by the {every.method} count: {every.method_reason})")
assert every.directed_paths == 1728                  # OEIS A165134

# %% [markdown]
# ## Studies, and their results as JSON

# %%
sym = kg.study_symmetric(kg.Board(6, 6), "half-turn")
print(f"6×6: {sym.closed_tours} closed tours the half turn keeps")
assert sym.closed_tours == 78                        # Jelliss: 17 × 4 + 5 × 2

longest = kg.study_uncrossed(kg.Board(6, 6))
print(f"6×6: the longest uncrossed path has {longest.length} moves:", " ".join(longest.path))
assert longest.length == 17                          # OEIS A003192

json.dump(longest.to_dict(), sys.stdout)
print()

# %% [markdown]
# ## Errors
# Bad input raises `kg.InputError` (a `ValueError`) with one sentence.

# %%
try:
    kg.solve(board, start="j9")
except kg.InputError as e:
    print("refused:", e)
