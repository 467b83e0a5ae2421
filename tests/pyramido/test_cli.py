"""The engine's command line: simulated games print one JSON line each; a written record replays."""

from __future__ import annotations

import json

from engine.pyramido.__main__ import main


def test_simulate_prints_a_line_per_game_and_records_replay(tmp_path, capsys):
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "5", "--record-dir", str(tmp_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    assert all(len(line["scores"]) == 3 and line["winner"] for line in lines)
    assert main(["replay", str(tmp_path / "pyramido-5.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True
    assert [r["total"] for r in out["outcome"]["results"]] == [s["total"] for s in lines[0]["scores"]]


def test_replay_of_a_broken_record_says_why(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"options": {}, "seed": 1, "seats": 2,
                                "actions": [[1, {"type": "place", "domino": 0, "at": [0, 0], "dir": "E"}]]}))
    assert main(["replay", str(path)]) == 2
    assert "does not replay" in capsys.readouterr().err
