# PyInstaller runtime hook for knightgui: runs in the bundle before the entry script.
#
# numba's cache: core._jit picks the folder ($KNIGHTGUI_CACHE_DIR, else the user's cache
# directory, e.g. ~/.cache/knightgui/numba) and sets NUMBA_CACHE_DIR before numba is imported.
# In a bundle, numba's stock locator for that folder rejects kernels (their source file is
# inside the archive), so name knightgui's frozen-aware locator first; numba's own
# user-wide locator stays as the fallback. Nothing here imports numba (--version stays fast).
import os
import sys

if getattr(sys, "frozen", False):
    os.environ.setdefault(
        "NUMBA_CACHE_LOCATOR_CLASSES",
        "knightgui._frozen_numba.FrozenCacheLocator,UserWideCacheLocator",
    )
