"""The command line's way to a database: the file itself, or the running ``warlog serve`` that holds it.

DuckDB lets one process at a time open a database file. ``warlog serve`` therefore writes a sidecar next to the
file it serves, ``<db>.server.json`` (mode 0600: its URL, pid and a random local key), and removes it when it
stops. A command that finds a sidecar whose process is alive and whose server answers with that key reads and
writes through the server's store (the ``/local`` routes, ``api/routes_local.py``), so the same code
(``GameService``, ``TournamentService``, verify, export, replay) runs over it unchanged. A command that cannot go
through a server (``sql``, ``reproject``, ...) stops with one sentence saying so (docs/cli.md).

The local key is worth what the sidecar's file permissions make it: whoever may read the sidecar may use the
server's store, as whoever may open the database file may.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import msgspec

from api.database import CliError, is_file
from replay.errors import CatalogueNotFound, Conflict, CorruptRecord, GameExists, GameNotFound
from replay.store.base import Annotation, AppendResult, CatalogueRecord, GameRecord, NewEvent, Page, StoredEvent
from replay.tournaments.model import LoggedEvent, TournamentConflict, TournamentNotFound, TournamentRefused

SIDECAR_SUFFIX = ".server.json"
KEY_HEADER = "X-Warlog-Local-Key"
# How long a command waits for the ping of a live server named by a sidecar: a bound on a hang, not a latency. On a
# loaded machine a server answers in seconds; a shorter wait took it for gone, and the command opened the file the
# server holds ("in use by another process"). A sidecar whose process is gone, or whose port nothing listens on,
# is still ignored at once (issue 28 item 21).
PING_TIMEOUT = 30.0
REQUEST_TIMEOUT = 60.0


# -- the sidecar ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Holder:
    """A running ``warlog serve`` that holds a database file."""

    db: str
    url: str
    pid: int
    key: str

    def describe(self) -> str:
        return f"`warlog serve` (pid {self.pid}, {self.url})"


def sidecar_path(db: str) -> Path:
    return Path(db + SIDECAR_SUFFIX)


def new_key() -> str:
    return secrets.token_urlsafe(32)


def local_url(host: str, port: int) -> str:
    """The URL this machine's commands use to reach a server listening on ``host``."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def write_sidecar(db: str, url: str, key: str) -> Path:
    """Write ``<db>.server.json`` (0600) atomically; OSError if the folder is not writable."""
    path = sidecar_path(db)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"url": url, "pid": os.getpid(), "key": key, "db": os.path.abspath(db)}, out)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def remove_sidecar(db: str, key: str) -> None:
    """Remove the sidecar if it is still this server's (a later server on the same file may have replaced it)."""
    path = sidecar_path(db)
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("key") == key:
            path.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_holders: dict[str, Holder | None] = {}


def find_holder(db: str) -> Holder | None:
    """The running server holding ``db``, or None. A sidecar whose process is gone, or whose server does not
    answer with its key (a pid reused after a crash), is ignored."""
    if not is_file(db):
        return None
    if db in _holders:
        return _holders[db]
    holder = None
    try:
        data = json.loads(sidecar_path(db).read_text(encoding="utf-8"))
        candidate = Holder(db, str(data["url"]), int(data["pid"]), str(data["key"]))
    except (OSError, ValueError, KeyError, TypeError):
        candidate = None
    if candidate is not None and _alive(candidate.pid):
        client = Client(candidate, timeout=PING_TIMEOUT)
        try:
            client.get("/local/ping")
            holder = candidate
        except (CliError, OSError, http.client.HTTPException):
            holder = None
        finally:
            client.close()
    _holders[db] = holder
    return holder


def held_error(command: str, holder: Holder) -> CliError:
    return CliError(
        f"the database {holder.db} is held by {holder.describe()}, and `warlog {command}` needs the file to "
        "itself: stop that server first"
    )


# -- talking to the server --------------------------------------------------------------------------------------


class Client:
    """One keep-alive connection to the holder's ``/local`` routes (and its public ones)."""

    def __init__(self, holder: Holder, timeout: float | None = REQUEST_TIMEOUT) -> None:
        self.holder = holder
        parts = urlsplit(holder.url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def get(self, path: str, params: dict[str, Any] | None = None) -> bytes:
        return self.request("GET", path, params)

    def request(self, method: str, path: str, params: dict[str, Any] | None = None, body: bytes | None = None) -> bytes:
        query = {k: v for k, v in (params or {}).items() if v is not None}
        target = path + ("?" + urlencode(query) if query else "")
        headers = {KEY_HEADER: self.holder.key, "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if method != "GET":
            self.close()  # a write never rides on a kept-alive connection the server may have closed meanwhile
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile: one fresh try (reads only)
            conn = self._conn or http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            self._conn = conn
            try:
                conn.request(method, target, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                self._conn = None
                if attempt == 1 and method == "GET":
                    continue
                raise CliError(
                    f"{self.holder.describe()}, which holds {self.holder.db}, did not answer ({error})"
                ) from None
            if response.status >= 400:
                raise self._error(response.status, data)
            return data
        raise AssertionError("unreachable")

    def _error(self, status: int, data: bytes) -> Exception:
        try:
            error = json.loads(data)["error"]
            code, message = str(error["code"]), str(error["message"])
        except (ValueError, KeyError, TypeError):
            error, code, message = {}, "http_error", data[:200].decode("utf-8", "replace")
        match code:
            case "not_found" if "game_id" in error:
                return GameNotFound(error["game_id"])
            case "not_found" if "catalogue_id" in error:
                return CatalogueNotFound(error["catalogue_id"])
            case "not_found" if "tournament_id" in error:
                return TournamentNotFound(error["tournament_id"])
            case "exists":
                return GameExists(error.get("game_id", "?"))
            case "conflict" if "game_id" in error:
                return Conflict(error["game_id"], error.get("expected_seq", -1), error.get("seq", -1))
            case "tournament_conflict":
                return TournamentConflict(message)
            case "corrupt_record":
                return CorruptRecord(error.get("game_id", "?"), int(error.get("seq", 0)), error.get("reason", message))
        return CliError(f"{self.holder.describe()} answered {status} {code}: {message}")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _p(segment: str) -> str:
    return quote(segment, safe="")


_events = msgspec.json.Decoder(list[StoredEvent])
_record = msgspec.json.Decoder(GameRecord)
_page = msgspec.json.Decoder(Page)
_appended = msgspec.json.Decoder(AppendResult)
_encode = msgspec.json.Encoder().encode


class _CatalogueAdded(msgspec.Struct, frozen=True):
    record: CatalogueRecord
    added: bool


_annotation = msgspec.json.Decoder(Annotation)
_annotations = msgspec.json.Decoder(list[Annotation])
_catalogue = msgspec.json.Decoder(CatalogueRecord)
_catalogues = msgspec.json.Decoder(list[CatalogueRecord])
_catalogue_added = msgspec.json.Decoder(_CatalogueAdded)


class RemoteEventStore:
    """The ``EventStore`` of a running server, through its ``/local`` routes. Snapshots are not shared (the
    server keeps its own); everything else behaves as the server's store does."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def create_game(self, game_id: str, system: str, players: list[str], metadata: dict[str, Any],
                    events: Sequence[NewEvent], tournament: str | None = None) -> AppendResult:
        body = _encode({"game_id": game_id, "system": system, "players": players, "metadata": metadata,
                        "events": list(events), "tournament": tournament})
        return _appended.decode(self.client.request("POST", "/local/games", body=body))

    def append(self, game_id: str, events: Sequence[NewEvent], expected_seq: int | None = None,
               idempotency_key: str | None = None) -> AppendResult:
        body = _encode({"events": list(events), "expected_seq": expected_seq, "idempotency_key": idempotency_key})
        return _appended.decode(self.client.request("POST", f"/local/games/{_p(game_id)}/events", body=body))

    def find_idempotent(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        data = self.client.get(f"/local/games/{_p(game_id)}/idempotent", {"key": idempotency_key})
        return None if data == b"null" else _appended.decode(data)

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        return _events.decode(self.client.get(f"/local/games/{_p(game_id)}/events", {"from": from_seq, "to": to_seq}))

    def last_seq(self, game_id: str) -> int:
        return self.get_game(game_id).last_seq

    def last_seqs(self, game_ids: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for game_id in game_ids:  # one request each: the commands never watch many games
            try:
                found[game_id] = self.last_seq(game_id)
            except GameNotFound:
                pass
        return found

    def get_game(self, game_id: str) -> GameRecord:
        return _record.decode(self.client.get(f"/local/games/{_p(game_id)}"))

    def update_metadata(self, game_id: str, patch: dict[str, Any]) -> None:
        self.client.request("PATCH", f"/local/games/{_p(game_id)}", body=_encode(patch))

    def list_games(self, system: str | None = None, player: str | None = None, tournament: str | None = None,
                   limit: int = 50, cursor: str | None = None, army: str | None = None,
                   newest_first: bool = False, over: bool | None = None) -> Page:
        params = {"system": system, "player": player, "tournament": tournament, "limit": limit, "cursor": cursor,
                  "army": army, "newest_first": "true" if newest_first else None,
                  "over": None if over is None else str(over).lower()}
        return _page.decode(self.client.get("/local/games", params))

    def games_with_content(self, digest: str) -> list[str]:
        """``ContentFinding``: the server's store looks the content hash up (an import's duplicate check)."""
        return list(json.loads(self.client.get(f"/local/contents/{_p(digest)}")))

    def add_catalogue(self, catalogue_id: str, system: str, name: str, version: str,
                      document: bytes) -> tuple[CatalogueRecord, bool]:
        """``CatalogueStoring``: the command checked the document; the server's store keeps it."""
        body = _encode({"catalogue_id": catalogue_id, "system": system, "name": name, "version": version,
                        "document": document})
        added = _catalogue_added.decode(self.client.request("POST", "/local/catalogues", body=body))
        return added.record, added.added

    def get_catalogue(self, catalogue_id: str) -> CatalogueRecord:
        return _catalogue.decode(self.client.get(f"/local/catalogues/{_p(catalogue_id)}"))

    def list_catalogues(self, system: str | None = None) -> list[CatalogueRecord]:
        return _catalogues.decode(self.client.get("/local/catalogues", {"system": system}))

    def add_annotation(self, game_id: str, step: int, text: str, role: str, author: str) -> Annotation:
        """``AnnotationStoring``: checked here (replay.log.annotations), kept by the server's store."""
        body = _encode({"step": step, "text": text, "role": role, "author": author})
        return _annotation.decode(self.client.request("POST", f"/local/games/{_p(game_id)}/annotations", body=body))

    def annotations(self, game_id: str) -> list[Annotation]:
        return _annotations.decode(self.client.get(f"/local/games/{_p(game_id)}/annotations"))

    def put_snapshot(self, game_id: str, seq: int, state: bytes) -> None:
        pass  # a cache: the server keeps its own

    def get_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, bytes] | None:
        return None

    def close(self) -> None:
        self.client.close()


class RemoteTournamentLog:
    """The ``TournamentLog`` of a running server, through its ``/local`` routes."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int,
               idempotency_key: str | None = None) -> int:
        body = json.dumps({"events": [[kind, data] for kind, data in events], "expected_seq": expected_seq,
                           "idempotency_key": idempotency_key})
        data = self.client.request("POST", f"/local/tournaments/{_p(tournament_id)}/events", body=body.encode())
        return int(json.loads(data)["seq"])

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        rows = json.loads(self.client.get(f"/local/tournaments/{_p(tournament_id)}/events"))
        return [LoggedEvent(r["seq"], r["type"], r["data"], r["recorded_at"]) for r in rows]

    def list_ids(self, limit: int = 100) -> list[str]:
        return list(json.loads(self.client.get("/local/tournaments", {"limit": limit})))

    def close(self) -> None:
        self.client.close()


# -- what the commands open -------------------------------------------------------------------------------------


@contextmanager
def game_service(db: str) -> Iterator[Any]:
    """A ``GameService`` over the database: through its server when one holds it, else the file itself."""
    from replay.log.service import GameService

    holder = find_holder(db)
    if holder is not None:
        store: Any = RemoteEventStore(Client(holder))
    else:
        from replay.store.open import open_store

        store = open_store(db)
    try:
        yield GameService(store)
    finally:
        store.close()


@contextmanager
def tournament_service(db: str) -> Iterator[Any]:
    """A ``TournamentService`` over the database: through its server when one holds it, else the file itself."""
    from replay.log.service import GameService
    from replay.tournaments.service import TournamentService, seeding_ratings

    holder = find_holder(db)
    if holder is not None:
        client = Client(holder)
        store: Any = RemoteEventStore(client)
        log: Any = RemoteTournamentLog(client)
    else:
        from replay.store.open import open_store
        from replay.tournaments.log import StoreTournamentLog

        store = open_store(db)
        log = StoreTournamentLog(store)
    try:
        yield TournamentService(log, GameService(store), ratings=seeding_ratings(_statistic(holder, store)))
    finally:
        log.close()
        store.close()


def _statistic(holder: Holder | None, store: Any) -> Any:
    """(a statistic's name, its filters) -> its result, for ``seeding: "rating"`` from the command line: through
    the holder's ``/stats`` routes, or computed on the DuckDB file (its projections caught up first)."""

    def compute(name: str, filters: Any) -> Any:
        from replay.analytics.catalogue import run, statistic

        entry = statistic(name)
        if holder is not None:
            return remote_stat(holder, entry, filters, {})
        if not hasattr(store, "reader"):
            raise TournamentRefused("seeding by rating needs the ratings statistic: on PostgreSQL, run the round "
                                    "through a running `warlog serve`", "ratings_unavailable")
        from replay.analytics.projections import attach

        projector = attach(store, background=False)
        conn = store.reader()
        try:
            return run(entry, conn, filters, {"limit": None})
        finally:
            conn.close()
            projector.close()

    return compute


def remote_reproject(holder: Holder) -> int:
    """``warlog reproject`` through the holder: its projector empties every projection and rebuilds them from the
    log (``/local/reproject``); -> the games projected."""
    client = Client(holder, timeout=None)  # a rebuild of a large log takes what it takes
    try:
        return int(json.loads(client.request("POST", "/local/reproject"))["games"])
    finally:
        client.close()


def remote_stat(holder: Holder, statistic: Any, filters: Any, params: dict[str, Any]) -> Any:
    """``warlog stats NAME`` through the holder's public ``/stats`` routes (the catalogue's path and parameters of
    ``statistic``, a ``replay.analytics.model.Statistic``): the same typed result as on the file."""
    path = statistic.path
    query: dict[str, Any] = {k: v for k, v in msgspec.to_builtins(filters).items()}
    for parameter in statistic.parameters:
        value = params.get(parameter.name)
        if parameter.in_path:
            path = path.replace("{" + parameter.name + "}", quote(str(value or ""), safe=""))
        elif parameter.name == "limit" and not parameter.cli:
            query["limit"] = value or parameter.le  # the CLI's --limit 0 (every row): the route's most
        else:
            query[parameter.name] = value
    wire = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in query.items() if v is not None}
    client = Client(holder)
    try:
        return msgspec.json.decode(client.get("/stats" + path, wire), type=statistic.result)
    finally:
        client.close()
