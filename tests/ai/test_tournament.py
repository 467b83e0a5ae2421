"""The tournament command: seat rotation, win rates with Wilson intervals, Elo, times per decision."""

from __future__ import annotations

import json

import pytest

from engine.tournament import fit_elo, format_report, main, percentile, run, wilson
from tests.ai import toy


def test_wilson_interval_contains_the_rate_and_narrows_with_games() -> None:
    low, high = wilson(6, 10)
    assert low < 0.6 < high
    low2, high2 = wilson(60, 100)
    assert low < low2 < 0.6 < high2 < high
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_elo_is_even_for_even_results_and_higher_for_the_winner() -> None:
    even = fit_elo([("a", "b", 1.0), ("a", "b", 0.0)], ["a", "b"], "a")
    assert even == {"a": 1000.0, "b": 1000.0}
    rated = fit_elo([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)], ["a", "b"], "b")
    assert rated["b"] == 1000.0 and rated["a"] > 1100


def test_percentile() -> None:
    values = [float(i) for i in range(1, 101)]
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.99) == 0.0


def test_seats_rotate_and_every_game_is_counted() -> None:
    report = run(toy.GAME, ["hard", "easy"], games=6, budgets={"hard": 40})
    assert report.levels["hard"].seats == 6 and report.levels["easy"].seats == 6
    assert report.levels["hard"].wins + report.levels["easy"].wins == pytest.approx(6)
    assert report.levels["hard"].wins >= 5  # perfect play from either seat of a solved game
    assert report.elo["hard"] > report.elo["easy"] == 1000.0
    assert len(report.levels["hard"].times) > 0
    text = format_report(report)
    assert "hard" in text and "95% CI" in text and "p99" in text


def test_command_line_on_viceroy_writes_a_report(tmp_path, capsys) -> None:
    out = tmp_path / "report.json"
    assert main(["--game", "viceroy", "--levels", "easy", "--seats", "2", "--games", "2", "--quiet",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "viceroy: 2 games, 2 seats" in printed
    data = json.loads(out.read_text())
    assert data["levels"]["easy"]["seats"] == 4
    assert data["levels"]["easy"]["wins"] == pytest.approx(2)


def test_command_line_refuses_an_unknown_level() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--levels", "easy,grandmaster"])
    assert exc.value.code == 2


def test_command_line_refuses_an_unknown_game(capsys) -> None:
    assert main(["--game", "no_such_game", "--games", "1", "--quiet"]) == 2
    assert "error" in capsys.readouterr().err
