"""Hostile input against a real ``cardroom serve``:

- schemathesis generates requests for every operation of the app's ``/openapi.json``,
  valid ones and invalid ones, sent as a player and as an admin: no answer is a 5xx,
  every answer matches the schema and a status the document lists, and invalid input
  is refused;
- malformed and oversized WebSocket messages (not JSON, not an object, binary, nested
  past any parser's depth, megabytes long, unknown types, bad fields) each get an
  ``error`` message, and the socket still answers a ping;
- amounts at the edges (zero, negative, huge, fractional, strings, booleans, null) in
  every field that holds one are refused, and nothing changes.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import checks
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Ok
from schemathesis.generation import GenerationMode
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.errors import Conflict
from cardroom.store.models import Role
from cardroom.web.schemas_games import WS_MAX_FRAME_BYTES
from tests.conftest import snapshot
from tests.reliability.clients import Json, Player, create_game, join, sign_in, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import PASSWORD, Room, Server, Zygote, room

pytestmark = pytest.mark.slow

EXAMPLES = 8  # per operation, per generation mode, per identity
CHECKS = [
    checks.not_a_server_error,
    checks.response_schema_conformance,
    checks.status_code_conformance,
    checks.content_type_conformance,
]


@pytest.fixture
def served(tmp_path: Path, zygote: Zygote) -> Iterator[tuple[Room, Server]]:
    with room("sqlite", tmp_path) as made:
        server = Server(zygote, made, "fuzzed")
        server.start()
        try:
            yield made, server
        finally:
            server.stop()
        assert "Traceback" not in server.log_text(), server.log_text()[-5000:]


# -- schemathesis ------------------------------------------------------------------------


class Identities:
    """A player and an admin with working bearer tokens, mended between requests when
    a fuzzed request signed them out, suspended or demoted them, or changed a
    password (the service is called directly: the room's own console)."""

    def __init__(self, made: Room, server: Server) -> None:
        self.room, self.server = made, server
        made.admin("boss")
        with httpx.Client(base_url=server.base) as client:
            self.player = sign_up(client, "alice")
            sign_up(client, "bob")
            self.admin = sign_in(client, "boss")
            game = create_game(client, self.player, seats=2, buy_in=1000)
            join(client, game, sign_in(client, "bob"))  # a running hand to poke at
        self.mended = 0

    def mend(self) -> None:
        ctx = self.room.ctx
        for name, role in (("boss", Role.ADMIN), ("alice", Role.PLAYER)):
            user = accounts.find_user(ctx, name)
            fixed = False
            if user.suspended:
                accounts.reinstate(ctx, CONSOLE, name, "mended after fuzzing")
                fixed = True
            if user.role is not role:
                with contextlib.suppress(Conflict):  # the last admin stays an admin
                    accounts.set_role(ctx, CONSOLE, name, role, "mended after fuzzing")
                fixed = True
            current = self.admin if name == "boss" else self.player
            try:
                accounts.user_for_token(ctx, current.token)
            except Exception:
                fixed = True
            if fixed:
                token = accounts.sign_in(ctx, name, PASSWORD).token
                fresh = Player(name, current.id, token)
                if name == "boss":
                    self.admin = fresh
                else:
                    self.player = fresh
                self.mended += 1


def test_schemathesis_finds_no_5xx_and_no_schema_violation(
    served: tuple[Room, Server],
) -> None:
    made, server = served
    people = Identities(made, server)
    document = httpx.get(f"{server.base}/openapi.json").json()
    schema = schemathesis.openapi.from_dict(document)
    operations = [r.ok() for r in schema.get_all_operations() if isinstance(r, Ok)]
    assert len(operations) >= 40, [op.label for op in operations]
    counts: Counter[str] = Counter()
    session = requests.Session()
    failures: list[str] = []
    for operation in operations:
        # Signing out ends the session under test at every call; it takes no input.
        if operation.path == "/api/accounts/sign-out":
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for identity in ("player", "admin"):
                try:
                    fuzz_one(operation, mode, identity, people, server, session, counts)
                except Unsatisfiable:
                    # No invalid input to make: the operation takes none (GET /api/me).
                    assert mode is GenerationMode.NEGATIVE
                    counts["no invalid input possible"] += 1
                except (AssertionError, FailureGroup) as failed:
                    failures.append(f"{operation.label} {mode.value} as {identity}: {failed}")
    session.close()
    assert not failures, "\n\n".join(failures)
    keep(
        "fuzz-openapi",
        {
            "operations": len(operations) - 1,
            "requests": sum(counts.values()),
            "answers": dict(sorted(counts.items())),
            "sessions mended between requests": people.mended,
        },
    )


def fuzz_one(
    operation: Any,
    mode: GenerationMode,
    identity: str,
    people: Identities,
    server: Server,
    session: requests.Session,
    counts: Counter[str],
) -> None:
    strategy = operation.as_strategy(generation_mode=mode)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        who = people.admin if identity == "admin" else people.player
        response = case.call(base_url=server.base, session=session, headers=who.auth)
        counts[str(response.status_code)] += 1
        extra = [checks.negative_data_rejection] if mode is GenerationMode.NEGATIVE else []
        try:
            case.validate_response(response, checks=CHECKS + extra)
        finally:
            if case.method.upper() != "GET" or response.status_code in (401, 403):
                people.mend()

    run()


# -- WebSocket messages --------------------------------------------------------------------


BAD_MESSAGES: list[str | bytes] = [
    "",
    "not json",
    "{",
    "[]",
    "42",
    '"ping"',
    "null",
    "{}",
    '{"type": "nope"}',
    '{"type": 7}',
    '{"type": "ping", "extra": 1}',
    '{"type": "resync"}',
    '{"type": "resync", "after": -1}',
    '{"type": "resync", "after": "12"}',
    '{"type": "resync", "after": 1.5}',
    '{"type": "resync", "after": 1e400}',
    '{"type": "resync", "after": 99999999999999999999999}',
    '{"type": "resync", "after": ' + "9" * 5000 + "}",
    "[" * 3000,
    '{"type": "ping", "deep": ' + "[" * 2000 + "]" * 2000 + "}",
    '{"type": "ping"' + ', "a": 1' * 1000 + "}",
    "x" * 5000,
    json.dumps({"type": "ping", "pad": "x" * 10_000}),
    b"\x00\xff binary",
    b"{}" * 8_000,
]
# Frames over the server's 16 KiB are not read at all: the socket is closed with 1009
# (issue 17, finding 4; tests/reliability/test_socket_limits.py measures the memory).
OVERSIZE: list[str | bytes] = [
    "y" * (WS_MAX_FRAME_BYTES + 1),
    b"{}" * (WS_MAX_FRAME_BYTES // 2 + 1),
]


def ping_answered(ws: ClientConnection) -> None:
    ws.send('{"type": "ping"}')
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "pong":
            return
        assert message["type"] in ("snapshot", "events", "games_changed", "notification")


def error_answered(ws: ClientConnection) -> str:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "error":
            return str(message["message"])
        assert message["type"] in ("snapshot", "events", "games_changed", "notification")


def test_bad_socket_messages_get_an_error_and_the_socket_stays_usable(
    served: tuple[Room, Server],
) -> None:
    _, server = served
    with httpx.Client(base_url=server.base) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        game = create_game(client, alice, seats=2, buy_in=1000)
        join(client, game, bob)
    sent = 0
    for path in (f"/ws/games/{game}", "/ws/me"):
        with connect(f"{server.ws_base}{path}?token={alice.token}", max_size=2**24) as ws:
            if path != "/ws/me":
                assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            for k, message in enumerate(BAD_MESSAGES):
                try:
                    ws.send(message)
                    sentence = error_answered(ws)
                    ping_answered(ws)
                except Exception as failed:
                    raise AssertionError(f"{path}: bad message {k} ({message[:40]!r})") from failed
                assert sentence.endswith(".") and "Traceback" not in sentence
                assert len(sentence) < 300, "the input is not echoed back"
                sent += 1
        for message in OVERSIZE:
            with connect(f"{server.ws_base}{path}?token={alice.token}") as ws:
                if path != "/ws/me":
                    assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
                ws.send(message)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
                sent += 1
    # The sockets of others never noticed.
    with connect(f"{server.ws_base}/ws/games/{game}?token={bob.token}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        ping_answered(ws)
    keep("fuzz-sockets", {"bad messages sent": sent, "socket kinds": 2})


# -- amounts at the edges ------------------------------------------------------------------


EDGES: list[Any] = [
    0,
    -1,
    -(2**63),
    2**53,
    2**63,
    2**64 + 1,
    10**400,
    0.5,
    12.5,
    100.0,
    1e3,
    -0.0,
    "100",
    "1e3",
    "$1.00",
    "",
    True,
    False,
    [100],
    {"cents": 100},
]


def test_amounts_at_the_edges_are_refused(served: tuple[Room, Server]) -> None:
    made, server = served
    made.admin("boss")
    with httpx.Client(base_url=server.base, timeout=30.0) as client:
        boss = sign_in(client, "boss")
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        game = create_game(client, alice, seats=2, buy_in=1000)
        join(client, game, bob)
        seen = client.get(f"/api/games/{game}", headers=alice.auth).json()
        assert seen["hand"]["legal"] is not None
        version = seen["version"]

        def request(path: str, who: Player, body: Json) -> httpx.Response:
            # json.dumps writes 10**400 and 1e3 as they are; NaN and Infinity too.
            return client.post(
                path,
                content=json.dumps(body),
                headers={**who.auth, "Content-Type": "application/json"},
            )

        fields: list[tuple[str, Player, Json, str]] = [
            (f"/api/games/{game}/actions", alice, {"kind": "raise", "version": version}, "amount"),
            (f"/api/games/{game}/actions", alice, {"kind": "bet"}, "version"),
            (f"/api/admin/users/{alice.id}/grant", boss, {"reason": "r"}, "amount_cents"),
            (f"/api/admin/users/{alice.id}/remove", boss, {"reason": "r"}, "amount_cents"),
            ("/api/games", alice, {}, "buy_in"),
            ("/api/games", alice, {"small_blind": 10}, "big_blind"),
            ("/api/games", alice, {"big_blind": 20}, "small_blind"),
            ("/api/games", alice, {}, "seats"),
            ("/api/games", alice, {"rules": {}}, "rules.turn_clock_seconds"),
        ]
        special = ["NaN", "Infinity", "-Infinity"]
        before = snapshot(made.ctx.engine)
        tried = 0
        for path, who, base, field in fields:
            for value in EDGES:
                body = json.loads(json.dumps(base))
                target = body
                *parents, leaf = field.split(".")
                for parent in parents:
                    target = target[parent]
                target[leaf] = value
                answer = request(path, who, body)
                assert answer.status_code in (400, 422), (path, field, value, answer.text)
                assert answer.json()["error"]["code"] in ("bad_request", "invalid_input")
                tried += 1
            for literal in special:
                text = json.dumps(base)[:-1] + (", " if base else "") + f'"{field}": {literal}}}'
                if "." in field:
                    continue
                answer = client.post(
                    path, content=text, headers={**who.auth, "Content-Type": "application/json"}
                )
                assert answer.status_code in (400, 422), (path, field, literal, answer.text)
                tried += 1
        assert snapshot(made.ctx.engine) == before, "a refused amount changed something"
    keep("fuzz-amounts", {"amounts refused": tried, "fields": len(fields)})


def test_the_server_answers_while_being_fuzzed_from_many_threads(
    served: tuple[Room, Server],
) -> None:
    """Bad bodies from several clients at once: still only 4xx."""
    _, server = served
    with httpx.Client(base_url=server.base) as client:
        alice = sign_up(client, "alice")
    bodies = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=10,
    )
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    errors: list[str] = []

    def hammer(seed: int) -> None:
        with httpx.Client(base_url=server.base, timeout=30.0) as own:

            @settings(max_examples=40, deadline=None, database=None, derandomize=True)
            @given(
                body=bodies,
                where=st.sampled_from(["/api/games", "/api/games/1/actions", "/api/games/1/join"]),
            )
            def send(body: Any, where: str) -> None:
                answer = own.post(
                    where,
                    content=json.dumps(body),
                    headers={**alice.auth, "Content-Type": "application/json"},
                )
                with lock:
                    statuses[answer.status_code] += 1
                if answer.status_code >= 500:
                    errors.append(answer.text)

            send()

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and statuses and max(statuses) < 500, statuses
