"""SQLite: a submission is one call on the database thread (BEGIN IMMEDIATE, the key check, the game load,
the engine's work, the writes and COMMIT), and the prefetched load is never served after a write.  The snapshot codec reads what the
json module wrote and falls back to it for what the fast encoder refuses."""

from __future__ import annotations

import hashlib
import itertools
import json
import zlib

import lz4.frame
import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import CorruptSnapshot, Storage, decode_state, encode_state
from bot.storage.schema import json_bytes
from tests.service.conftest import started_game
from tests.storage.old_schema import zlib_snapshot


async def _sqlite_service(tmp_path):
    storage = await Storage.open(tmp_path / "rt.db")
    seeds = itertools.count(1)
    return storage, GameService(storage, clock=ManualClock(1_800_000_000.0), seed_source=lambda: next(seeds))


def _count_calls(storage) -> list[int]:
    calls = [0]
    submit = storage._submit

    def counted(fn):
        calls[0] += 1
        return submit(fn)

    storage._submit = counted
    return calls


async def test_a_submission_is_one_call_on_the_database_thread(tmp_path):
    storage, service = await _sqlite_service(tmp_path)
    try:
        gid, start = await started_game(service, humans=2)
        calls = _count_calls(storage)
        card = start.pending[0].prompt.choices["options"][0]
        result = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="once")
        assert not result.duplicate
        assert calls[0] == 1
        again = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="once")
        assert again.duplicate and again.version == result.version
        assert calls[0] == 2
    finally:
        await storage.close()


async def test_the_prefetched_load_is_dropped_after_a_write(tmp_path):
    storage, service = await _sqlite_service(tmp_path)
    try:
        gid, _ = await started_game(service, humans=2)
        async with storage.transaction() as tx:
            await tx.lock_game(gid)
            assert await tx.action_by_key("nobody-used-this") is None
            await tx.update_game(gid, 1.0, version=77)
            bundle = await tx.load_game(gid)
            assert bundle.game.version == 77  # read again, not the bundle from before the write
        async with storage.transaction() as tx:
            await tx.lock_game(gid)
            assert await tx.action_by_key("nobody-used-this") is None
            other = await tx.load_game(gid + 1000)  # another game than the one locked: a real read
            assert other is None
    finally:
        await storage.close()


def test_snapshots_written_by_the_json_module_still_decode():
    state = {"seed": 7, "log": [{"type": "x", "text": "é"}], "deck": [3, 1, 2], "f": 0.1, "big": 2**40}
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    assert decode_state(zlib.compress(raw, 6), hashlib.sha256(raw).hexdigest()[:32]) == state
    blob, checksum = encode_state(state)
    assert decode_state(blob, checksum) == state
    assert list(decode_state(blob, checksum)) == list(state)  # key order kept: engines iterate dicts


def test_the_snapshot_checksum_catches_a_damaged_or_swapped_blob():
    state = {"seed": 7, "log": 3, "deck": list(range(200)), "text": "é" * 50}
    blob, checksum = encode_state(state)
    assert checksum.startswith("x") and len(checksum) == 9  # the frame's own xxHash32, not a second hash
    other, other_checksum = encode_state({**state, "seed": 8})
    with pytest.raises(CorruptSnapshot, match="checksum"):
        decode_state(other, checksum)  # a valid stream, but not this row's
    with pytest.raises(CorruptSnapshot, match="checksum"):
        decode_state(blob, "x0000")
    with pytest.raises(CorruptSnapshot):
        decode_state(blob, "z" + checksum[1:])  # an LZ4 frame read as a zlib stream: refused
    for i in range(2, len(blob) - 4, 7):  # a flipped byte inside the stream: refused, never a wrong state
        damaged = blob[:i] + bytes([blob[i] ^ 0x20]) + blob[i + 1:]
        with pytest.raises(CorruptSnapshot):
            decode_state(damaged, checksum)
    with pytest.raises(CorruptSnapshot, match="checksum"):
        decode_state(zlib.compress(json.dumps(state).encode()), "0" * 32)  # an old-format row, wrong sha256


def test_snapshots_written_as_zlib_streams_still_decode_and_are_still_checked():
    state = {"seed": 7, "log": 3, "deck": list(range(200)), "text": "é" * 50}
    blob, checksum = zlib_snapshot(state)
    assert decode_state(blob, checksum) == state
    assert list(decode_state(blob, checksum)) == list(state)
    with pytest.raises(CorruptSnapshot, match="checksum"):
        decode_state(zlib_snapshot({**state, "seed": 8})[0], checksum)
    for i in range(2, len(blob) - 4, 7):
        damaged = blob[:i] + bytes([blob[i] ^ 0x20]) + blob[i + 1:]
        with pytest.raises(CorruptSnapshot):
            decode_state(damaged, checksum)


def test_a_snapshot_is_an_lz4_frame_that_carries_its_own_checksum():
    state = {"seed": 7, "log": 3, "players": [{"gems": {"red": 1, "blue": 2}, "hand": [3, 1]}] * 40}
    blob, checksum = encode_state(state)
    assert lz4.frame.get_frame_info(blob)["content_checksum"]
    assert checksum == "x" + blob[-4:].hex()
    assert len(blob) < len(json_bytes(state)) / 4  # repeated structure, as a game's state is


def test_what_the_fast_encoder_refuses_is_written_by_the_json_module():
    huge = {"n": 2**70, "k": {1: "int key"}}
    assert json.loads(json_bytes(huge)) == {"n": 2**70, "k": {"1": "int key"}}
