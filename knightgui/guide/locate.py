"""Where the user guide lives at run time, and what its pages are (paths and text, no Qt).

The guide is the Markdown of ``docs/guide/``, installed as package data in
``knightgui/guide/pages/`` beside this module (pyproject and the PyInstaller spec map it
there), so :func:`find_guide` has one rule: ``pages/`` next to this file, else ``docs/guide/``
of the checkout this file belongs to. Failing both, the guide is the reference documents of
``docs/`` (first page ``usage.md``), and without those ``README.md``; with no Markdown at all
the viewer says where it looked.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Guide", "find_guide", "find_docs", "guide_candidates", "in_checkout", "load_guide",
           "page_title", "slug", "MARKDOWN_SUFFIXES"]

#: the file names read as Markdown pages
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mkd")
HERE = Path(__file__).resolve().parent
#: the source checkout this module belongs to, if it runs from one (see :func:`in_checkout`)
CHECKOUT = HERE.parent.parent

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


@dataclass(frozen=True)
class Guide:
    """A folder of Markdown pages as the viewer shows it: ``pages`` in contents order (the
    contents page, the pages it links to, the others by name), ``first`` where Getting
    started opens, ``contents`` where Contents goes; ``folder`` None when no page was found,
    ``looked_in`` where the search went."""

    folder: Path | None
    pages: tuple[Path, ...] = ()
    first: Path | None = None
    contents: Path | None = None
    looked_in: tuple[Path, ...] = ()
    titles: dict[Path, str] = field(default_factory=dict, compare=False)

    @property
    def found(self) -> bool:
        return self.folder is not None and bool(self.pages)

    def title(self, page: Path) -> str:
        """The page's first heading (its file name in words when it has none)."""
        return self.titles.get(page) or page_title(page)


def _is_page(p: Path) -> bool:
    return p.is_file() and p.suffix.lower() in MARKDOWN_SUFFIXES


def _markdown_in(folder: Path, recursive: bool = True) -> list[Path]:
    if not folder.is_dir():
        return []
    found = folder.rglob("*") if recursive else folder.iterdir()
    return sorted((p.resolve() for p in found if _is_page(p)), key=lambda p: str(p).lower())


def page_title(page: Path) -> str:
    """The first ATX heading of ``page`` (``# Title``), else its file name in words."""
    try:
        text = page.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(line)
        if m:
            return re.sub(r"[*_`]", "", m.group(1)).strip()
    return page.stem.replace("-", " ").replace("_", " ").strip().capitalize() or page.name


def slug(heading: str) -> str:
    """The anchor a link uses for a heading (``#getting-started`` for "Getting started"): the
    rule GitHub and most Markdown tools follow."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def _linked_pages(contents: Path, pages: set[Path]) -> list[Path]:
    """The pages ``contents`` links to, in the order of its links, each once."""
    try:
        text = contents.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    order: list[Path] = []
    for target in _LINK.findall(text):
        if "://" in target or target.startswith(("#", "mailto:")):
            continue
        p = (contents.parent / target.split("#", 1)[0]).resolve()
        if p in pages and p not in order and p != contents:
            order.append(p)
    return order


def load_guide(folder: Path, first_names: tuple[str, ...] = ("getting-started.md",),
               contents_names: tuple[str, ...] = ("index.md", "README.md"),
               recursive: bool = True, looked_in: tuple[Path, ...] = ()) -> Guide:
    """The :class:`Guide` of the Markdown pages in ``folder`` (and its subfolders when
    ``recursive``); ``first_names`` and ``contents_names`` are tried in order for the first
    page and the contents page."""
    folder = folder.resolve()
    pages = _markdown_in(folder, recursive)
    if not pages:
        return Guide(None, looked_in=looked_in or (folder,))
    by_name = {p.relative_to(folder).as_posix().lower(): p for p in pages}

    def pick(names: tuple[str, ...]) -> Path | None:
        return next((by_name[n.lower()] for n in names if n.lower() in by_name), None)
    contents = pick(contents_names)
    linked = _linked_pages(contents, set(pages)) if contents else []
    order = ([contents] if contents else []) + linked
    order += [p for p in pages if p not in order]
    first = pick(first_names) or (linked[0] if linked else order[0])
    return Guide(folder, tuple(order), first, contents or order[0],
                 looked_in or (folder,), {p: page_title(p) for p in order})


def in_checkout() -> bool:
    """Whether :data:`CHECKOUT` is knightgui's source checkout (its ``pyproject.toml`` names
    the project), not ``site-packages``, whose ``docs`` may be any package's."""
    try:
        head = (CHECKOUT / "pyproject.toml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return 'name = "knightgui"' in head


def guide_candidates() -> tuple[Path, ...]:
    """Where the guide may be, in the order looked: installed beside this module (a wheel, the
    bundle), then the checkout's ``docs/guide`` when knightgui runs from its checkout."""
    return (HERE / "pages",) + ((CHECKOUT / "docs" / "guide",) if in_checkout() else ())


def find_docs() -> Guide:
    """The reference documents of a source checkout: the Markdown under ``docs/`` (contents
    ``index.md``, first page ``usage.md``), else its ``README.md``."""
    docs = CHECKOUT / "docs"
    if not in_checkout():
        return Guide(None, looked_in=(docs,))
    if _markdown_in(docs):
        return load_guide(docs, ("usage.md", "index.md"), ("index.md", "usage.md", "README.md"),
                          looked_in=(docs,))
    readme = (CHECKOUT / "README.md").resolve()
    if readme.is_file():
        return Guide(CHECKOUT, (readme,), readme, readme, (docs, CHECKOUT),
                     {readme: page_title(readme)})
    return Guide(None, looked_in=(docs, readme))


def find_guide(candidates: tuple[Path, ...] | None = None) -> Guide:
    """The user guide: the first of ``candidates`` (default :func:`guide_candidates`) that
    holds Markdown pages; failing all of them, the reference documents (:func:`find_docs`),
    which only a source checkout has. ``found`` is False when there is no page at all."""
    tried = tuple(guide_candidates() if candidates is None else candidates)
    for folder in tried:
        if _markdown_in(folder):
            return load_guide(folder, looked_in=tried)
    if candidates is not None:       # an explicit list: only those folders
        return Guide(None, looked_in=tried)
    docs = find_docs()
    return dataclasses.replace(docs, looked_in=tried + docs.looked_in)
