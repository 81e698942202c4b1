"""A tour by hand: the play model (Qt-free), its files, its view and its controller."""
