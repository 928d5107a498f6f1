"""Installed opening books: solution databases that every search consults by default.

A book is a solution database (``gametree db build GAME --plies N --install``) kept in a book
directory. The search service answers a position that an installed book of its game's variant
covers from the book — exact values, zero nodes searched, the result's ``source`` ``"book"`` —
unless the search asks otherwise (``book=False``, ``--no-book``) or the book cannot stand for
it (:func:`gametree.service.search` says when). Every front-end searches through the service,
so the command line, the terminal player and the web server all answer from it.

Where books are looked for (:func:`book_directories`): the directories of the environment
variable :data:`BOOKS_ENV` (``GAMETREE_BOOKS``, separated by ``os.pathsep``; empty: no books),
else the user's book directory (``$XDG_DATA_HOME/gametree/books``, by default
``~/.local/share/gametree/books``: where ``db build --install`` writes) and the books shipped in
the package (``gametree/db/data``). A file there is a book for the variant it was built for if
its build finished and started from the game's initial position; the first found for a variant
is used. A process looks once, at its first search of a variant (:func:`forget` looks again);
what it found is kept in the cache directory for the next process, under a stamp of the
files' names, sizes and times (:mod:`gametree.remembered`), so that a search of a variant
without a book opens no file and imports no SQLite.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cachedir import cache_directory
from ..game import Game
from ..remembered import recall, remember
from ..result import SearchResult
from .variant import describe_variant, fingerprint

if TYPE_CHECKING:
    from .answer import SolutionDatabase

BOOKS_ENV = "GAMETREE_BOOKS"
"""The environment variable naming the book directories (``os.pathsep``-separated); set, it
replaces the default ones; set and empty, no book is used."""

PACKAGE_BOOKS = Path(__file__).resolve().parent / "data"
"""The books shipped with the package."""

SUFFIX = ".db"
"""The file name ending of a book."""


def user_book_directory() -> Path:
    """The user's book directory: ``$XDG_DATA_HOME/gametree/books`` (by default
    ``~/.local/share/gametree/books``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gametree" / "books"


def book_directories() -> list[Path]:
    """Where books are looked for, in order (see the module's docstring)."""
    named = os.environ.get(BOOKS_ENV)
    if named is not None:
        return [Path(part) for part in named.split(os.pathsep) if part]
    return [user_book_directory(), PACKAGE_BOOKS]


def book_file_name(game: str, options: dict[str, Any]) -> str:
    """The file name of the book of a variant: ``connect4-height-6-width-7.db``."""
    words = describe_variant(game, options).split()
    return "-".join(word.lstrip("-") for word in words) + SUFFIX


def default_book_path(game: str, options: dict[str, Any]) -> Path:
    """Where ``db build --install`` writes the book of a variant: in the first book directory
    (the user's, unless :data:`BOOKS_ENV` names others)."""
    from .store import DatabaseError  # noqa: PLC0415 - SQLite only once a book is at stake

    directories = book_directories()
    if not directories:
        raise DatabaseError(f"{BOOKS_ENV} is set and empty: there is no book directory to "
                            f"write to (give --db FILE instead)")
    return directories[0] / book_file_name(game, options)


class Book:
    """An installed book, open for searches of one variant (safe in any thread)."""

    def __init__(self, path: Path, game: Game[Any, Any]) -> None:
        from .answer import SolutionDatabase  # noqa: PLC0415 - SQLite only for a book

        self.database: SolutionDatabase[Any, Any] = SolutionDatabase(path, game)
        self.path = path
        """The book's file."""
        self.plies = _number(self.database.store.meta.get("plies"))
        """The plies the book covers from the start (``None``: the whole game)."""

    def result(self, state: Any, *, exact: bool = False,
               seed: int | None = None) -> SearchResult[Any] | None:
        """The book's answer for ``state`` (``source`` ``"book"``), or ``None`` where it has
        none: a position it does not hold, or with ``exact`` one some of whose moves lead out
        of it (a position at the book's last ply)."""
        database = self.database
        if database.store.get(database.game.key(state)) is None:
            return None  # one query: most positions searched are beyond the book
        found = database.result(state, exact=exact, seed=seed)
        return None if found is None else replace(found, source="book")


_lock = threading.Lock()
_index: dict[str, Path] | None = None
"""Every book found, by the fingerprint of its variant (:func:`_find`)."""
_open: dict[str, Book | None] = {}
"""The books opened in this process, by fingerprint (``None``: no book for that variant)."""
_last: tuple[Any, Book | None] | None = None
"""The game of the latest call of :func:`book_for` and its book (one reference, replaced
whole: safe in threads)."""


def book_for(game: Game[Any, Any]) -> Book | None:
    """The installed book of ``game``'s variant, opened (once per process), or ``None``."""
    global _last  # noqa: PLW0603 - replaced whole
    last = _last
    if last is not None and last[0] is game:
        return last[1]  # the game of the call before: the common case, no fingerprint
    book = _book_of(game, fingerprint(game))
    _last = (game, book)
    return book


def _book_of(game: Game[Any, Any], variant: str) -> Book | None:
    """The book of the variant whose fingerprint is ``variant``, opened for ``game``."""
    try:
        return _open[variant]
    except KeyError:
        pass
    with _lock:
        if variant not in _open:
            index = _find() if _index is None else _index
            path = index.get(variant)
            book = None
            if path is not None:
                from .store import DatabaseError  # noqa: PLC0415 - SQLite only for a book

                try:
                    book = Book(path, game)
                except DatabaseError:
                    book = None  # damaged or replaced since it was found: no book
            _open[variant] = book
        return _open[variant]


def installed() -> dict[str, Path]:
    """Every installed book, by the fingerprint of its variant."""
    with _lock:
        return dict(_find() if _index is None else _index)


def forget() -> None:
    """Forget the books found and opened: the next search looks again (after a book is
    built or removed, or :data:`BOOKS_ENV` changed)."""
    global _index, _last  # noqa: PLW0603 - replaced whole
    with _lock:
        _last = None
        for book in _open.values():
            if book is not None:
                book.database.close()
        _open.clear()
        _index = None


def _forked() -> None:
    """In a forked child: forget the parent's books without closing its files (SQLite
    connections must not cross a fork), so that the child opens its own."""
    global _index, _last, _lock  # noqa: PLW0603 - the child's own
    _lock = threading.Lock()  # another thread of the parent may have held it
    _open.clear()
    _index = None
    _last = None


if hasattr(os, "register_at_fork"):  # POSIX: elsewhere there is no fork
    os.register_at_fork(after_in_child=_forked)


INDEX_FORMAT = 1
"""The version of the index file's layout (:mod:`gametree.remembered`'s, each finding a
mapping of fingerprints to book files)."""


def _find() -> dict[str, Path]:
    """Look through the book directories (called with the lock held): the variant of each
    book file, as a process that saw the same files found them (the index in the cache
    directory, :mod:`gametree.remembered`), else read from each file. A search of a variant
    with no book then imports no SQLite (6 ms of a command's start)."""
    global _index  # noqa: PLW0603 - replaced whole
    listing = _listing()
    stamp = _stamp(listing)
    index = cache_directory() / "books-index.json"
    kept = recall(index, INDEX_FORMAT)
    found = _paths(kept.get(stamp))
    if found is None:
        found = {}
        for file in (file for _directory, files in listing for file in files):
            variant = _book_variant(file)
            if variant is not None and variant not in found:
                found[variant] = file
        remember(index, INDEX_FORMAT, stamp,
                 {variant: str(file) for variant, file in found.items()}, kept)
    _index = found
    return found


def _listing() -> list[tuple[Path, list[Path]]]:
    """Each book directory and the files in it that may be books, in order."""
    listing = []
    for directory in book_directories():
        try:
            listing.append((directory, sorted(directory.glob(f"*{SUFFIX}"))))
        except OSError:
            continue
    return listing


def _stamp(listing: list[tuple[Path, list[Path]]]) -> str:
    """A digest of the directories and of each file's (and its write-ahead log's) name, size
    and times: a book built, finished, replaced or removed changes it."""
    digest = hashlib.sha256()
    for directory, files in listing:
        digest.update(f"\0{directory}\0".encode("utf-8", "surrogateescape"))
        for file in files:
            for part in (file, file.with_name(file.name + "-wal")):
                try:
                    status = part.stat()
                except OSError:
                    continue
                digest.update(f"{part.name}\0{status.st_size}\0{status.st_mtime_ns}\0"
                              f"{status.st_ctime_ns}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _paths(kept: Any) -> dict[str, Path] | None:
    """A kept index as fingerprints and paths, or None if there is none (or it is not one of
    ours)."""
    if not isinstance(kept, dict):
        return None
    return {str(variant): Path(str(file)) for variant, file in kept.items()}


def _book_variant(file: Path) -> str | None:
    """The fingerprint of the variant ``file`` is a finished book of, built from the start;
    ``None`` for any other file."""
    from .store import Database, DatabaseError  # noqa: PLC0415 - SQLite only to read a file

    try:
        with Database.open(file) as database:
            meta = database.meta
    except (DatabaseError, OSError):
        return None
    if meta.get("complete") != "1" or meta.get("root"):
        return None
    return meta.get("fingerprint") or None


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


__all__ = ["BOOKS_ENV", "PACKAGE_BOOKS", "Book", "book_directories", "book_file_name",
           "book_for", "default_book_path", "forget", "installed", "user_book_directory"]
