"""The count by states: the tie trees counted without listing them, by subtree
(``subtrees``), through transposition tables keyed by state (``table``, ``bits_table``) and
folded by the board's symmetries (``fold``)."""
