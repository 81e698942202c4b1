"""One module per CLI command: ``add_parser(subparsers)`` and the function it binds.

Each command imports the engine inside its functions, not at the top: ``knightgui --help``
and a refused argument answer in 0.3–0.44 s instead of the 0.65–0.84 s that importing the
engine (numba) takes (``python -X importtime -c 'import knightgui_core.studies.count_study'``,
docs/architecture.md)."""
