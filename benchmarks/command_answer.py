"""What writing a command's HTTP answer costs: FastAPI's way (the route returns a
``CommandOut``; FastAPI checks it against the response model, on a worker thread for
a ``def`` route like Cardroom's, then writes it) against ``game_answers.command_json``
(the bytes written straight from the result), in CPU microseconds per answer.

    $ .venv/bin/python benchmarks/command_answer.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import anyio
from fastapi.responses import JSONResponse
from fastapi.routing import serialize_response
from fastapi.utils import create_model_field

from cardroom.service.game_records import PlayResult
from cardroom.service.game_views import ViewedEvent
from cardroom.store.models import GameStatus
from cardroom.web.game_answers import command_json, command_out
from cardroom.web.schemas_games import CommandOut

# An action's usual answer: the action and the turn passing on.
_NOW = datetime.now(UTC)
EVENTS = [
    ViewedEvent(41, "PlayerActed", 3, 7, _NOW, {"seat": 1, "action": "call", "amount": 2}),
    ViewedEvent(42, "StreetDealt", 3, 7, _NOW, {"street": "flop", "cards": ["Ah", "7d", "2c"]}),
]
RESULT = PlayResult(1, 7, GameStatus.RUNNING, ())
FIELD = create_model_field(name="Response_act", type_=CommandOut, mode="serialization")


async def through_the_model() -> bytes:
    content = await serialize_response(
        field=FIELD, response_content=command_out(RESULT, EVENTS), is_coroutine=False
    )
    return bytes(JSONResponse(content).body)


async def written_straight() -> bytes:
    return command_json(RESULT, EVENTS)


async def cpu_us(answer: Callable[[], Awaitable[bytes]], times: int) -> float:
    await answer()
    start = time.process_time()
    for _ in range(times):
        await answer()
    return (time.process_time() - start) / times * 1e6


async def main(rounds: int, times: int) -> None:
    assert await through_the_model() == await written_straight(), "not the same bytes"
    for number in range(1, rounds + 1):
        model = await cpu_us(through_the_model, times)
        straight = await cpu_us(written_straight, times)
        print(f"round {number}: through the model {model:.1f} us, straight {straight:.1f} us")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--times", type=int, default=5000)
    args = parser.parse_args()
    anyio.run(main, args.rounds, args.times)
