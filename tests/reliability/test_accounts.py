"""Accounts and sessions, against real ``cardroom serve`` processes:

- passwords are stored as argon2id hashes (the format checked), session tokens only as
  SHA-256, and neither a password nor a token is anywhere in the database;
- session cookies are HttpOnly and SameSite, and Secure behind HTTPS (a trusted proxy);
- every cookie-authenticated write, on every route of the app, needs the CSRF token;
- sign-in attempts are limited per name and per client address, with 429 and
  ``Retry-After``, and two server processes count the same attempts;
- sessions expire, and end on sign-out, on a password change (the others) and on
  suspension; a suspended player can no longer act, and the clock plays for them;
- every admin route, read from the app's route table, refuses players and strangers;
- one seat per player per table, and no action for a player but their own, the
  clock's check or fold, and the blinds the table posts.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import select, text, update
from sqlalchemy.exc import IntegrityError
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardroom.config import Settings
from cardroom.service import play
from cardroom.service.errors import TooManyAttempts
from cardroom.service.game_records import StoredEvent
from cardroom.service.throttle import ADDRESS_ATTEMPTS, NAME_ATTEMPTS, WINDOW, DatabaseThrottle
from cardroom.store.models import GamePlayer, User, UserSession
from cardroom.store.schema import metadata
from cardroom.web.app import create_app
from cardroom.web.deps import admin_user
from tests.conftest import snapshot
from tests.reliability.bots import Bot, BotStats, Seat
from tests.reliability.clients import Json, Player, create_game, join, sign_in, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import CHEAP, PASSWORD, Room, Server, Zygote, room

pytestmark = pytest.mark.slow

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
NO_SESSION_YET = {"/api/accounts/sign-up", "/api/accounts/sign-in"}


@pytest.fixture
def sqlite_room(tmp_path: Path) -> Iterator[Room]:
    """For what does not depend on the database: the same code runs on both."""
    with room("sqlite", tmp_path) as made:
        yield made


def refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert error["code"] == code and error["message"].endswith("."), error
    return str(error["message"])


# -- the route table ------------------------------------------------------------------------


def routes(app: FastAPI) -> list[tuple[str, str, Any]]:
    """Every (method, path, dependant) the app serves, read from its route table (the
    routers it includes, however FastAPI keeps them), not from the OpenAPI document:
    a route left out of the document is still here."""
    out: list[tuple[str, str, Any]] = []

    def walk(items: Any) -> None:
        for route in items:
            if isinstance(route, APIRoute):
                out.extend((m, route.path, route.dependant) for m in route.methods or ())
            elif hasattr(route, "effective_route_contexts"):
                for context in route.effective_route_contexts():
                    original = context.original_route
                    if isinstance(original, APIRoute):
                        methods = original.methods or ()
                        out.extend((m, context.path, context.dependant) for m in methods)
            elif hasattr(route, "routes"):
                walk(route.routes)

    walk(app.routes)
    return sorted(out, key=lambda r: (r[1], r[0]))


def needs(dependant: Any, function: Any) -> bool:
    if dependant is None:
        return False
    return any(d.call is function or needs(d, function) for d in dependant.dependencies)


def the_app() -> FastAPI:
    return create_app(settings=Settings(database_url="sqlite://"))


def url_for(path: str, number: int) -> str:
    return re.sub(r"\{[^}]+\}", str(number), path)


# -- passwords and tokens ------------------------------------------------------------------


def test_passwords_are_argon2id_and_tokens_are_only_hashed(
    sqlite_room: Room, zygote: Zygote
) -> None:
    password = "a long and secret phrase 42"
    server = Server(zygote, sqlite_room, "hashing", env={})  # the standard argon2 costs
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            alice = sign_up(client, "alice", password)
    finally:
        server.stop()
    with sqlite_room.ctx.transaction() as session:
        stored = session.scalars(select(User.password_hash)).one()
        token_hashes = session.scalars(select(UserSession.token_hash)).all()
    # RFC 9106's low-memory profile: argon2id, version 19, 64 MiB, 3 passes, 4 lanes,
    # a 16-byte salt and a 32-byte hash (base64 without padding).
    assert re.fullmatch(
        r"\$argon2id\$v=19\$m=65536,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}", stored
    ), stored
    assert PasswordHasher().verify(stored, password)
    assert token_hashes == [hashlib.sha256(alice.token.encode()).hexdigest()]
    with sqlite_room.ctx.engine.connect() as connection:
        everything = repr([connection.execute(select(t)).all() for t in metadata.sorted_tables])
    assert password not in everything and alice.token not in everything


# -- cookies and CSRF ------------------------------------------------------------------------


def cookie_attributes(response: httpx.Response) -> dict[str, set[str]]:
    out = {}
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        out[name] = {part.strip().split("=")[0].lower() for part in rest.split(";")[1:]}
        out[name] |= {
            part.strip().lower() for part in rest.split(";")[1:] if "samesite" in part.lower()
        }
    return out


def test_session_cookies_are_httponly_samesite_and_secure_behind_https(
    sqlite_room: Room, zygote: Zygote
) -> None:
    with ExitStack() as stack:
        plain = Server(zygote, sqlite_room, "plain")
        proxied = Server(zygote, sqlite_room, "proxied", args=("--trust-proxy",))
        for server in (plain, proxied):
            server.start()
            stack.callback(server.stop)
        with httpx.Client(base_url=plain.base) as client:
            sign_up(client, "alice")
        body = {"name": "alice", "password": PASSWORD}
        https = {"X-Forwarded-Proto": "https"}
        cases = [
            (plain, {}, False),
            (plain, https, False),  # nobody said the proxy is to be believed
            (proxied, {}, False),
            (proxied, https, True),
        ]
        for server, headers, secure in cases:
            signed = httpx.post(f"{server.base}/api/accounts/sign-in", json=body, headers=headers)
            assert signed.status_code == 200, signed.text
            cookies = cookie_attributes(signed)
            session, csrf = cookies["cardroom_session"], cookies["cardroom_csrf"]
            assert {"httponly", "samesite=lax", "path", "max-age"} <= session
            assert "httponly" not in csrf and "samesite=lax" in csrf  # the page reads it
            assert ("secure" in session) is secure and ("secure" in csrf) is secure
            device = cookies["cardroom_device"]  # issue 17: lets this browser past lockouts
            assert {"httponly", "samesite=lax", "path", "max-age"} <= device
            assert ("secure" in device) is secure


def test_every_cookie_write_needs_the_csrf_token(sqlite_room: Room, zygote: Zygote) -> None:
    writes = sorted(
        {(m, p) for m, p, _ in routes(the_app()) if m in UNSAFE and p not in NO_SESSION_YET}
    )
    assert len(writes) >= 30, writes
    server = Server(zygote, sqlite_room, "csrf")
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            sign_up(client, "alice")
            signed = client.post(
                "/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD}
            )
            right = signed.json()["csrf_token"]
            assert client.cookies["cardroom_csrf"] == right
            with httpx.Client(base_url=server.base) as elsewhere:
                other = sign_in(elsewhere, "alice")  # another session, by bearer
                elsewhere.post(
                    "/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD}
                )
                foreign = elsewhere.cookies["cardroom_csrf"]
            before = snapshot(sqlite_room.ctx.engine)
            for method, path in writes:
                for header in ({}, {"X-CSRF-Token": "nonsense"}, {"X-CSRF-Token": foreign}):
                    response = client.request(method, url_for(path, 1), json={}, headers=header)
                    refused(response, 403, "csrf_token_invalid")
            assert snapshot(sqlite_room.ctx.engine) == before, "a refused write changed something"
            # Reads need no token; a write with it goes through; so does a bearer write.
            assert client.get("/api/me").status_code == 200
            made = client.post("/api/games", json={"seats": 2}, headers={"X-CSRF-Token": right})
            assert made.status_code == 201, made.text
            bearer = client.post("/api/games", json={"seats": 2}, headers=other.auth)
            assert bearer.status_code == 201, bearer.text
    finally:
        server.stop()
    keep("csrf", {"cookie writes refused without the right token": 3 * len(writes)})


# -- the sign-in throttle ------------------------------------------------------------------------


def attempt(server: Server, name: str, password: str, address: str) -> httpx.Response:
    return httpx.post(
        f"{server.base}/api/accounts/sign-in",
        json={"name": name, "password": password},
        headers={"X-Forwarded-For": address},
        timeout=30.0,
    )


def test_sign_in_is_throttled_per_name_and_per_address_in_every_process(
    fresh_room: Room, zygote: Zygote
) -> None:
    with ExitStack() as stack:
        servers = [
            Server(zygote, fresh_room, f"throttled-{k}", args=("--trust-proxy",)) for k in range(2)
        ]
        for server in servers:
            server.start()
            stack.callback(server.stop)
        one, two = servers
        with httpx.Client(base_url=one.base, timeout=30.0) as client:
            for name in ("alice", "bob", "carol", "dave", "erin"):
                sign_up(client, name)
        statuses: list[int] = []

        # Per name: guesses from many addresses, through both processes.
        for k in range(NAME_ATTEMPTS):
            wrong = attempt(servers[k % 2], "alice", "guess guess", f"203.0.113.{k}")
            refused(wrong, 401, "not_signed_in")
            statuses.append(401)
        held = attempt(two, "Alice", PASSWORD, "203.0.113.200")  # even the right password
        message = refused(held, 429, "too_many_attempts")
        wait = int(held.headers["Retry-After"])
        assert 1 <= wait <= WINDOW.total_seconds() and "wait" in message
        assert attempt(one, "bob", PASSWORD, "203.0.113.1").status_code == 200  # others may

        # A success clears the name's count.
        for _ in range(NAME_ATTEMPTS - 1):
            assert attempt(one, "dave", "guess guess", "192.0.2.7").status_code == 401
        assert attempt(two, "dave", PASSWORD, "192.0.2.7").status_code == 200
        for _ in range(NAME_ATTEMPTS - 1):
            assert attempt(two, "dave", "guess guess", "192.0.2.7").status_code == 401

        # Per address: one password tried against many names.
        spray = "198.51.100.9"
        failed = 0
        k = 0
        while failed < ADDRESS_ATTEMPTS:
            answer = attempt(servers[k % 2], f"nobody{k // 5}", "guess guess", spray)
            assert answer.status_code == 401, answer.text
            failed += 1
            k += 1
        refused(attempt(one, "carol", PASSWORD, spray), 429, "too_many_attempts")
        assert attempt(two, "carol", PASSWORD, "198.51.100.10").status_code == 200

        # Concurrent guesses cannot slip past the limit: exactly the limit is checked.
        answers: list[int] = []
        lock = threading.Lock()
        barrier = threading.Barrier(2 * NAME_ATTEMPTS)

        def guess(k: int) -> None:
            barrier.wait(timeout=30)
            status = attempt(servers[k % 2], "erin", "guess guess", f"192.0.2.{100 + k}")
            with lock:
                answers.append(status.status_code)

        threads = [threading.Thread(target=guess, args=(k,)) for k in range(2 * NAME_ATTEMPTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(answers) == [401] * NAME_ATTEMPTS + [429] * NAME_ATTEMPTS, answers
    keep(
        f"throttle-{fresh_room.backend}",
        {
            "name limit": f"{NAME_ATTEMPTS} attempts per {WINDOW}",
            "address limit": f"{ADDRESS_ATTEMPTS} failed attempts per {WINDOW}",
            "concurrent guesses": 2 * NAME_ATTEMPTS,
            "of which checked": answers.count(401),
        },
    )


def test_the_throttle_window_runs_out(sqlite_room: Room) -> None:
    throttle = DatabaseThrottle(sqlite_room.ctx.sessions)
    now = datetime(2026, 1, 15, 20, 0, tzinfo=UTC)
    for k in range(NAME_ATTEMPTS):
        throttle.before_attempt("alice", now + timedelta(seconds=k), address="192.0.2.1")
        throttle.after_failure("alice", now + timedelta(seconds=k), address="192.0.2.1")
    later = now + timedelta(minutes=5)
    with pytest.raises(TooManyAttempts) as held:
        throttle.before_attempt("alice", later, address="192.0.2.2")
    assert held.value.retry_after_seconds == (WINDOW - timedelta(minutes=5)).total_seconds()
    with pytest.raises(TooManyAttempts):
        throttle.before_attempt("alice", now + WINDOW - timedelta(seconds=1), address="x")
    throttle.before_attempt("alice", now + WINDOW, address="192.0.2.3")  # a new window
    throttle.after_success("alice", now + WINDOW, address="192.0.2.3")
    with sqlite_room.ctx.transaction() as session:
        rows = session.execute(text("SELECT scope, key, attempts FROM login_throttle")).all()
    # The name's count is cleared; the address that succeeded got its attempt back.
    assert sorted(tuple(r) for r in rows) == [("address", "192.0.2.3", 0)]


# -- sessions ------------------------------------------------------------------------------


def socket_refused(server: Server, token: str) -> int:
    with connect(f"{server.ws_base}/ws/me?token={token}") as ws:
        try:
            message = ws.recv(timeout=5)
            assert '"error"' in str(message)
            ws.recv(timeout=5)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return int(closed.rcvd.code)
    raise AssertionError("the socket stayed open")


def test_sessions_expire_and_end_on_sign_out_password_change_and_suspension(
    sqlite_room: Room, zygote: Zygote
) -> None:
    sqlite_room.admin("boss")
    server = Server(
        zygote,
        sqlite_room,
        "sessions",
        env={**CHEAP, "CARDROOM_SESSION_HOURS": "1"},
    )
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            boss = sign_in(client, "boss")
            alice = sign_up(client, "alice")
            signed = client.post(
                "/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD}
            )
            max_age = re.search(r"max-age=(\d+)", signed.headers["set-cookie"].lower())
            assert max_age and 3590 <= int(max_age.group(1)) <= 3600  # the session's hour
            expires = datetime.fromisoformat(signed.json()["expires_at"].replace("Z", "+00:00"))
            assert timedelta(minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=1)
            client.cookies.clear()

            def me(who: Player) -> httpx.Response:
                return client.get("/api/me", headers=who.auth)

            # Expiry: the same session, an hour on. Its row is moved on before the
            # server has proven it: a process trusts a session it proved in the last
            # 10 s, so a row changed behind its back is seen within those seconds
            # (docs/api.md; tests/service/test_recent_sessions.py), while a real
            # expiry is checked against the clock on every request.
            with sqlite_room.ctx.transaction() as session:
                session.execute(
                    update(UserSession)
                    .where(
                        UserSession.token_hash == hashlib.sha256(alice.token.encode()).hexdigest()
                    )
                    .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
                )
            assert "expired" in refused(me(alice), 401, "not_signed_in")
            assert socket_refused(server, alice.token) == 4401

            # Sign-out ends this session only.
            one, two = sign_in(client, "alice"), sign_in(client, "alice")
            assert client.post("/api/accounts/sign-out", headers=one.auth).status_code == 204
            refused(me(one), 401, "not_signed_in")
            assert me(two).status_code == 200

            # A password change ends every other session.
            three = sign_in(client, "alice")
            changed = client.post(
                "/api/accounts/password",
                json={"current_password": PASSWORD, "new_password": "another phrase 7"},
                headers=two.auth,
            )
            assert changed.status_code == 204, changed.text
            assert me(two).status_code == 200
            refused(me(three), 401, "not_signed_in")

            # Suspension ends all of them, and stops new ones; reinstating opens the
            # door again but brings no old session back.
            reason = {"reason": "testing"}
            suspended = client.post(
                f"/api/admin/users/{alice.id}/suspend", json=reason, headers=boss.auth
            )
            assert suspended.status_code == 200, suspended.text
            refused(me(two), 403, "account_suspended")
            assert socket_refused(server, two.token) == 4403
            again = client.post(
                "/api/accounts/sign-in", json={"name": "alice", "password": "another phrase 7"}
            )
            refused(again, 403, "account_suspended")
            back = client.post(
                f"/api/admin/users/{alice.id}/reinstate", json=reason, headers=boss.auth
            )
            assert back.status_code == 200
            refused(me(two), 401, "not_signed_in")
            assert sign_in(client, "alice", "another phrase 7").id == alice.id
    finally:
        server.stop()


def test_a_suspended_player_can_no_longer_act(sqlite_room: Room, zygote: Zygote) -> None:
    sqlite_room.admin("boss")
    server = Server(zygote, sqlite_room, "suspended")
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            boss = sign_in(client, "boss")
            alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
            game = create_game(client, alice, seats=2, buy_in=1000, rules={"turn_clock_seconds": 5})
            join(client, game, bob)
            seen = client.get(f"/api/games/{game}", headers=alice.auth).json()
            assert seen["hand"]["legal"] is not None, "alice, the small blind, acts first"
            suspended = client.post(
                f"/api/admin/users/{alice.id}/suspend", json={"reason": "r"}, headers=boss.auth
            )
            assert suspended.status_code == 200
            action = {"kind": "call", "version": seen["version"]}
            for path, body in (
                (f"/api/games/{game}/actions", action),
                (f"/api/games/{game}/leave", {}),
                (f"/api/games/{game}/sit-out", {}),
                ("/api/games", {"seats": 2}),
            ):
                refused(client.post(path, json=body, headers=alice.auth), 403, "account_suspended")
            assert socket_refused(server, alice.token) == 4403
            # The table goes on without her: the clock folds or checks for her.
            deadline = time.monotonic() + 20
            while True:
                now = client.get(f"/api/games/{game}", headers=bob.auth).json()
                if now["version"] > seen["version"]:
                    break
                assert time.monotonic() < deadline, "the clock did not act for her"
                time.sleep(0.2)
            page = client.get(
                f"/api/games/{game}/events", params={"after": seen["last_seq"]}, headers=bob.auth
            ).json()
            acted = [e for e in page["events"] if e["type"] == "PlayerActed"]
            assert acted[0]["data"]["timed_out"] and acted[0]["data"]["action"] in ("check", "fold")
            assert any(e["type"] == "ClockActed" for e in page["events"])
    finally:
        server.stop()


# -- admin routes ------------------------------------------------------------------------------


def test_every_admin_route_refuses_players_and_strangers(sqlite_room: Room, zygote: Zygote) -> None:
    table = routes(the_app())
    guarded = {(m, p) for m, p, dependant in table if needs(dependant, admin_user)}
    under_admin = {(m, p) for m, p, _ in table if p.startswith("/api/admin")}
    assert under_admin <= guarded, f"admin routes without the admin check: {under_admin - guarded}"
    assert len(guarded) >= 14
    sqlite_room.admin("boss")
    server = Server(zygote, sqlite_room, "admin-routes")
    server.start()
    checked = 0
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            boss = sign_in(client, "boss")
            alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
            game = create_game(client, alice, seats=2, buy_in=1000)
            join(client, game, bob)
            # A demoted admin keeps the session, not the power.
            carol = sign_up(client, "carol")
            for role in ("admin", "player"):
                if role == "player":
                    carol = sign_in(client, "carol")
                changed = client.post(
                    f"/api/admin/users/{carol.id}/role",
                    json={"role": role, "reason": "r"},
                    headers=boss.auth,
                )
                assert changed.status_code == 200
            before = snapshot(sqlite_room.ctx.engine)
            for method, path in sorted(guarded):
                for number in (alice.id, game, 999_999):
                    url = url_for(path, number)
                    body: Json | None = (
                        {"reason": "r", "amount_cents": 100} if method in UNSAFE else None
                    )
                    for who in (alice, carol):
                        answer = client.request(method, url, json=body, headers=who.auth)
                        refused(answer, 403, "forbidden")
                    refused(client.request(method, url, json=body), 401, "not_signed_in")
                    checked += 3
            assert snapshot(sqlite_room.ctx.engine) == before
            assert client.get("/api/admin/audit", headers=boss.auth).status_code == 200
    finally:
        server.stop()
    keep("admin-routes", {"admin routes": len(guarded), "refusals checked": checked})


# -- seats and actions ------------------------------------------------------------------------


def test_one_seat_per_player_per_table(sqlite_room: Room, zygote: Zygote) -> None:
    server = Server(zygote, sqlite_room, "seats")
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
            game = create_game(client, alice, seats=4, buy_in=1000)
            join(client, game, bob)
            for body in ({}, {"seat": 3}, {"seat": 4}):
                refused(
                    client.post(f"/api/games/{game}/join", json=body, headers=bob.auth),
                    409,
                    "conflict",
                )
            refused(
                client.post(f"/api/games/{game}/join", json={}, headers=alice.auth), 409, "conflict"
            )
            seats = client.get(f"/api/games/{game}", headers=bob.auth).json()["seats"]
            assert sorted(s["user_id"] for s in seats) == sorted([alice.id, bob.id])
    finally:
        server.stop()
    # The database refuses a second seat too, whatever a bug upstream might try.
    with pytest.raises(IntegrityError), sqlite_room.ctx.transaction() as session:
        session.add(GamePlayer(game_id=game, user_id=bob.id, seat=3, joined_at=datetime.now(UTC)))


def test_no_action_for_a_player_but_their_own_the_clock_and_the_blinds(
    sqlite_room: Room, zygote: Zygote
) -> None:
    """Three players, one of whom never acts (the clock does); everyone, a spectator
    and an admin also try to act out of turn all along. Every action in the log is
    either in the answer to its own player's request or the clock's check or fold."""
    sqlite_room.admin("boss")
    server = Server(zygote, sqlite_room, "own-actions")
    server.start()
    stop, go, stats = threading.Event(), threading.Event(), BotStats()
    go.set()
    meddled: list[int] = []
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            boss = sign_in(client, "boss")
            ann, ben, sleepy, watcher = (
                sign_up(client, n) for n in ("ann", "ben", "sleepy", "watcher")
            )
            rules = {
                "turn_clock_seconds": 5,
                "between_hands_seconds": 5,
                "cash_timeouts_to_cash_out": None,
            }
            game = create_game(client, ann, seats=3, buy_in=1000, rules=rules)
            join(client, game, ben)
            join(client, game, sleepy)
            bots = [
                Bot(server.base, Seat(game, ann, "regular"), go, stop, stats, seed="ann"),
                Bot(server.base, Seat(game, ben, "shark"), go, stop, stats, seed="ben"),
            ]
            for bot in bots:
                bot.start()

            def meddle() -> None:
                with httpx.Client(base_url=server.base, timeout=30.0) as own:
                    while not stop.is_set():
                        for who in (ann, ben, sleepy, watcher, boss):
                            seen = own.get(f"/api/games/{game}", headers=who.auth).json()
                            if seen["hand"] and seen["hand"]["legal"] is not None:
                                continue  # their turn: not meddling
                            for kind in ("fold", "call", "check"):
                                body = {"kind": kind, "version": seen["version"]}
                                answer = own.post(
                                    f"/api/games/{game}/actions", json=body, headers=who.auth
                                )
                                meddled.append(answer.status_code)
                        time.sleep(0.05)

            meddler = threading.Thread(target=meddle, daemon=True)
            meddler.start()
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                dealt = client.get(f"/api/games/{game}", headers=ann.auth).json()["summary"][
                    "hands_dealt"
                ]
                if dealt >= 4:
                    break
                time.sleep(0.5)
            stop.set()
            meddler.join(timeout=30)
            for bot in bots:
                bot.join(timeout=30)
                assert bot.error is None, repr(bot.error)
    finally:
        stop.set()
        server.stop()
    # Out of turn, every attempt was refused as a conflict (a stale version may also
    # have been the reason), and none was ever a success.
    assert meddled and set(meddled) <= {409}, set(meddled)

    own: dict[int, int] = {}  # seq of each PlayerActed -> the user whose request made it
    for bot in bots:
        for what, status, body in bot.answers:
            if status != 200:
                continue
            for event in body["events"]:
                if event["type"] == "PlayerActed":
                    assert what == "actions", (what, event)
                    own.setdefault(event["seq"], bot.seat.player.id)
    truth = sqlite_room.ctx

    log: list[StoredEvent] = []
    while True:
        page = play.events_since(truth, game, log[-1].seq if log else 0)
        if not page:
            break
        log.extend(page)
    seats: dict[tuple[int | None, int], int] = {}  # (hand id, seat) -> user
    dealt_versions = set()
    counts = {"own": 0, "clock": 0, "blinds": 0}
    for k, event in enumerate(log):
        if event.kind == "HandDealt":
            dealt_versions.add(event.version)
            for seat, user, _stack in event.payload["players"]:
                seats[(event.hand_id, seat)] = user
        elif event.kind == "BlindPosted":
            assert event.version in dealt_versions, "blinds only with the deal"
            counts["blinds"] += 1
        elif event.kind == "PlayerActed":
            user = seats[(event.hand_id, event.payload["seat"])]
            if event.payload["timed_out"]:
                assert event.payload["action"] in ("check", "fold")
                later = [e for e in log[k + 1 :] if e.version == event.version]
                assert any(e.kind == "ClockActed" and e.payload["player"] == user for e in later), (
                    "a timed-out action comes with the clock's record"
                )
                counts["clock"] += 1
            else:
                assert own.get(event.seq) == user, f"action {event.seq} not made by its player"
                counts["own"] += 1
    assert counts["clock"] >= 1 and counts["own"] >= 3
    keep(
        "own-actions",
        {
            "out-of-turn attempts refused": len(meddled),
            "actions by their own player": counts["own"],
            "clock actions (check or fold)": counts["clock"],
            "blinds posted by the table": counts["blinds"],
        },
    )
