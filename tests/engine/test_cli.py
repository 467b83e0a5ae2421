"""The engine command line: simulate and replay (run as subprocesses, as a user would)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.viceroy import replay, view
from engine.viceroy.ai import play_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.viceroy", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_simulate_prints_one_json_line_per_game() -> None:
    result = run("simulate", "--games", "3", "--players", "2", "--seed", "40")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["seed"] for g in lines] == [40, 41, 42]
    for game in lines:
        assert set(game) == {"seed", "turns", "actions", "scores", "winner"}
        assert game["turns"] == 12
        state, actions = play_game({"players": 2, "virtual_opponents": 0, "deal": 4}, game["seed"])
        assert game["actions"] == len(actions)
        assert [s["total"] for s in game["scores"]] == [s["total"] for s in state["scores"]]
        best = max(s["total"] for s in game["scores"])
        assert game["winner"] == [s["seat"] for s in game["scores"] if s["total"] == best]
        for s in game["scores"]:
            assert s["total"] == sum(s["breakdown"].values())


def test_simulate_solo_two_card_deal_with_virtual_opponents() -> None:
    solo = run("simulate", "--games", "1", "--players", "1", "--seed", "3", "--deal", "2")
    assert solo.returncode == 0, solo.stderr
    assert len(json.loads(solo.stdout)["scores"]) == 1
    virtual = run("simulate", "--games", "1", "--players", "2", "--seed", "3", "--virtual", "2")
    assert virtual.returncode == 0, virtual.stderr
    assert len(json.loads(virtual.stdout)["scores"]) == 2


def test_simulate_rejects_bad_options() -> None:
    result = run("simulate", "--players", "3", "--virtual", "2")
    assert result.returncode != 0 and "Virtual opponents" in result.stderr
    assert run("simulate", "--players", "5").returncode != 0


def test_simulate_record_dir_and_replay(tmp_path: Path) -> None:
    result = run("simulate", "--games", "2", "--players", "3", "--seed", "9", "--virtual", "1", "--record-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["viceroy-10.json", "viceroy-9.json"]
    record_path = tmp_path / "viceroy-9.json"
    record = json.loads(record_path.read_text())
    assert record["seed"] == 9 and len(record["seats"]) == 3
    assert record["options"]["virtual_opponents"] == 1
    assert len(record["actions"]) == lines[0]["actions"]

    replayed = run("replay", str(record_path))
    assert replayed.returncode == 0, replayed.stderr
    out = json.loads(replayed.stdout)
    state = replay(record)
    assert out["view"] == json.loads(json.dumps(view(state, None)))
    assert [s["total"] for s in out["scores"]] == [s["total"] for s in lines[0]["scores"]]
    assert out["view"]["phase"] == "over"


def test_replay_reports_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "viceroy", "options": {"players": 2}, "seed": 1, "seats": ["a", "b"],
                                "actions": [{"seat": 0, "action": {"type": "bid", "color": "red"}}]}))
    result = run("replay", str(path))
    assert result.returncode == 2 and "illegal" in result.stderr
    assert run("replay", str(tmp_path / "missing.json")).returncode == 2
