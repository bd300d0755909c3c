"""PostgreSQL down, then back (issue 28, item 14), against a real ``warlog serve`` and a private PostgreSQL
(tests/own_postgres.py), measured from the clients' side:

- while the database is down every request answers 503 (``store_unavailable``) within the documented 2 s, with one
  client and with many at once (no pile-up: the answers do not queue behind each other);
- once the database accepts connections again, the service is back within about a second: every request started
  later than that succeeds.

Before the fix the figures were 4 s per request with one client, 8-37 s under load, and 503s for ~18 s after the
database was back (the pool's reconnect backoff). The bounds below are the documented ones (docs/deploy.md,
"Faults") plus a margin for a busy 2-core machine; the figures measured are printed (``pytest -s``).
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.api.helpers import SETUP, bearer
from tests.own_postgres import OwnPostgres, own_postgres  # noqa: F401 - the fixture
from tests.serving import free_port, serve, stop

DOWN_BOUND = 2.0  # s: a request answers 503 within this while the database is down (docs/deploy.md)
BACK_BOUND = 1.0  # s: after the database accepts connections, the service is back within this
MARGIN = 1.0  # s: a busy 2-core machine (the server, 17 client threads and PostgreSQL share it)
OUTAGE = 6.0  # s at least: longer than the pool's first reconnect backoff steps (1 s, 2 s) together
CLIENTS = 16
TIMEOUT = 45  # s: a client gives up on a request (a transport error, counted as a failure)
GAME = {key: value for key, value in SETUP.items() if key not in ("seed", "insecure_seed")}  # the server draws it


@dataclass
class Answer:
    started: float
    ended: float
    kind: str
    status: int
    code: str

    @property
    def took(self) -> float:
        return self.ended - self.started


@dataclass
class Client:
    """One client in a loop: create a game, read its state, ask its legal actions, act; again and again."""

    base: str
    answers: list[Answer] = field(default_factory=list)
    game: tuple[str, str] | None = None  # (id, scorekeeper token)
    move: dict[str, Any] | None = None

    def request(self, http: httpx.Client, kind: str, method: str, path: str, **options: Any) -> httpx.Response | None:
        started = time.monotonic()
        try:
            response = http.request(method, path, **options)
        except httpx.HTTPError:
            self.answers.append(Answer(started, time.monotonic(), kind, 0, "transport"))
            return None
        code = "" if response.status_code < 400 else response.json().get("error", {}).get("code", "")
        self.answers.append(Answer(started, time.monotonic(), kind, response.status_code, code))
        return response

    def step(self, http: httpx.Client, act: bool = True) -> None:
        if self.game is None:
            created = self.request(http, "create", "POST", "/games", json=GAME)
            if created is not None and created.status_code == 201:
                self.game = (created.json()["id"], created.json()["tokens"]["scorekeeper"])
            return
        game_id, token = self.game
        self.request(http, "state", "GET", f"/games/{game_id}/state", headers=bearer(token))
        if self.move is None:  # the next move, kept until it is stored (its key makes a retry safe)
            legal = self.request(http, "legal", "GET", f"/games/{game_id}/legal", headers=bearer(token))
            if legal is None or legal.status_code != 200:
                return
            if not legal.json()["actions"]:
                self.game = None  # over: the next step creates another
                return
            self.move = {"action": legal.json()["actions"][0], "expected_seq": legal.json()["seq"],
                         "idempotency_key": uuid.uuid4().hex}
        if not act:
            return
        acted = self.request(http, "act", "POST", f"/games/{game_id}/actions", json=self.move, headers=bearer(token))
        if acted is not None and acted.status_code == 201:
            self.move = None

    def since(self, moment: float) -> list[Answer]:
        return [a for a in list(self.answers) if a.started >= moment]


class Load:
    def __init__(self, base: str, clients: int) -> None:
        self.clients = [Client(base) for _ in range(clients)]
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(c,), daemon=True) for c in self.clients]

    def prepare(self) -> Load:
        """Each client with a game and its next move, so that it acts as soon as it starts."""
        with httpx.Client(base_url=self.clients[0].base, timeout=60) as http:
            for client in self.clients:
                while client.game is None or client.move is None:
                    client.step(http, act=False)
                client.answers.clear()
        return self

    def start(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def _run(self, client: Client) -> None:
        with httpx.Client(base_url=client.base, timeout=TIMEOUT) as http:
            while not self._stop.is_set():
                client.step(http)

    def answers(self) -> list[Answer]:
        return [a for c in self.clients for a in list(c.answers)]

    def since(self, moment: float) -> list[Answer]:
        return [a for c in self.clients for a in c.since(moment)]

    def stop(self) -> None:
        self._stop.set()
        deadline = time.monotonic() + 60  # a request in flight ends within the clients' timeout
        for thread in self._threads:
            if thread.ident is not None:  # started
                thread.join(max(0.1, deadline - time.monotonic()))


def wait_until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds:g} s: {what}"
        time.sleep(0.05)


def figures(answers: list[Answer]) -> str:
    took = sorted(a.took for a in answers)
    if not took:
        return "none"
    p95 = took[min(len(took) - 1, int(0.95 * len(took)))]
    hung = sum(a.status == 0 for a in answers)
    return (f"{len(took)} answers, median {statistics.median(took):.3f} s, p95 {p95:.3f} s, max {took[-1]:.3f} s, "
            f"{hung} without an answer within {TIMEOUT} s")


def test_postgres_down_answers_503_within_2_s_under_load_and_is_back_within_1_s_of_the_database(
    own_postgres: OwnPostgres, tmp_path: Path  # noqa: F811
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = serve(own_postgres.url, port, args=["--stats-db", str(tmp_path / "stats.duckdb")],  # type: ignore[arg-type]
                    env={"WARLOG_WRITE_RATE": "0", "WARLOG_ADDRESS_WRITE_RATE": "0"},  # retries in a tight loop
                    seconds=180)
    single = load = crowd_load = None
    try:
        single = Load(base, 1).start()
        crowd_load = Load(base, CLIENTS).prepare()
        wait_until(lambda: sum(a.kind == "act" and a.status == 201 for a in single.answers()) >= 3, 60,
                   "one client playing before the outage")

        own_postgres.crash()
        down_at = time.monotonic()
        # one client alone: a few requests while the database is down
        wait_until(lambda: len(single.clients[0].since(down_at)) >= 6, 120, "six answers to one client")
        load_at = time.monotonic()
        load = crowd_load.start()  # then many at once, the database still down
        wait_until(lambda: time.monotonic() >= down_at + OUTAGE
                   and all(len(c.since(load_at)) >= 4 for c in load.clients), 240, "four answers to every client")
        assert any(a.kind == "act" for a in load.since(load_at)), "no action tried while the database was down"
        own_postgres.start()  # returns once PostgreSQL accepts connections
        up_at = time.monotonic()
        back = up_at + BACK_BOUND + MARGIN
        everyone = [*single.clients, *load.clients]
        wait_until(lambda: all(len([a for a in c.since(back) if a.kind in ("act", "create")]) >= 2
                               for c in everyone), 120, "every client served after the database is back")
    finally:
        for running in (single, crowd_load):
            if running is not None:
                running.stop()
        stop(process)
    assert single is not None and load is not None

    everything = [*single.answers(), *load.answers()]
    while_down = [a for a in everything if a.started >= down_at and a.ended <= up_at]
    alone = [a for a in single.answers() if down_at <= a.started and a.ended <= min(up_at, load_at)]
    crowd = [a for a in while_down if a.started >= load_at]
    after = [a for a in everything if a.started >= up_at]
    first_success = min((a.ended for a in after if a.status in (200, 201)), default=float("inf")) - up_at
    last_refusal = max((a.ended for a in after if a.status != 200 and a.status != 201), default=up_at) - up_at
    print(f"\ndown, one client: {figures(alone)}\ndown, {CLIENTS + 1} clients: {figures(crowd)}\n"
          f"back: first success {first_success:.3f} s after the database, last failure {last_refusal:.3f} s after it")
    odd = [a for a in everything if a.status not in (200, 201, 503)]
    assert not odd, odd[:10]  # never a 500, a transport error or a hang
    assert {a.code for a in while_down if a.status == 503} <= {"store_unavailable"}
    assert alone and crowd
    assert max(a.took for a in alone) <= DOWN_BOUND + MARGIN, figures(alone)
    assert max(a.took for a in crowd) <= DOWN_BOUND + MARGIN, figures(crowd)  # no pile-up under load
    late = [a for a in everything if a.started >= back and a.status != 200 and a.status != 201]
    assert not late, f"refused more than {BACK_BOUND + MARGIN:g} s after the database was back: {late[:5]}"
    assert first_success <= BACK_BOUND + MARGIN
