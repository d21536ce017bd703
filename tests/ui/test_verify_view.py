"""The hand history's "Verify this hand" view (js/verify.js, issue 7): a hand's deck
proof checked in the page with Web Crypto's SHA-256.

A hand played to a showdown verifies card by card against the root the table published
(DeckCommitted) before the deal; a proof tampered with on its way to the page (a salt,
a card, or a consistent proof of another deck) is reported as failed; a hand with no
proof shows the room's sentence; a page without Web Crypto says so. The page's checker
agrees with ``cardroom verify`` (cardroom/history/fairness.py) on the docs' test vector
and on every way of spoiling it below.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from cardroom.cards import card_text, parse_card
from cardroom.history import fairness
from tests.ui.conftest import Room
from tests.ui.kit import Account, Player, heads_up_game, ready, unique_name, visit

pytestmark = pytest.mark.slow

STREETS = ["flop", "turn", "river"]
VECTOR_ROOT = "c86d28c9fa3574fc84e847603e8087a3748bc5b8cf0cdc7dbcf75b93f75a43f5"
NO_WEB_CRYPTO = "Object.defineProperty(Crypto.prototype, 'subtle', {get() { return undefined; }});"


# -- playing a hand -------------------------------------------------------------------------


def check_down(players: list[Account], game_id: int) -> None:
    """Hand 1 checked and called to the showdown over the API."""
    by_id = {p.id: p for p in players}
    for _ in range(30):
        game = players[0].call("GET", f"/api/games/{game_id}")
        hand = game["hand"]
        if hand is None or not hand["running"]:
            return
        user = next(s["user_id"] for s in game["seats"] if s["seat"] == hand["seat_to_act"])
        actor = by_id[user]
        mine = actor.call("GET", f"/api/games/{game_id}")
        legal = mine["hand"]["legal"]["actions"]
        kind = "check" if "check" in legal else "call"
        body = {"kind": kind, "version": mine["version"]}
        actor.call("POST", f"/api/games/{game_id}/actions", body)
    raise AssertionError("hand 1 did not end")


def fold_first_hand(host: Account, game_id: int) -> None:
    """The host (small blind, first to act) folds hand 1: nobody sees a card of it."""
    game = host.call("GET", f"/api/games/{game_id}")
    host.call("POST", f"/api/games/{game_id}/actions", {"kind": "fold", "version": game["version"]})


def first_hand(account: Account, game_id: int) -> tuple[int, str]:
    """Hand 1's id and the root its DeckCommitted event published."""
    events = account.call("GET", f"/api/games/{game_id}/events?after=0&limit=1000")["events"]
    dealt = next(e for e in events if e["type"] == "HandDealt" and e["data"]["number"] == 1)
    committed = next(e for e in events if e["type"] == "DeckCommitted" and e["data"]["number"] == 1)
    assert events.index(committed) == events.index(dealt) + 1  # before the first card
    return int(dealt["hand_id"]), str(committed["data"]["root"])


def open_hand_1(player: Player, room: Room, game_id: int) -> Page:
    page = player.page
    visit(page, room.url(f"/games/{game_id}/history"))
    page.locator("[data-hands] tr[data-hand='1']").get_by_role(
        "button", name="Replay hand 1"
    ).click()
    expect(page.locator("[data-verify]")).to_be_visible()
    return page


@pytest.fixture(scope="module")
def showdown(room: Room) -> Iterator[dict[str, Any]]:
    """A heads-up hand checked down to a showdown: both hands shown, five board cards."""
    host = Account(room.base, unique_name("vera"))
    guest = Account(room.base, unique_name("walt"))
    game_id = heads_up_game(host, guest)
    check_down([host, guest], game_id)
    hand_id, root = first_hand(host, game_id)
    proof = host.call("GET", f"/api/hands/{hand_id}/proof")
    assert len(proof["leaves"]) == 9  # her two, his two shown, the board
    yield {"host": host, "game_id": game_id, "hand_id": hand_id, "root": root, "proof": proof}


def rows(page: Page) -> Any:
    return page.locator("[data-verify-cards] tr")


# -- the view -------------------------------------------------------------------------------


def test_a_showdown_verifies_card_by_card(
    room: Room, browser: Browser, showdown: dict[str, Any], artifacts: Any
) -> None:
    host, root, proof = showdown["host"], showdown["root"], showdown["proof"]
    assert host.call("GET", f"/api/hands/{showdown['hand_id']}")["deck_root"] == root
    assert proof["root"] == root
    player = host.open(browser)
    page = open_hand_1(player, room, showdown["game_id"])
    # the commitment, published before the deal, is told with the deal
    expect(page.locator("[data-published-root]")).to_have_text(root)
    expect(page.locator("[data-replay-log] li").first).to_have_text(
        f"Hand #1 is dealt. Deck committed: root {root[:12]}…"
    )
    page.get_by_role("button", name="Verify this hand").click()
    verdict = page.locator("[data-verify-verdict]")
    expect(verdict).to_have_text(
        "Verified: all 9 revealed cards match the commitment, so they were fixed before "
        "the hand began."
    )
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(page.locator("[data-verify-root]")).to_have_text(root)
    expect(page.locator("[data-verify-result]")).to_contain_text(
        "The same root the table published before the deal"
    )
    expect(rows(page)).to_have_count(9)
    for leaf in proof["leaves"]:
        row = page.locator(f"[data-verify-cards] tr[data-position='{leaf['position']}']")
        expect(row.locator("[data-card]")).to_have_text(leaf["card"])
        expect(row.locator("[data-result]")).to_have_text("verified")
        expect(row).to_contain_text(leaf["meaning"])
    expect(page.locator("[data-verify-failures]")).to_have_count(0)
    page.screenshot(path=str(artifacts / "history-verified.png"), full_page=True)
    assert player.errors == [], player.errors
    player.context.close()


def tamper(page: Page, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the proof on its way from the room to the page."""

    def handle(route: Route) -> None:
        answer = route.fetch()
        document = answer.json()
        change(document)
        route.fulfill(response=answer, body=json.dumps(document))

    page.route(re.compile(r"/api/hands/\d+/proof$"), handle)


def flip_hex(text: str, at: int = 10) -> str:
    return text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1 :]


def test_a_changed_salt_or_card_fails_that_card_and_the_hand(
    room: Room, browser: Browser, showdown: dict[str, Any]
) -> None:
    leaves = showdown["proof"]["leaves"]
    salted, carded = leaves[0]["position"], leaves[-1]["position"]
    swap = "As" if leaves[-1]["card"] != "As" else "Kd"

    def change(document: dict[str, Any]) -> None:
        for leaf in document["leaves"]:
            if leaf["position"] == salted:
                leaf["salt"] = flip_hex(leaf["salt"])
            if leaf["position"] == carded:
                leaf["card"] = swap

    player = showdown["host"].open(browser)
    page = open_hand_1(player, room, showdown["game_id"])
    tamper(page, change)
    page.get_by_role("button", name="Verify this hand").click()
    verdict = page.locator("[data-verify-verdict]")
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(verdict).to_have_text(re.compile(r"^Not verified: 2 of 9 revealed cards failed"))
    for leaf in leaves:
        row = page.locator(f"[data-verify-cards] tr[data-position='{leaf['position']}']")
        wanted = "failed" if leaf["position"] in (salted, carded) else "verified"
        expect(row.locator("[data-result]")).to_have_text(wanted)
    failures = page.locator("[data-verify-failures]")
    expect(failures).to_contain_text(
        f"Position {salted}: {leaves[0]['card']} with this salt and proof does not lead to "
        "the committed root"
    )
    expect(failures).to_contain_text(f"Position {carded}: {swap} with this salt and proof")
    assert player.errors == [], player.errors
    player.context.close()


def test_a_proof_of_another_deck_fails_against_the_published_root(
    room: Room, browser: Browser, showdown: dict[str, Any]
) -> None:
    """A server that proves the same cards against a deck committed afterwards: every
    proof holds (``cardroom verify`` alone accepts the file), but its root is not the
    one the table published before the deal."""
    real = showdown["proof"]
    placed = {leaf["position"]: parse_card(leaf["card"]) for leaf in real["leaves"]}
    rest = [c for c in range(52) if c not in placed.values()]
    random.Random(7).shuffle(rest)
    deck = [placed[p] if p in placed else rest.pop() for p in range(52)]
    fake_root, tree = fairness.commit(deck, [bytes([p ^ 0x5A]) * 32 for p in range(52)])
    fake = copy.deepcopy(real)
    fake["root"] = fake_root.hex()
    for leaf, proof in zip(fake["leaves"], fairness.reveal(tree, sorted(placed)), strict=True):
        leaf["salt"] = proof.salt.hex()
        leaf["proof"] = [{"side": s.side, "hash": s.hash.hex()} for s in proof.path]
    assert fairness.verify_document(fake).ok  # the file on its own checks out

    player = showdown["host"].open(browser)
    page = open_hand_1(player, room, showdown["game_id"])
    tamper(page, lambda document: document.update(fake))
    page.get_by_role("button", name="Verify this hand").click()
    verdict = page.locator("[data-verify-verdict]")
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(page.locator("[data-verify-root]")).to_have_text(fake_root.hex())
    expect(page.locator("[data-verify-failures]")).to_contain_text(
        f"is not the root published before the deal ({showdown['root']})"
    )
    expect(rows(page).locator("[data-result]", has_text="verified")).to_have_count(9)
    assert player.errors == [], player.errors
    player.context.close()


def test_a_hand_with_no_proof_shows_the_rooms_sentence(room: Room, browser: Browser) -> None:
    """An observer of a hand won before the flop saw no card: the proof is a 404."""
    host = Account(room.base, unique_name("xena"))
    guest = Account(room.base, unique_name("yuri"))
    game_id = heads_up_game(host, guest)
    fold_first_hand(host, game_id)
    hand_id, _ = first_hand(host, game_id)
    watcher = Account(room.base, unique_name("zoe")).open(browser)
    page = open_hand_1(watcher, room, game_id)
    answers: list[int] = []
    page.on(
        "response", lambda answer: answers.append(answer.status) if "/proof" in answer.url else None
    )
    page.get_by_role("button", name="Verify this hand").click()
    expect(page.locator("[data-verify-message]")).to_have_text(
        f"You saw no card of hand {hand_id} (it ended before the flop, and you held no cards "
        "in it): there is nothing to prove."
    )
    assert answers == [404]
    expect(page.locator("[data-verify-verdict]")).to_have_count(0)
    assert watcher.errors == [], watcher.errors
    watcher.context.close()


def test_without_web_crypto_the_page_says_how_to_check(
    room: Room, browser: Browser, showdown: dict[str, Any]
) -> None:
    """What a page served over plain HTTP under another name than localhost shows:
    ``crypto.subtle`` is undefined there."""
    player = showdown["host"].open(browser, init_script=NO_WEB_CRYPTO)
    page = open_hand_1(player, room, showdown["game_id"])
    assert page.evaluate("crypto.subtle") is None
    page.get_by_role("button", name="Verify this hand").click()
    message = page.locator("[data-verify-message]")
    expect(message).to_contain_text("only to pages served over HTTPS or from localhost")
    expect(message).to_contain_text("cardroom verify FILE")
    assert player.errors == [], player.errors
    player.context.close()


# -- the page's checker against cardroom verify -------------------------------------------


@pytest.fixture(scope="module")
def module_page(room: Room, browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(room.url("/sign-in"))
    ready(tab)
    tab.evaluate(
        "window.js = document.querySelector('link[rel=stylesheet]').href"
        ".replace(/css\\/app\\.css$/, 'js/')"
    )
    yield tab
    context.close()


def check_in_page(page: Page, document: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        """async doc => {
            const m = await import(window.js + 'verify.js');
            try { return await m.checkProof(doc); }
            catch (e) { return {error: e instanceof m.ProofFormatError ? 'format' : String(e)}; }
        }""",
        document,
    )
    return result


def vector_document() -> dict[str, Any]:
    """The docs' test vector (the deck in card order, salt i = 32 bytes of i), every
    position revealed, as an admin's file of a heads-up hand to the river."""
    salts = [bytes([i]) * 32 for i in range(52)]
    root, tree = fairness.commit(range(52), salts)
    meaning = {d.position: d for d in fairness.dealing_map([1, 2], STREETS)}
    names = {1: "ann", 2: "ben"}
    return {
        "format": "cardroom-deck-proof",
        "version": 1,
        "table": "Vector",
        "hand_number": 1,
        "viewer": "admin",
        "deck_size": 52,
        "root": root.hex(),
        "dealing": {"seats": [1, 2], "names": {"1": "ann", "2": "ben"}, "streets": STREETS},
        "leaves": [
            {
                "position": p.position,
                "card": card_text(p.card),
                "salt": p.salt.hex(),
                "dealt_as": meaning[p.position].to_dict(),
                "meaning": meaning[p.position].describe(names),
                "proof": [{"side": s.side, "hash": s.hash.hex()} for s in p.path],
            }
            for p in fairness.reveal(tree, range(52))
        ],
    }


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value(target) if callable(value) else value

    return change


def _flip_step(doc: dict[str, Any]) -> None:
    step = doc["leaves"][30]["proof"][2]
    step["hash"] = flip_hex(step["hash"], 63)


def _swap_side(doc: dict[str, Any]) -> None:
    step = doc["leaves"][49]["proof"][0]
    step["side"] = "right" if step["side"] == "left" else "left"


SPOILED: dict[str, Callable[[dict[str, Any]], None]] = {
    "as given": lambda doc: None,
    "a salt": _set("leaves.0.salt", lambda leaf: flip_hex(leaf["salt"], 0)),
    "a card": _set("leaves.7.card", "Ah"),
    "a card written loosely": _set("leaves.51.card", "aS"),
    "a ten written 10": _set("leaves.32.card", "10c"),
    "hex in capitals and spaced": _set(
        "leaves.3.salt",
        lambda leaf: " ".join(leaf["salt"][i : i + 2].upper() for i in range(0, 64, 2)),
    ),
    "a proof step": _flip_step,
    "a sibling's side": _swap_side,
    "a step dropped": _set("leaves.50.proof", lambda leaf: leaf["proof"][:-1]),
    "the root": _set("root", lambda doc: flip_hex(doc["root"], 63)),
    "a short root": _set("root", lambda doc: doc["root"][:62]),
    "a short salt": _set("leaves.9.salt", lambda leaf: leaf["salt"][:62]),
    "a position": _set("leaves.4.position", 5),
    "a place it was dealt": _set("leaves.0.dealt_as", {"kind": "board", "street": "flop"}),
    "one leaf twice": lambda doc: doc["leaves"].append(copy.deepcopy(doc["leaves"][0])),
    "nothing revealed": _set("leaves", []),
    "not hexadecimal": _set("leaves.2.salt", lambda leaf: "zz" + leaf["salt"][2:]),
    "a card that is not one": _set("leaves.2.card", "Zz"),
    "a bad format": _set("format", "something else"),
}


def test_the_docs_test_vector_has_the_docs_root(module_page: Page) -> None:
    document = vector_document()
    assert document["root"] == VECTOR_ROOT
    first = module_page.evaluate(
        """async () => {
            const m = await import(window.js + 'verify.js');
            return m.toHex(await m.leafHash(0, '2c', new Uint8Array(32)));
        }"""
    )
    assert first == fairness.leaf_hash(0, parse_card("2c"), bytes(32)).hex()
    result = check_in_page(module_page, document)
    assert result["ok"] is True, result["failures"]
    assert result["root"] == VECTOR_ROOT
    assert [leaf["position"] for leaf in result["leaves"]] == list(range(52))


@pytest.mark.parametrize("spoil", list(SPOILED), ids=list(SPOILED))
def test_the_page_agrees_with_cardroom_verify(module_page: Page, spoil: str) -> None:
    document = vector_document()
    SPOILED[spoil](document)
    try:
        expected = fairness.verify_document(copy.deepcopy(document))
    except fairness.ProofFormatError:
        assert check_in_page(module_page, document) == {"error": "format"}
        return
    result = check_in_page(module_page, document)
    assert "error" not in result, result
    assert result["ok"] == expected.ok
    python_failed = sorted(c.position for c in expected.verdict.checks if not c.ok)
    page_failed = sorted(leaf["position"] for leaf in result["leaves"] if not leaf["ok"])
    assert page_failed == python_failed
    assert len(result["problems"]) == len(expected.verdict.problems)
    assert sorted(result["failures"]) == sorted(expected.verdict.failures)
