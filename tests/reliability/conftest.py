"""Fixtures of the reliability tests: one zygote (the forking parent of every
``cardroom serve`` these tests start) for the whole run, and a scratch room per
backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import BACKENDS
from tests.reliability.servers import Room, Zygote, room


@pytest.fixture(scope="session")
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Zygote]:
    parent = Zygote(tmp_path_factory.mktemp("zygote"))
    try:
        yield parent
    finally:
        parent.close()


@pytest.fixture(params=BACKENDS)
def fresh_room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    """A migrated scratch database of each backend."""
    with room(request.param, tmp_path) as the_room:
        yield the_room
