"""A deck players can verify: a Merkle commitment to the deck order, and its proofs.

Before the first card of a hand is dealt the server publishes one SHA-256 hash, the
root of a Merkle tree over the 52 positions of the shuffled deck. Each leaf hashes
its position, its card and a 32-byte random salt::

    leaf = SHA-256(0x00 || position || card || salt)     1 + 1 + 2 + 32 = 36 bytes
    node = SHA-256(0x01 || left || right)                1 + 32 + 32 = 65 bytes

``position`` is one byte (0 to 51, the order cards leave the deck), ``card`` is two
ASCII bytes, rank then suit (``As``, ``Td``, ``2c``), and the salt comes from the
operating system's CSPRNG (passed in: this module draws nothing). The tree is the
Merkle Tree Hash of RFC 6962, section 2.1: over n > 1 leaves it is the node of the
tree over the first k leaves and the tree over the rest, k the largest power of two
below n (52 = 32 + 16 + 4). The 0x00 and 0x01 prefixes keep a leaf from passing for
a node.

As cards are seen, their leaves are revealed (card and salt) with the sibling hashes
on the way to the root; anyone can recompute the root from them. Without its salt a
leaf's card cannot be guessed from its hash, so unseen cards stay hidden.

>>> salts = [bytes([i]) * 32 for i in range(52)]
>>> root, tree = commit(range(52), salts)
>>> proofs = reveal(tree, [0, 51])
>>> verify(root, proofs).ok
True
>>> forged = LeafProof(0, 51, proofs[0].salt, proofs[0].path)  # the ace of spades?
>>> verify(root, [forged]).ok
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.cards import CardError, card_text, parse_card
from cardroom.events import BoardDealt
from cardroom.hand import Hand
from cardroom.history.privacy import Viewer, disclose
from cardroom.history.record import HandRecord, replay

DECK_SIZE = 52
SALT_BYTES = 32
HASH_BYTES = 32
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
FORMAT = "cardroom-deck-proof"
VERSION = 1
SCHEME = (
    "RFC 6962 Merkle tree, SHA-256; leaf = H(0x00 || position byte || card ASCII || "
    "32-byte salt); node = H(0x01 || left || right)"
)


class FairnessError(ValueError):
    """A deck, salts or record that cannot be committed to or proven."""


class ProofFormatError(ValueError):
    """A verification file that is not one: the sentence says what is wrong."""


# ---------------------------------------------------------------------- hashing


def leaf_hash(position: int, card: int, salt: bytes) -> bytes:
    """SHA-256(0x00 || position || card text || salt)."""
    if not 0 <= position < DECK_SIZE:
        raise FairnessError(f"Position {position} is outside the deck (0 to {DECK_SIZE - 1}).")
    if len(salt) != SALT_BYTES:
        raise FairnessError(f"A salt is {SALT_BYTES} bytes, not {len(salt)}.")
    data = LEAF_PREFIX + bytes([position]) + card_text(card).encode("ascii") + salt
    return hashlib.sha256(data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """RFC 6962: the largest power of two smaller than n (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def path_sides(position: int, size: int = DECK_SIZE) -> tuple[str, ...]:
    """Where each sibling on the way up from ``position`` sits: ``"left"`` or
    ``"right"``, leaf level first. It follows from the position alone."""
    sides: list[str] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if position - lo < k:
            sides.append("right")
            hi = lo + k
        else:
            sides.append("left")
            lo = lo + k
    return tuple(reversed(sides))


# ---------------------------------------------------------------------- commit


@dataclass(frozen=True, slots=True)
class DeckTree:
    """The committed deck: cards, salts and every subtree hash. Secret, except for
    ``root``, until leaves are revealed."""

    deck: tuple[int, ...]
    salts: tuple[bytes, ...]
    root: bytes
    nodes: Mapping[tuple[int, int], bytes]  # (first, end) position range -> hash


def new_salts(token_bytes: Callable[[int], bytes]) -> tuple[bytes, ...]:
    """52 salts from ``token_bytes`` (``secrets.token_bytes`` in play): its bytes
    fetched in one call and cut in 32-byte pieces, the same independent uniform bytes
    as 52 calls of 32 (the operating system's CSPRNG has no boundaries between
    calls) at one system call, not 52."""
    block = token_bytes(SALT_BYTES * DECK_SIZE)
    if len(block) != SALT_BYTES * DECK_SIZE:
        raise FairnessError(f"Each salt must be {SALT_BYTES} bytes.")
    return tuple([block[at : at + SALT_BYTES] for at in range(0, len(block), SALT_BYTES)])


def commit(deck: Iterable[int], salts: Sequence[bytes]) -> tuple[bytes, DeckTree]:
    """The root to publish before dealing, and the tree to reveal leaves from."""
    cards = tuple(deck)
    if len(cards) != DECK_SIZE or sorted(cards) != list(range(DECK_SIZE)):
        raise FairnessError("A committed deck holds each of the 52 cards once.")
    if len(salts) != DECK_SIZE:
        raise FairnessError(f"Give one salt per card: {DECK_SIZE}, not {len(salts)}.")
    nodes: dict[tuple[int, int], bytes] = {}

    def build(lo: int, hi: int) -> bytes:
        if hi - lo == 1:
            digest = leaf_hash(lo, cards[lo], salts[lo])
        else:
            k = _split(hi - lo)
            digest = node_hash(build(lo, lo + k), build(lo + k, hi))
        nodes[(lo, hi)] = digest
        return digest

    root = build(0, DECK_SIZE)
    return root, DeckTree(cards, tuple(bytes(s) for s in salts), root, nodes)


# Each leaf's bytes before its salt, by position and card: a deal hashes 52 leaves.
_LEAF_HEADS = tuple(
    tuple(
        LEAF_PREFIX + bytes([position]) + card_text(card).encode("ascii")
        for card in range(DECK_SIZE)
    )
    for position in range(DECK_SIZE)
)


_ALL_CARDS = set(range(DECK_SIZE))
_SALT_LENGTH = {SALT_BYTES}


def deck_root(deck: Iterable[int], salts: Sequence[bytes]) -> bytes:
    """``commit``'s root alone, for the deal, which publishes the root and stores the
    salts (the tree is rebuilt from them to reveal): the same checks and hashes
    without the tree's table, each leaf's head looked up rather than built, about
    half ``commit``'s time."""
    cards = tuple(deck)
    # 52 cards making the set of all 52 is each card once: ``commit``'s check, by a
    # set rather than a sort (and the salts' lengths likewise), without a step a card.
    if len(cards) != DECK_SIZE or set(cards) != _ALL_CARDS:
        raise FairnessError("A committed deck holds each of the 52 cards once.")
    if len(salts) != DECK_SIZE:
        raise FairnessError(f"Give one salt per card: {DECK_SIZE}, not {len(salts)}.")
    if set(map(len, salts)) != _SALT_LENGTH:
        wrong = next(len(salt) for salt in salts if len(salt) != SALT_BYTES)
        raise FairnessError(f"A salt is {SALT_BYTES} bytes, not {wrong}.")
    sha256 = hashlib.sha256
    hashes = [
        sha256(head[card] + salt).digest()
        for head, card, salt in zip(_LEAF_HEADS, cards, salts, strict=True)
    ]
    for left, right in _NODES:
        hashes.append(sha256(NODE_PREFIX + hashes[left] + hashes[right]).digest())
    return hashes[-1]


def _node_order(size: int) -> tuple[tuple[int, int], ...]:
    """The tree's nodes in the order ``commit`` builds them (left subtree, right
    subtree, then the node), each as the places of its two children in a list that
    starts with the ``size`` leaves and gets each node appended as it is made: the
    root is the last. Worked out once, so the deal hashes in a flat loop, without
    the recursion and ``_split`` on every call."""
    order: list[tuple[int, int]] = []

    def build(lo: int, hi: int) -> int:
        if hi - lo == 1:
            return lo
        k = _split(hi - lo)
        left, right = build(lo, lo + k), build(lo + k, hi)
        order.append((left, right))
        return size + len(order) - 1

    build(0, size)
    return tuple(order)


_NODES = _node_order(DECK_SIZE)


# ---------------------------------------------------------------------- reveal


@dataclass(frozen=True, slots=True)
class ProofStep:
    side: str  # where the sibling sits: "left" or "right"
    hash: bytes


@dataclass(frozen=True, slots=True)
class LeafProof:
    """One revealed position: its card and salt, and the sibling hashes from the leaf
    up to the root."""

    position: int
    card: int
    salt: bytes
    path: tuple[ProofStep, ...]


def reveal(tree: DeckTree, positions: Iterable[int]) -> list[LeafProof]:
    """Proofs for the given positions, in position order."""
    proofs = []
    for position in sorted(set(positions)):
        if not 0 <= position < DECK_SIZE:
            raise FairnessError(f"Position {position} is outside the deck (0 to 51).")
        steps: list[ProofStep] = []
        lo, hi = 0, DECK_SIZE
        while hi - lo > 1:
            k = _split(hi - lo)
            if position - lo < k:
                steps.append(ProofStep("right", tree.nodes[(lo + k, hi)]))
                hi = lo + k
            else:
                steps.append(ProofStep("left", tree.nodes[(lo, lo + k)]))
                lo = lo + k
        proofs.append(
            LeafProof(position, tree.deck[position], tree.salts[position], tuple(reversed(steps)))
        )
    return proofs


# ---------------------------------------------------------------------- verify


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict on one revealed position; ``reason`` says what failed."""

    position: int
    card: int
    ok: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    checks: tuple[Check, ...]
    problems: tuple[str, ...] = ()  # failures of the set as a whole

    @property
    def ok(self) -> bool:
        return bool(self.checks) and not self.problems and all(c.ok for c in self.checks)

    @property
    def failures(self) -> list[str]:
        return [*self.problems, *(c.reason for c in self.checks if not c.ok)]


def verify(root: bytes, proofs: Sequence[LeafProof]) -> Verdict:
    """Check every revealed card against the committed root."""
    problems: list[str] = []
    if len(root) != HASH_BYTES:
        problems.append(f"The root is {len(root)} bytes; a SHA-256 hash is {HASH_BYTES}.")
    if not proofs:
        problems.append("Nothing is revealed: there is no card to check.")
    seen_positions: dict[int, int] = {}
    seen_cards: dict[int, int] = {}
    checks = []
    for proof in proofs:
        where = f"Position {proof.position}"
        if proof.position in seen_positions:
            problems.append(f"{where} is revealed twice.")
        seen_positions[proof.position] = proof.card
        if proof.card in seen_cards and 0 <= proof.card < DECK_SIZE:
            problems.append(
                f"{card_text(proof.card)} is revealed at positions {seen_cards[proof.card]} "
                f"and {proof.position}: a deck holds each card once."
            )
        seen_cards.setdefault(proof.card, proof.position)
        checks.append(_check(root, proof))
    return Verdict(tuple(checks), tuple(problems))


def _check(root: bytes, proof: LeafProof) -> Check:
    where = f"Position {proof.position}"

    def fail(reason: str) -> Check:
        return Check(proof.position, proof.card, False, f"{where}: {reason}")

    if not 0 <= proof.position < DECK_SIZE:
        return fail(f"outside the deck (0 to {DECK_SIZE - 1}).")
    if not 0 <= proof.card < DECK_SIZE:
        return fail(f"{proof.card} is not a card.")
    if len(proof.salt) != SALT_BYTES:
        return fail(f"the salt is {len(proof.salt)} bytes, not {SALT_BYTES}.")
    sides = path_sides(proof.position)
    if len(proof.path) != len(sides):
        return fail(f"the proof has {len(proof.path)} steps; this position needs {len(sides)}.")
    digest = leaf_hash(proof.position, proof.card, proof.salt)
    for number, (step, side) in enumerate(zip(proof.path, sides, strict=True), 1):
        if step.side != side:
            return fail(f"step {number} puts the sibling on the {step.side}; it belongs {side}.")
        if len(step.hash) != HASH_BYTES:
            return fail(f"step {number} is not a SHA-256 hash.")
        digest = node_hash(step.hash, digest) if side == "left" else node_hash(digest, step.hash)
    if digest != root:
        return fail(
            f"{card_text(proof.card)} with this salt and proof does not lead to the committed "
            "root: the card, its salt, a proof step or the root has been changed."
        )
    return Check(proof.position, proof.card, True)


# ---------------------------------------------------------------------- dealing


@dataclass(frozen=True, slots=True)
class Dealt:
    """What a deck position was used for: a hole card (``seat``, ``number`` 1 or 2),
    a burn before a ``street``, a board card (``street``, ``number`` within it), or
    nothing (``undealt``)."""

    position: int
    kind: str  # "hole", "burn", "board" or "undealt"
    seat: int | None = None
    number: int | None = None
    street: str | None = None

    def describe(self, names: Mapping[int, str] | None = None) -> str:
        if self.kind == "hole":
            who = f"seat {self.seat}"
            name = (names or {}).get(self.seat) if self.seat is not None else None
            if name is not None:
                who += f" ({name})"
            return f"{who}, hole card {self.number}"
        if self.kind == "burn":
            return f"burnt before the {self.street}"
        if self.kind == "board":
            return (
                f"{self.street} card {self.number}" if self.street == "flop" else f"{self.street}"
            )
        return "not dealt"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.street is not None:
            data["street"] = self.street
        if self.number is not None:
            data["number"] = self.number
        return data


def dealing_map(seats: Sequence[int], streets: Sequence[str]) -> list[Dealt]:
    """The use of each of the 52 positions when ``seats`` (in dealing order, first
    left of the button) are dealt two hole cards one at a time, and then the given
    streets each with a burn: the rule every hand follows."""
    n = len(seats)
    out = [
        Dealt(r * n + i, "hole", seat=seat, number=r + 1)
        for r in range(2)
        for i, seat in enumerate(seats)
    ]
    position = 2 * n
    for street in streets:
        out.append(Dealt(position, "burn", street=street))
        count = 3 if street == "flop" else 1
        out.extend(
            Dealt(position + 1 + k, "board", street=street, number=k + 1) for k in range(count)
        )
        position += 1 + count
    out.extend(Dealt(p, "undealt") for p in range(position, DECK_SIZE))
    return out


def streets_dealt(hand: Hand) -> list[str]:
    return [e.street for e in hand.events if isinstance(e, BoardDealt)]


def visible_positions(hand: Hand, viewer: Viewer) -> list[int]:
    """The positions a viewer may see revealed: the hole cards ``disclose`` lets
    them see and the board; never a burn or an undealt card, except to an admin, who
    may see the whole deck."""
    if viewer.admin:
        return list(range(DECK_SIZE))
    visible = disclose(hand, viewer).visible
    return [
        d.position
        for d in dealing_map(hand.seats, streets_dealt(hand))
        if d.kind == "board" or (d.kind == "hole" and d.seat in visible)
    ]


# ---------------------------------------------------------------------- the file


def proof_document(record: HandRecord, viewer: Viewer) -> dict[str, Any]:
    """The verification file (JSON-ready) of one hand for one viewer."""
    if record.deck_root is None or record.deck_salts is None:
        raise FairnessError("This hand was dealt without a deck commitment.")
    root, tree = commit(record.deck, record.deck_salts)
    if root != record.deck_root:
        raise FairnessError("The stored deck or salts do not match the published commitment.")
    hand = replay(record)
    streets = streets_dealt(hand)
    meaning = {d.position: d for d in dealing_map(hand.seats, streets)}
    leaves = []
    for proof in reveal(tree, visible_positions(hand, viewer)):
        dealt = meaning[proof.position]
        leaves.append(
            {
                "position": proof.position,
                "card": card_text(proof.card),
                "salt": proof.salt.hex(),
                "dealt_as": dealt.to_dict(),
                "meaning": dealt.describe(record.names),
                "proof": [{"side": s.side, "hash": s.hash.hex()} for s in proof.path],
            }
        )
    if viewer.admin:
        who = "admin"
    elif viewer.seat is None or viewer.seat not in record.names:
        who = "observer"
    else:
        who = f"seat {viewer.seat} ({record.names[viewer.seat]})"
    return {
        "format": FORMAT,
        "version": VERSION,
        "scheme": SCHEME,
        "table": record.table,
        "hand_number": record.hand_number,
        "started_at": record.started_at.isoformat(),
        "viewer": who,
        "deck_size": DECK_SIZE,
        "root": root.hex(),
        "dealing": {
            "seats": list(hand.seats),
            "names": {str(s): record.names[s] for s in hand.seats},
            "streets": streets,
        },
        "leaves": leaves,
    }


@dataclass(frozen=True, slots=True)
class DocumentVerdict:
    """``verdict`` on the proofs, the leaves as the file describes them, and where
    the file's description of a position disagrees with the dealing order."""

    verdict: Verdict
    leaves: tuple[tuple[LeafProof, Dealt], ...]
    table: str
    hand_number: int
    root: bytes
    viewer: str
    names: Mapping[int, str]

    @property
    def ok(self) -> bool:
        return self.verdict.ok


def verify_document(data: Any) -> DocumentVerdict:
    """Read a verification file (parsed JSON) and check it. A file that is not one
    raises ``ProofFormatError``; failed proofs are in the verdict."""
    if not isinstance(data, dict):
        raise ProofFormatError("A verification file is a JSON object.")
    if data.get("format") != FORMAT:
        raise ProofFormatError(f"This is not a deck verification file (format {FORMAT!r}).")
    if data.get("version") != VERSION:
        raise ProofFormatError(f"Only version {VERSION} verification files can be checked.")
    root = _hex(data.get("root"), "root")
    dealing = data.get("dealing")
    if not isinstance(dealing, dict):
        raise ProofFormatError("The file does not say how the hand was dealt ('dealing').")
    seats = dealing.get("seats")
    streets = dealing.get("streets")
    if (
        not isinstance(seats, list)
        or not all(isinstance(s, int) for s in seats)
        or not 2 <= len(seats) <= 10
    ):
        raise ProofFormatError("'dealing.seats' must list 2 to 10 seat numbers.")
    if not isinstance(streets, list) or streets not in (
        [],
        ["flop"],
        ["flop", "turn"],
        ["flop", "turn", "river"],
    ):
        raise ProofFormatError("'dealing.streets' must be the streets dealt, in order.")
    raw_names = dealing.get("names") or {}
    if not isinstance(raw_names, dict):
        raise ProofFormatError("'dealing.names' must map seats to names.")
    names = {int(k): str(v) for k, v in raw_names.items() if str(k).isdigit()}
    meaning = {d.position: d for d in dealing_map(seats, streets)}
    leaves = data.get("leaves")
    if not isinstance(leaves, list):
        raise ProofFormatError("'leaves' must be a list of revealed positions.")
    parsed: list[tuple[LeafProof, Dealt]] = []
    problems: list[str] = []
    for number, leaf in enumerate(leaves, 1):
        proof, claimed = _leaf(leaf, number)
        parsed.append((proof, meaning.get(proof.position, Dealt(proof.position, "undealt"))))
        expected = meaning.get(proof.position)
        if expected is not None and claimed is not None and claimed != expected.to_dict():
            problems.append(
                f"Position {proof.position}: the file says it was dealt as {claimed}, but by "
                f"the dealing order it is {expected.describe()}."
            )
    verdict = verify(root, [p for p, _ in parsed])
    if problems:
        verdict = Verdict(verdict.checks, verdict.problems + tuple(problems))
    return DocumentVerdict(
        verdict=verdict,
        leaves=tuple(parsed),
        table=str(data.get("table", "")),
        hand_number=_int(data.get("hand_number", 0), "hand_number"),
        root=root,
        viewer=str(data.get("viewer", "")),
        names=names,
    )


def _leaf(leaf: Any, number: int) -> tuple[LeafProof, dict[str, Any] | None]:
    where = f"Leaf {number}"
    if not isinstance(leaf, dict):
        raise ProofFormatError(f"{where} is not an object.")
    position = _int(leaf.get("position"), f"{where}'s position")
    try:
        card = parse_card(str(leaf.get("card", "")))
    except CardError as exc:
        raise ProofFormatError(f"{where}: {exc}") from None
    salt = _hex(leaf.get("salt"), f"{where}'s salt")
    steps = leaf.get("proof")
    if not isinstance(steps, list):
        raise ProofFormatError(f"{where} has no proof (a list of steps).")
    path = []
    for k, step in enumerate(steps, 1):
        if not isinstance(step, dict) or step.get("side") not in ("left", "right"):
            raise ProofFormatError(f"{where}, step {k}: give a side (left or right) and a hash.")
        path.append(ProofStep(str(step["side"]), _hex(step.get("hash"), f"{where}, step {k}")))
    claimed = leaf.get("dealt_as")
    return LeafProof(position, card, salt, tuple(path)), claimed if isinstance(
        claimed, dict
    ) else None


def _hex(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise ProofFormatError(f"The {what} must be a hexadecimal string.")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ProofFormatError(f"The {what} is not hexadecimal.") from None


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProofFormatError(f"The {what} must be a whole number.")
    return value
