"""SIGKILLed at random moments during a game, the bot shows every public line once, in order, and one score sheet."""

from __future__ import annotations

import subprocess
import sys

from tests.bot.harness import ROOT, new_table
from tests.bot.killing import kill_games


async def test_random_sigkills_lose_and_double_no_public_line(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    report = await kill_games(world, table, kills=4, seed=17, per_game=4)
    assert report.kills == 4 and report.games >= 1
    assert report.lines > 0
    assert (report.lost, report.doubled, report.out_of_order) == (0, 0, 0), report
    assert report.sheets == [1] * report.games, report
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
