"""Every tour, not only the Warnsdorff ones: the all-tours counter and lister (small boards),
the existence search built on it and the tours symmetric under a turn of the board. Uses the
count by states' transposition table (``..counting``)."""
