"""The VAPID key pair: made once, kept private, the same ever after."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

import pytest

from cardroom.notify import vapid
from cardroom.notify.vapid import VapidKeyError, VapidKeys, b64url_decode, load_or_create
from tests.notify.receivers import verify_vapid


@pytest.fixture(autouse=True)
def no_cache() -> None:
    # Each test reads its files afresh, as a new process would.
    vapid._cache.clear()


def test_first_use_makes_a_pair_only_the_owner_can_read(tmp_path: Path) -> None:
    path = tmp_path / "var" / "vapid.json"
    keys = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["public_key"] == keys.public_key
    point = b64url_decode(keys.public_key)
    assert len(point) == 65 and point[0] == 4  # what applicationServerKey takes
    assert "=" not in keys.public_key
    assert [p.name for p in path.parent.iterdir()] == ["vapid.json"]  # no temporary left


def test_the_pair_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "vapid.json"
    first = load_or_create(path).public_key
    vapid._cache.clear()
    assert load_or_create(path).public_key == first


def test_processes_starting_together_agree_on_one_pair(tmp_path: Path) -> None:
    path = tmp_path / "vapid.json"
    made: list[str] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        # Bypass the in-process cache and lock: as separate processes would.
        made.append((vapid._create(path) if not path.exists() else vapid._read(path)).public_key)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    on_disk = vapid._read(path).public_key
    assert made == [on_disk] * 8


def test_loose_permissions_are_tightened(tmp_path: Path) -> None:
    path = tmp_path / "vapid.json"
    keys = load_or_create(path)
    path.chmod(0o644)
    vapid._cache.clear()
    assert load_or_create(path).public_key == keys.public_key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "{}",
        '{"private_key": "%%%"}',
        '{"private_key": ""}',
        '{"private_key": 7}',
    ],
)
def test_a_broken_file_is_an_error_never_a_new_pair(tmp_path: Path, content: str) -> None:
    path = tmp_path / "vapid.json"
    path.write_text(content)
    with pytest.raises(VapidKeyError, match="cannot be read"):
        load_or_create(path)
    assert path.read_text() == content


def test_a_public_key_from_another_pair_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vapid.json"
    load_or_create(path)
    data = json.loads(path.read_text())
    data["public_key"] = VapidKeys.generate().public_key
    path.write_text(json.dumps(data))
    vapid._cache.clear()
    with pytest.raises(VapidKeyError, match="does not belong"):
        load_or_create(path)


def test_the_authorization_header_is_a_signed_rfc_8292_token() -> None:
    keys = VapidKeys.generate()
    header = keys.authorization("https://push.example.net", "mailto:room@example.org")
    claims, key = verify_vapid(header)
    assert key == keys.public_key
    assert claims["aud"] == "https://push.example.net"
    assert claims["sub"] == "mailto:room@example.org"


def test_a_raw_key_round_trips() -> None:
    keys = VapidKeys.generate()
    assert VapidKeys.from_raw(keys.private_raw).public_key == keys.public_key
