"""The enumeration: Phadke's options matrix with every tie followed, on any board (the keyed
array state, dashes) or on a board of at most 64 squares (the bitboard state). The public
wrapper is :class:`enumerator.Enumerator`; its kernels keep, stream or step the solutions and
rebuild a solution's options rows."""
