"""What notices say: titles, bodies, the push payload and the email, from plain
values. No I/O and no clock: every time is an argument, written in UTC.

Emails carry absolute links (``NotifySettings.link``); pushes and in-app notices carry
paths (``GAME_PATH`` for a table), which the page and the service worker resolve
against their own origin, so a click works whatever address the room is reached at.
``ACCOUNT_PATH`` is where a player changes their channels.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

GAME_PATH = "/games/{game_id}"
ACCOUNT_PATH = "/account"
LOBBY_PATH = "/"

TITLE_MAX = 120
BODY_MAX = 500
# A push notification shows a few lines; the rest is in the room.
PUSH_BODY_MAX = 300
MAX_LISTED = 10  # a coalesced message names at most this many notices


# ``GAME_PATH`` with the id written on its end, without ``str.format``'s parse of the
# template (every notice recorded carries the path).
_GAME_PATH_HEAD = GAME_PATH.removesuffix("{game_id}")
assert _GAME_PATH_HEAD + "{game_id}" == GAME_PATH


def game_path(game_id: int) -> str:
    return f"{_GAME_PATH_HEAD}{game_id}"


def amount_text(amount: int, pays_money: bool) -> str:
    """Cents as dollars at money tables, points at ``arena`` tables. (The service
    layer's ``format_cents`` says the same; notify sits below the service layer and
    keeps its own three lines.)"""
    if not pays_money:
        return f"{amount:,} point" + ("" if amount == 1 else "s")
    return f"${amount // 100:,}.{amount % 100:02d}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# Spelt out rather than strftime's %B: the same English whatever the process's
# locale, and a tenth of the cost (every "your turn" with a clock writes one).
MONTHS = (
    *("January", "February", "March", "April", "May", "June"),
    *("July", "August", "September", "October", "November", "December"),
)


def utc_text(moment: datetime) -> str:
    """``20:05 UTC on 15 January``: short, and the same for everyone."""
    return f"{moment.hour:02d}:{moment.minute:02d} UTC on {moment.day} {MONTHS[moment.month - 1]}"


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if not text or text[-1] in ".!?" else text + "."


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class Text:
    """A notice's title and body, clipped to their columns. Its own ``__init__``
    (the dataclass keeps it): a frozen dataclass's ``__post_init__`` would set each
    field twice, and nearly every command writes one of these."""

    title: str
    body: str

    def __init__(self, title: str, body: str) -> None:
        object.__setattr__(
            self, "title", title if len(title) <= TITLE_MAX else _clip(title, TITLE_MAX)
        )
        object.__setattr__(self, "body", body if len(body) <= BODY_MAX else _clip(body, BODY_MAX))


def your_turn(
    game_id: int,
    *,
    hand_number: int,
    street: str,
    to_call: int,
    pot: int,
    pays_money: bool,
    due_at: datetime | None,
) -> Text:
    """Never names a card: a notice may be read on a lock screen."""
    owed = f"{amount_text(to_call, pays_money)} to call" if to_call > 0 else "you can check"
    body = f"Hand {hand_number}, {street}: {owed}, pot {amount_text(pot, pays_money)}."
    if due_at is not None:
        body += f" Your clock runs out at {utc_text(due_at)}."
    return Text(f"Your turn in game {game_id}", body)


def game_started(
    game_id: int, *, players: int, small_blind: int, big_blind: int, pays_money: bool
) -> Text:
    blinds = f"{amount_text(small_blind, pays_money)}/{amount_text(big_blind, pays_money)}"
    return Text(f"Game {game_id} has started", f"{players} players, blinds {blinds}. Good luck!")


def tournament_finished(
    game_id: int,
    *,
    place: int | None,
    players: int,
    prize: int,
    winner_name: str,
    you_won: bool,
    pays_money: bool,
) -> Text:
    if you_won:
        body = f"You won the tournament, out of {players} players"
    else:
        body = f"{winner_name} won the tournament"
        if place is not None:
            body += f"; you finished {ordinal(place)} of {players}"
    if prize > 0:
        body += f", and you take {amount_text(prize, pays_money)}"
    return Text(f"Game {game_id} is over", body + ".")


def game_cancelled(game_id: int, *, reason: str, refund: int, pays_money: bool) -> Text:
    body = _sentence(reason) or "It was cancelled."
    if refund > 0:
        body += f" Your buy-in of {amount_text(refund, pays_money)} was refunded."
    return Text(f"Game {game_id} was cancelled", body)


# ---------------------------------------------------------------- delivery


@dataclass(frozen=True)
class Item:
    """One notice, as a message that may carry several shows it."""

    notice_id: int
    kind: str
    game_id: int
    title: str
    body: str
    path: str  # the game's page, for the service worker (same origin)
    link: str  # the same page as an absolute link, for email


def _summary(items: Sequence[Item]) -> str:
    turns = {item.game_id for item in items if item.kind == "your_turn"}
    if len(turns) == len(items):
        return f"Your turn in {len(turns)} games"
    return f"{len(items)} updates from Cardroom"


def push_payload(items: Sequence[Item]) -> bytes:
    """The JSON the service worker gets: ``title``, ``body`` and ``url`` (a path)
    for ``showNotification`` and the click, ``tag`` so a newer notice replaces an older
    one on screen, and the notice ids."""
    if not items:
        raise ValueError("a push needs at least one notice")
    if len(items) == 1:
        item = items[0]
        title, body, url, tag = item.title, item.body, item.path, f"game-{item.game_id}"
    else:
        games = {item.game_id for item in items}
        title = _summary(items)
        body = "; ".join(item.title for item in items[:MAX_LISTED])
        url = items[0].path if len(games) == 1 else LOBBY_PATH
        tag = "cardroom"
    payload = {
        "title": title,
        "body": _clip(body, PUSH_BODY_MAX),
        "url": url,
        "tag": tag,
        "notices": [item.notice_id for item in items],
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def email(items: Sequence[Item], *, account_link: str) -> tuple[str, str]:
    """Subject and plain text of one email for ``items``."""
    if not items:
        raise ValueError("an email needs at least one notice")
    if len(items) == 1:
        item = items[0]
        subject = item.title
        text = f"{item.body}\n\nOpen the table: {item.link}\n"
    else:
        subject = _summary(items)
        lines = [f"- {item.title}. {item.body}\n  {item.link}" for item in items[:MAX_LISTED]]
        if len(items) > MAX_LISTED:
            lines.append(f"- and {len(items) - MAX_LISTED} more in the room.")
        text = "\n\n".join(lines) + "\n"
    footer = (
        "\n-- \nYou get these emails because you turned on email notices in Cardroom.\n"
        f"Change that here: {account_link}\n"
    )
    return subject, text + footer
