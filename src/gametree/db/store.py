"""The solution database on disk: one SQLite file, its schema, its metadata.

A database holds, for every position it covers, merged by the game's :meth:`Game.key` (so
symmetric twins are stored once):

``key``
    ``repr(game.key(state))``: the position's identity (unique; indexed).
``ply``
    How many moves the stored line has (the depth at which the position was first reached).
``moves``
    One line of moves (the game's own notation, separated by spaces) from the database's root
    to the position: the position that the row's best moves refer to.
``value``
    The result for the player to move with best play: ``1`` win, ``0`` draw, ``-1`` loss.
``plies``
    The distance to the end of the game in plies with best play (a win as soon, a loss as late
    as possible); ``NULL`` for a draw (the engine's distance scoring, :mod:`gametree.values`).
``best``
    Every best move (the game's notation, space-separated; empty when the game is over). A
    position solved by search at a book's frontier has the one best move the engine chose.
``kind``
    ``terminal`` (the game is over), ``interior`` (valued from its stored children) or
    ``frontier`` (solved by an exact search).

and once per database, in the ``meta`` table, what it holds: the game and its options, the
scoring convention, the gametree version, the kernel identity, the command that built it and
its timings (:data:`META_KEYS`). The ``runs`` table records each build run (how many positions
it solved by search), so that a resumed build can be shown to have solved nothing twice.

The file is in WAL mode (readers never wait for the writer, and a writer killed in the middle
of a transaction leaves the last committed state), written in batched transactions. A
database built for one variant of a game is refused for any other (:meth:`Database.check_game`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game import Game
from ..values import proven_result, proven_value
from .variant import describe_variant, fingerprint

SCHEMA_VERSION = 1
"""The version of the layout below; a file of another version is refused."""

APPLICATION_ID = 0x67745462  # "gtTb": marks the file as a gametree database (PRAGMA application_id)

SCORING = ("value: 1 win, 0 draw, -1 loss for the player to move; plies: distance to the end "
           "with best play (win as soon, lose as late as possible), NULL for a draw")
"""The scoring convention, as stored in every database's metadata."""

KINDS = ("terminal", "interior", "frontier")
"""The kinds of rows."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    key TEXT NOT NULL,
    ply INTEGER NOT NULL,
    moves TEXT NOT NULL,
    value INTEGER NOT NULL CHECK (value IN (-1, 0, 1)),
    plies INTEGER,
    best TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('terminal', 'interior', 'frontier'))
);
CREATE UNIQUE INDEX IF NOT EXISTS positions_key ON positions (key);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started REAL NOT NULL,
    finished REAL,
    solved INTEGER NOT NULL DEFAULT 0,
    stored INTEGER NOT NULL DEFAULT 0,
    command TEXT NOT NULL
);
"""

META_KEYS = ("schema_version", "game", "options", "fingerprint", "root", "coverage", "plies",
             "scoring", "gametree_version", "kernel", "command", "created", "complete",
             "timings")
"""The metadata every database has (``plies`` and ``timings`` may be empty)."""

_BUSY_SECONDS = 60.0
"""How long a connection waits for another builder's lock before it fails."""


class DatabaseError(ValueError):
    """A file that is not a usable solution database (missing, not SQLite, damaged, another
    schema) or that holds another variant of the game; the message is one line."""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored position."""

    key: str
    ply: int
    moves: str
    value: int
    plies: int | None
    best: str
    kind: str

    def as_dict(self) -> dict[str, Any]:
        """The row as a JSON-ready dict (the ``db export`` and ``db query`` fields)."""
        return {"key": self.key, "ply": self.ply, "moves": self.moves, "value": self.value,
                "plies": self.plies, "best": self.best.split() if self.best else [],
                "kind": self.kind}


RowTuple = tuple[str, int, str, int, int | None, str, str]
"""A row as a tuple, in the :class:`Row` field order (what builders hand to
:meth:`Database.add`)."""


def stored_value(value: int) -> tuple[int, int | None]:
    """A proven engine-scale value (:mod:`gametree.values`) as the stored ``(value, plies)``:
    ``(1, p)`` for a win in ``p`` plies, ``(-1, p)`` for a loss in ``p``, ``(0, None)`` for a
    draw (every value a solved position has that is not a win or a loss)."""
    return proven_result(value)


def engine_value(value: int, plies: int | None) -> int:
    """The engine-scale value of a stored ``(value, plies)`` pair (:func:`stored_value`'s
    inverse)."""
    if value != 0 and plies is None:
        raise DatabaseError(f"a stored {'win' if value > 0 else 'loss'} without its distance")
    return proven_value(value, plies)


def key_text(key: Any) -> str:
    """The stored form of a game key (``repr``: stable for ints, strings and tuples)."""
    return repr(key)


def options_text(options: Mapping[str, Any]) -> str:
    """Game options as canonical JSON (tuples as lists, keys sorted)."""
    return json.dumps({name: list(value) if isinstance(value, tuple) else value
                       for name, value in options.items()}, sort_keys=True)


class Database:
    """A solution database file, open for reading or writing.

    Open an existing one with :meth:`open` (read-only unless ``write``), or create one with
    :meth:`create`. Rows are added with :meth:`add` (in one transaction per call: callers
    batch them) and read with :meth:`get`, :meth:`rows` and :meth:`count`. Use it in a
    ``with`` block, or call :meth:`close`.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        """The file."""
        self._meta: dict[str, str] | None = None

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, write: bool = False) -> Database:
        """Open the database at ``path``; :class:`DatabaseError` (one line) if it is missing,
        is not a gametree database, is damaged or has another schema version."""
        file = Path(path)
        if not file.exists():
            raise DatabaseError(f"{file}: no such database file")
        if file.is_dir():
            raise DatabaseError(f"{file}: is a directory, not a database file")
        mode = "rw" if write else "ro"
        try:
            connection = sqlite3.connect(f"{file.resolve().as_uri()}?mode={mode}", uri=True,
                                         timeout=_BUSY_SECONDS, isolation_level=None,
                                         check_same_thread=False)  # callers serialise
        except sqlite3.Error as error:
            raise DatabaseError(f"{file}: cannot open: {error}") from None
        database = cls(connection, file)
        try:
            database._check_file()
            if write:
                database._writable()
        except sqlite3.DatabaseError as error:
            connection.close()
            raise DatabaseError(f"{file}: not a gametree database ({error})") from None
        except DatabaseError:
            connection.close()
            raise
        return database

    @classmethod
    def create(cls, path: str | Path, meta: Mapping[str, str]) -> Database:
        """Create (or open to continue) the database at ``path`` for the variant that
        ``meta`` describes. An existing file must hold the same variant, else
        :class:`DatabaseError`; its metadata is kept (a resumed build continues it)."""
        file = Path(path)
        if file.exists() and not _blank(file):
            database = cls.open(file, write=True)
            try:
                database.check_variant(meta["game"], json.loads(meta["options"]),
                                       meta["fingerprint"], root=meta.get("root"),
                                       coverage=(meta.get("coverage"), meta.get("plies")))
            except DatabaseError:
                database.close()
                raise
            return database
        try:
            connection = sqlite3.connect(str(file), timeout=_BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as error:
            raise DatabaseError(f"{file}: cannot create: {error}") from None
        database = cls(connection, file)
        try:
            database._writable()
            with database.transaction():
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        connection.execute(statement)
                # Two builders starting at once: the first one's metadata stands.
                connection.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                                       [(name, meta.get(name, "")) for name in META_KEYS
                                        if name != "schema_version"]
                                       + [("schema_version", str(SCHEMA_VERSION))])
        except sqlite3.Error as error:
            connection.close()
            raise DatabaseError(f"{file}: cannot create: {error}") from None
        database._meta = None
        database.check_variant(meta["game"], json.loads(meta["options"]), meta["fingerprint"],
                               root=meta.get("root"),
                               coverage=(meta.get("coverage"), meta.get("plies")))
        return database

    def _writable(self) -> None:
        """WAL mode (readers never block the writer), and a wait instead of a failure when
        another builder holds the write lock."""
        self._db.execute(f"PRAGMA busy_timeout = {int(_BUSY_SECONDS * 1000)}")
        # Turning WAL on takes the file's exclusive lock without waiting for it (SQLite calls no
        # busy handler there): a second builder creating the same file at the same moment
        # found it locked and failed. It waits here instead, as long as the busy timeout.
        deadline = time.monotonic() + _BUSY_SECONDS
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._db.execute("PRAGMA synchronous = NORMAL")

    def _check_file(self) -> None:
        db = self._db
        application = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if application != APPLICATION_ID or not {"meta", "positions"} <= tables:
            raise DatabaseError(f"{self.path}: an SQLite file, but not a gametree database")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: schema version {version}; this gametree reads "
                                f"version {SCHEMA_VERSION}")
        db.execute("SELECT count(*) FROM meta").fetchone()

    def close(self) -> None:
        """Close the file (a no-op the second time)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- metadata -----------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, str]:
        """The metadata (``META_KEYS``), as stored."""
        if self._meta is None:
            try:
                self._meta = dict(self._db.execute("SELECT name, value FROM meta").fetchall())
            except sqlite3.DatabaseError as error:
                raise DatabaseError(f"{self.path}: damaged ({error})") from None
        return dict(self._meta)

    @property
    def game_name(self) -> str:
        """The registered name of the game it holds."""
        return self.meta.get("game", "")

    @property
    def game_options(self) -> dict[str, Any]:
        """The game options it was built with (lists for tuples, as JSON has them)."""
        return dict(json.loads(self.meta.get("options") or "{}"))

    @property
    def variant(self) -> str:
        """The game and its options, as the command line writes them."""
        return describe_variant(self.game_name, self.game_options)

    def set_meta(self, values: Mapping[str, str]) -> None:
        """Replace metadata values (one transaction)."""
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                 list(values.items()))
        self._meta = None

    def check_variant(self, game: str, options: Mapping[str, Any], fingerprint_: str, *,
                      root: str | None = None,
                      coverage: tuple[str | None, str | None] | None = None) -> None:
        """:class:`DatabaseError` unless the database holds this game, with these options
        (and, when given, this root and coverage: a build continues only its own kind)."""
        meta = self.meta
        wanted = describe_variant(game, options)
        if meta.get("game") != game or json.loads(meta.get("options") or "{}") != json.loads(
                options_text(options)):
            raise DatabaseError(f"{self.path} holds {self.variant}, not {wanted}: a database "
                                f"serves only the variant it was built for")
        if meta.get("fingerprint") != fingerprint_:
            raise self._built_otherwise_error(game, "in another file")
        if root is not None and meta.get("root", "") != root:
            raise DatabaseError(f"{self.path} was built from the position after "
                                f"{meta.get('root') or 'no moves'!r}, not {root or 'no moves'!r}")
        if coverage is not None and coverage[0] and (meta.get("coverage"), meta.get(
                "plies")) != coverage:
            had = _coverage_text(meta.get("coverage"), meta.get("plies"))
            asked = _coverage_text(*coverage)
            raise DatabaseError(f"{self.path} holds {had}; this build asks for {asked}: use "
                                f"another file")

    def check_game(self, game: Game[Any, Any]) -> None:
        """:class:`DatabaseError` unless ``game`` is the variant this database was built for."""
        if fingerprint(game) != self.meta.get("fingerprint"):
            name = getattr(game, "name", type(game).__name__)
            if name == self.game_name and self._built_otherwise():
                raise self._built_otherwise_error(name)
            raise DatabaseError(f"{self.path} holds {self.variant}: it cannot answer for "
                                f"this {name} game (another variant)")

    def _built_otherwise_error(self, name: str, where: str = "") -> DatabaseError:
        """The refusal of a file a gametree that defined the game ``name`` otherwise built."""
        again = f"build it again {where}".rstrip()
        return DatabaseError(f"{self.path} holds {self.variant} as a gametree whose {name} "
                             f"differed (its key, say) built it: {again}")

    def _built_otherwise(self) -> bool:
        """True if this gametree's game of the stored variant has another fingerprint than the
        stored one: the file was built by a gametree that defined the game otherwise."""
        from ..registry import make  # noqa: PLC0415 - only to explain a refusal

        options = {name: tuple(value) if isinstance(value, list) else value
                   for name, value in self.game_options.items()}
        try:
            return fingerprint(make(self.game_name, **options)) != self.meta.get("fingerprint")
        except Exception:  # a variant this gametree cannot make: another variant
            return False

    # -- rows ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE``: a second builder waits its turn)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def add(self, rows: Iterable[Sequence[Any]], *, run: int | None = None,
            solved: int = 0) -> int:
        """Store ``rows`` (tuples in the :class:`Row` field order) in one transaction; a key
        already stored is left as it is. ``run`` and ``solved``: the build run that solved
        ``solved`` of these positions by search (recorded with them, atomically). Returns how
        many rows were new."""
        with self.transaction():
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO positions (key, ply, moves, value, plies, best, kind) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            added = self._db.total_changes - before
            if run is not None:
                self._db.execute("UPDATE runs SET solved = solved + ?, stored = stored + ? "
                                 "WHERE id = ?", (solved, added, run))
        return added

    def get(self, key: Any) -> Row | None:
        """The row of a game key (as :meth:`Game.key` returns it), or ``None``."""
        return self.get_text(key_text(key))

    def get_text(self, key: str) -> Row | None:
        """The row of a stored key text, or ``None``."""
        try:
            found = self._db.execute(
                "SELECT key, ply, moves, value, plies, best, kind FROM positions "
                "WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: damaged ({error})") from None
        return None if found is None else Row(*found)

    def known(self, keys: Iterable[str]) -> set[str]:
        """Which of these key texts are stored."""
        found: set[str] = set()
        batch: list[str] = []
        for key in keys:
            batch.append(key)
            if len(batch) == 500:
                found.update(self._known(batch))
                batch = []
        if batch:
            found.update(self._known(batch))
        return found

    def _known(self, batch: list[str]) -> list[str]:
        marks = ",".join("?" * len(batch))
        return [key for (key,) in self._db.execute(
            f"SELECT key FROM positions WHERE key IN ({marks})", batch)]

    def rows(self) -> Iterator[Row]:
        """Every row in a stable order: by ply, then by key."""
        try:
            cursor = self._db.execute(
                "SELECT key, ply, moves, value, plies, best, kind FROM positions "
                "ORDER BY ply, key")
            for found in cursor:
                yield Row(*found)
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: damaged ({error})") from None

    def count(self, kind: str | None = None) -> int:
        """How many positions are stored (of one kind, if given)."""
        try:
            if kind is None:
                return int(self._db.execute("SELECT count(*) FROM positions").fetchone()[0])
            return int(self._db.execute("SELECT count(*) FROM positions WHERE kind = ?",
                                        (kind,)).fetchone()[0])
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: damaged ({error})") from None

    def summary(self) -> dict[str, Any]:
        """Counts by kind, ply and value (for ``db stats``)."""
        db = self._db
        try:
            by_kind = dict(db.execute("SELECT kind, count(*) FROM positions GROUP BY kind"))
            by_ply = db.execute("SELECT ply, count(*) FROM positions GROUP BY ply ORDER BY ply")
            by_value = dict(db.execute(
                "SELECT value, count(*) FROM positions GROUP BY value"))
            runs = db.execute("SELECT id, started, finished, solved, stored, command FROM runs "
                              "ORDER BY id").fetchall()
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: damaged ({error})") from None
        return {
            "positions": sum(by_kind.values()),
            "by_kind": {kind: by_kind.get(kind, 0) for kind in KINDS},
            "by_ply": {str(ply): count for ply, count in by_ply},
            "by_value": {"win": by_value.get(1, 0), "draw": by_value.get(0, 0),
                         "loss": by_value.get(-1, 0)},
            "runs": [{"id": run[0], "started": run[1], "finished": run[2], "solved": run[3],
                      "stored": run[4], "command": run[5]} for run in runs],
        }

    # -- runs ---------------------------------------------------------------------------------

    def start_run(self, command: str) -> int:
        """Record the start of a build run; returns its id."""
        with self.transaction():
            cursor = self._db.execute("INSERT INTO runs (started, command) VALUES (?, ?)",
                                      (time.time(), command))
        return int(cursor.lastrowid or 0)

    def finish_run(self, run: int) -> None:
        """Record the end of a build run."""
        with self.transaction():
            self._db.execute("UPDATE runs SET finished = ? WHERE id = ?", (time.time(), run))

    def solved_total(self) -> int:
        """Positions solved by search over every run (each stored exactly once)."""
        return int(self._db.execute("SELECT coalesce(sum(solved), 0) FROM runs").fetchone()[0])

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """Run one SQL statement and return its rows (for tools and tests)."""
        with self.transaction():
            return self._db.execute(sql, parameters).fetchall()

    def size(self) -> int:
        """Bytes on disk (the file and its write-ahead log)."""
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += Path(str(self.path) + suffix).stat().st_size
        return total


def _blank(file: Path) -> bool:
    """Whether ``file`` is an SQLite file with nothing in it yet: one that another builder,
    started at the same moment, is creating (its schema comes in one transaction, which this
    builder's own creation then waits for and leaves as it is)."""
    try:
        if file.stat().st_size == 0:
            return True
        with contextlib.closing(sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro",
                                                uri=True, timeout=_BUSY_SECONDS)) as connection:
            (application,) = connection.execute("PRAGMA application_id").fetchone()
            (objects,) = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (OSError, sqlite3.Error):
        return False
    return bool(application == 0 and objects == 0)


def _coverage_text(coverage: str | None, plies: str | None) -> str:
    if coverage == "all":
        return "the whole game"
    return f"an opening book to {plies} plies"


def now() -> float:
    """Seconds since the epoch (for timings)."""
    return time.time()


__all__ = ["KINDS", "META_KEYS", "SCHEMA_VERSION", "SCORING", "Database", "DatabaseError",
           "Row", "RowTuple", "describe_variant", "engine_value", "fingerprint", "key_text",
           "options_text", "stored_value"]
