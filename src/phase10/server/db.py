"""The server's database: tables, seats, every accepted action and finished records.

SQLAlchemy 2 with typed mappings. SQLite (the default, in WAL mode) or PostgreSQL by
URL. An action is committed before anyone hears of it, so a server stopped at any
moment resumes every table from its stored actions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = [
    "MAX_ID",
    "ActionRow",
    "Base",
    "DatabaseInUse",
    "RecordRow",
    "ReviewRow",
    "SeatRow",
    "Store",
    "TableRow",
    "default_database_url",
    "hash_token",
]


#: the PostgreSQL advisory lock a server holds on its database ("phase10" in ASCII)
SERVING_LOCK = 0x70686173653130
#: the largest id of an action or a record (a 64-bit integer; SQLite's rowid)
MAX_ID = 2**63 - 1
#: ids counted by the database: 64-bit, and SQLite's rowid there (only INTEGER is one)
Id = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    #: lobby, playing or over
    status: Mapped[str] = mapped_column(String(16))
    host_seat: Mapped[int] = mapped_column(Integer, default=0)
    #: the table's options as JSON (rules, seat count, bots, timer)
    options: Mapped[str] = mapped_column(Text)
    #: games played at this table so far (a rematch starts the next)
    game_no: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: when anything last happened at the table (a lobby idle too long is closed)
    touched: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the address that opened the table: its bots' thinking counts against that
    #: address's, after a restart too (none for tables an older version opened)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: human or bot
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "game_no", "number"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    game_no: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    #: who chose it: player, bot or timer
    by: Mapped[str] = mapped_column(String(16))


class RecordRow(Base):
    __tablename__ = "records"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    game_no: Mapped[int] = mapped_column(Integer)
    finished: Mapped[float] = mapped_column(Float)
    players: Mapped[str] = mapped_column(Text)
    winners: Mapped[str] = mapped_column(Text)
    record: Mapped[str] = mapped_column(Text)


class ReviewRow(Base):
    """A finished review of one player's decisions in a record (``Review.to_dict()``),
    filed under ``review_key`` (the record's content and the review's settings): other
    settings, or a record changed, are reviewed afresh. The table is created on a database
    an older version made (``create_all`` adds missing tables)."""

    __tablename__ = "reviews"

    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)
    review: Mapped[str] = mapped_column(Text)


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def default_database_url() -> str:
    """SQLite in the user's data directory (``$PHASE10_HOME`` when set)."""
    home = os.environ.get("PHASE10_HOME")
    if home:
        folder = Path(home)
    else:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("phase10", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class DatabaseInUse(Exception):
    """Another server is serving this database: both would play its tables and write over
    each other's moves."""


class Store:
    """Every read and write the server makes; each method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)
        self._add_new_columns()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._insert_action = insert(ActionRow)
        self._appender: Connection | None = None
        self._holding: Any = None  # what holds the database for this server (claim)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    def close(self) -> None:
        if self._appender is not None:
            self._appender.close()
        self.release()
        self.engine.dispose()

    def claim(self) -> None:
        """Hold the database for this server until :meth:`release` or the process ends
        (an advisory lock: on a file beside a SQLite database, in PostgreSQL itself).
        Raises :class:`DatabaseInUse` when another server holds it. An in-memory database
        is this process's alone; where no lock can be taken (a read-only folder, a system
        without ``fcntl``) nothing is held."""
        if self._holding is not None:
            return
        if self.engine.dialect.name == "postgresql":
            connection = self.engine.connect()
            if not connection.execute(
                text(f"SELECT pg_try_advisory_lock({SERVING_LOCK})")
            ).scalar():
                connection.close()
                raise DatabaseInUse(self._in_use(self.engine.url.render_as_string()))
            connection.commit()
            self._holding = connection
            return
        database = self.engine.url.database
        if self.engine.dialect.name != "sqlite" or not database or database == ":memory:":
            return
        try:
            import fcntl
        except ImportError:  # (not on this system)
            return
        path = Path(database)
        try:
            handle = open(path.with_name(f".{path.name}.lock"), "a+b")  # noqa: SIM115
        except OSError:
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise DatabaseInUse(self._in_use(str(path))) from None
        except OSError:  # (a file system without locks)
            handle.close()
            return
        self._holding = handle

    @staticmethod
    def _in_use(where: str) -> str:
        return (
            f"another phase10 server is using the database {where}: two servers on one "
            "database would both play its tables and write over each other's moves. Stop "
            "the other server first, or give this one a database of its own "
            "(--database-url sqlite:///FILE)"
        )

    def release(self) -> None:
        """Let go of the database (:meth:`claim`)."""
        holding, self._holding = self._holding, None
        if isinstance(holding, Connection):
            with contextlib.suppress(DBAPIError):
                holding.execute(text(f"SELECT pg_advisory_unlock({SERVING_LOCK})"))
            holding.close()
        elif holding is not None:
            holding.close()

    def _add_new_columns(self) -> None:
        """Add the columns later versions brought to a database an older one created
        (each is nullable, so old rows stay valid)."""
        have = {column["name"] for column in inspect(self.engine).get_columns("tables")}
        added = {"touched": "FLOAT", "owner": "VARCHAR(64)"}
        for name, kind in added.items():
            if name not in have:
                with self.engine.begin() as connection:
                    connection.execute(text(f"ALTER TABLE tables ADD COLUMN {name} {kind}"))

    # -- tables -----------------------------------------------------------------------

    def create_table(
        self, table_id: str, options: dict[str, Any], seats: list[SeatRow], owner: str = ""
    ) -> None:
        with self.session() as s:
            s.add(
                TableRow(
                    id=table_id,
                    created=time.time(),
                    status="lobby",
                    host_seat=0,
                    options=json.dumps(options),
                    game_no=0,
                    seed=None,
                    touched=time.time(),
                    owner=owner[:64] or None,
                )
            )
            s.flush()
            s.add_all(seats)

    def put_seat(self, row: SeatRow) -> None:
        with self.session() as s:
            s.merge(row)
            self._touch(s, row.table_id)

    def open_seat(self, table_id: str, seat: int) -> None:
        """The seat is free again (its player left or was removed)."""
        with self.session() as s:
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat))
            self._touch(s, table_id)

    def set_host(self, table_id: str, seat: int) -> None:
        with self.session() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(host_seat=seat))
            self._touch(s, table_id)

    def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        with self.session() as s:
            values = {"options": json.dumps(options)}
            s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            self._touch(s, table_id)

    def touch(self, table_id: str) -> None:
        with self.session() as s:
            self._touch(s, table_id)

    @staticmethod
    def _touch(s: Session, table_id: str) -> None:
        s.execute(update(TableRow).where(TableRow.id == table_id).values(touched=time.time()))

    def idle_lobbies(self, before: float) -> list[str]:
        """The lobbies nothing has happened at since ``before`` (a time as time.time())."""
        with self.session() as s:
            idle = select(TableRow.id).where(
                TableRow.status == "lobby",
                (TableRow.touched < before)
                | (TableRow.touched.is_(None) & (TableRow.created < before)),
            )
            return list(s.scalars(idle))

    def delete_lobby(self, table_id: str) -> bool:
        """Forget a lobby (no game was played there); False if it is no longer a lobby."""
        with self.session() as s:
            table = s.get(TableRow, table_id)
            if table is None or table.status != "lobby":
                return False
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            s.delete(table)
            return True

    def delete_abandoned(self, table_id: str) -> bool:
        """Forget a game nobody is seated at any more (its moves, seats and table; the
        records of its earlier games stay); False if it is not being played."""
        with self.session() as s:
            table = s.get(TableRow, table_id)
            if table is None or table.status != "playing":
                return False
            s.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            s.delete(table)
            return True

    def start_game(self, table_id: str, game_no: int, seed: int, bots: list[SeatRow]) -> None:
        """Mark a game begun and seat its bots, at once."""
        with self.session() as s:
            table = s.get(TableRow, table_id)
            if table is None:
                raise LookupError(f"there is no table {table_id!r}")
            table.status, table.game_no, table.seed = "playing", game_no, seed
            table.touched = time.time()
            for row in bots:
                s.merge(row)

    def append_action(self, table_id: str, game_no: int, number: int, text: str, by: str) -> None:
        """Commit one accepted action (the hot path: a plain insert, no ORM unit of work)."""
        row = {"table_id": table_id, "game_no": game_no, "number": number, "text": text, "by": by}
        if self._appender is None or self._appender.invalidated or self._appender.closed:
            # One connection kept for the hot path: a pool checkout costs more than the insert.
            self._appender = self.engine.connect()
        try:
            with self._appender.begin():
                self._appender.execute(self._insert_action, row)
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            self._appender = None
            with self.engine.begin() as connection:
                connection.execute(self._insert_action, row)

    def finish_game(
        self, table_id: str, game_no: int, record: dict[str, Any], winners: list[str]
    ) -> int:
        """Keep a finished game's record and mark the table over; returns the record's id."""
        with self.session() as s:
            table = s.get(TableRow, table_id)
            if table is None:
                raise LookupError(f"there is no table {table_id!r}")
            table.status = "over"
            table.touched = time.time()
            row = RecordRow(
                table_id=table_id,
                game_no=game_no,
                finished=time.time(),
                players=json.dumps(record["players"]),
                winners=json.dumps(winners),
                record=json.dumps(record),
            )
            s.add(row)
            s.flush()
            return row.id

    # -- reading ----------------------------------------------------------------------

    def tables(self) -> list[tuple[TableRow, list[SeatRow], list[str]]]:
        """Every table that is not over, with its seats and the current game's actions."""
        result = []
        with self.session() as s:
            for table in s.scalars(select(TableRow).where(TableRow.status != "over")):
                result.append(self._load(s, table))
        return result

    def table(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[str]] | None:
        if "\x00" in table_id:  # PostgreSQL refuses the character; no id holds it
            return None
        with self.session() as s:
            table = s.get(TableRow, table_id)
            return None if table is None else self._load(s, table)

    @staticmethod
    def _load(s: Session, table: TableRow) -> tuple[TableRow, list[SeatRow], list[str]]:
        seats = list(
            s.scalars(select(SeatRow).where(SeatRow.table_id == table.id).order_by(SeatRow.seat))
        )
        actions = list(
            s.scalars(
                select(ActionRow.text)
                .where(ActionRow.table_id == table.id, ActionRow.game_no == table.game_no)
                .order_by(ActionRow.number)
            )
        )
        return table, seats, actions

    def stand_in_actions(self, table_id: str, game_no: int) -> list[int]:
        """The numbers of the game's actions a stand-in played (timer or away)."""
        with self.session() as s:
            query = select(ActionRow.number).where(
                ActionRow.table_id == table_id,
                ActionRow.game_no == game_no,
                ActionRow.by.in_(("timer", "away")),
            )
            return list(s.scalars(query))

    def acted_by(self, table_id: str, game_no: int) -> list[str]:
        """Who chose each stored action of a game, in order (``player``, ``bot``, ...)."""
        with self.session() as s:
            query = (
                select(ActionRow.by)
                .where(ActionRow.table_id == table_id, ActionRow.game_no == game_no)
                .order_by(ActionRow.number)
            )
            return list(s.scalars(query))

    def records(self, limit: int = 100) -> list[RecordRow]:
        with self.session() as s:
            query = select(RecordRow).order_by(RecordRow.id.desc()).limit(limit)
            return list(s.scalars(query))

    def listed(self, table_ids: Iterable[str]) -> set[str]:
        """Which of these tables are listed publicly (their ids may be published)."""
        wanted = set(table_ids)
        if not wanted:
            return set()
        with self.session() as s:
            rows = s.execute(select(TableRow.id, TableRow.options).where(TableRow.id.in_(wanted)))
            return {row.id for row in rows if json.loads(row.options).get("public") is True}

    def record(self, record_id: int) -> RecordRow | None:
        if not 0 < record_id <= MAX_ID:  # beyond the column's integers: no such record
            return None
        with self.session() as s:
            return s.get(RecordRow, record_id)

    # -- reviews ----------------------------------------------------------------------

    def review(self, record_id: int, key: str) -> str | None:
        """The stored review (its JSON) of record ``record_id`` filed under ``key``."""
        with self.session() as s:
            row = s.get(ReviewRow, (record_id, key))
            return None if row is None else row.review

    def put_review(self, record_id: int, seat: int, key: str, review: str) -> None:
        """Keep a finished review (a second one filed under the same key replaces it)."""
        with self.session() as s:
            s.merge(
                ReviewRow(record_id=record_id, key=key, seat=seat, created=time.time(),
                          review=review)
            )  # fmt: skip
