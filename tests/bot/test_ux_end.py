"""The end of a game: one final post, a private result for each player, no screen button left."""

from __future__ import annotations

import pytest

import tests.service.toygame as toygame
from bot.autoplay import any_control
from bot.presenters import register_presenter
from bot.ui.presenter import BasePresenter
from engine.api import Outcome, SeatResult
from tests.bot.harness import new_table, play_out, start_game
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)


def test_the_result_message_gives_place_total_rows_and_winner():
    p = BasePresenter()
    p.display_name = "Toy"
    outcome = Outcome((SeatResult(0, 12, True, (("Rounds", 10), ("Bonus", 2)), rank=1),
                       SeatResult(1, 7, False, (("Rounds", 7),), rank=2)), reason="Three rounds played.")
    text = p.result_dm(4, outcome, 1, {0: "Ann", 1: "Bo"})
    assert "Toy game #4 is over: you finished **2nd** of 2 with a score of **7**." in text
    assert "• Rounds: 7" in text and "Won by Ann." in text and "Three rounds played." in text
    winner = p.result_dm(4, outcome, 0, {0: "Ann", 1: "Bo"})
    assert "**1st**" in winner and "🏆" in winner and "• Bonus: 2" in winner and "Won by" not in winner
    tie = Outcome((SeatResult(0, 5, True, rank=1), SeatResult(1, 5, True, rank=1)))
    assert "**1st (tied)**" in p.result_dm(1, tie, 1, {})
    unranked = Outcome((SeatResult(0, 3, False), SeatResult(1, 9, True)))
    assert "**2nd**" in p.result_dm(1, unranked, 0, {})


async def test_a_finished_game_posts_once_dms_results_and_leaves_no_screen_button(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, "toy", seats=3, rounds=2, ai=1, ai_level="normal")
        await table.settle()
        await play_out(table, [ann, bo], strategy=any_control)
        finals = [m for m in table.channel.messages() for e in m.embeds if "final scores" in (e.get("title") or "")]
        assert len(finals) == 1, "the final score sheet is posted once"
        assert not any(c.get("label") == "My screen" for m in table.channel.messages() for c in m.buttons())
        # The table message above the sheet no longer says whom the game waits for: it says it is over.
        tables = [m for m in table.channel.messages() if m.embeds and m.id != finals[0].id
                  and "game #1" in (m.embeds[0].get("title") or "")]
        assert tables and tables[-1].embeds[0].get("description", "").startswith("The game is over")
        scores = {s["seat"]: s for s in await table.bot.service.final_scores(1)}
        seats = {s.user_id: s.seat for s in (await table.bot.service.game(1)).seats}
        for user in (ann, bo):
            seat = seats[user.id]
            results = [m.content for m in user.dms() if "is over: you finished" in (m.content or "")]
            assert len(results) == 1, f"{user.name} gets one result message"
            assert f"with a score of **{scores[seat]['total']}**" in results[0]
            link = f"Final scores: https://discord.com/channels/{table.guild.id}/{table.channel.id}/{finals[0].id}"
            assert link in results[0]
    finally:
        await table.stop_bot()


def test_the_score_sheet_and_results_say_why_the_game_ended_once_as_a_sentence():
    p = BasePresenter()
    p.display_name = "Toy"
    names = {0: "Ann", 1: "Bo"}
    plain = Outcome((SeatResult(0, 12, True, rank=1), SeatResult(1, 7, False, rank=2)), reason="twelve turns played")
    assert "The game ended: twelve turns played." in p.final(4, plain, {}, names)[0].description.splitlines()
    assert "The game ended: twelve turns played." in p.result_dm(4, plain, 1, names).splitlines()
    # The winner's note already names the ending: the sheet and the winner's result do not repeat it.
    noted = Outcome((SeatResult(0, 19, True, rank=1, note="won with 10 prestige points in one colour"),
                     SeatResult(1, 7, False, rank=2)), reason="10 prestige points in one colour")
    sheet = p.final(4, noted, {}, names)[0].description
    assert sheet.count("10 prestige points in one colour") == 1
    assert p.result_dm(4, noted, 0, names).count("10 prestige points in one colour") == 1
    assert "The game ended: 10 prestige points in one colour." in p.result_dm(4, noted, 1, names).splitlines()


def test_the_summary_counts_points_in_words():
    p = BasePresenter()
    names = {0: "Ann", 1: "Bo"}
    close = Outcome((SeatResult(0, 8, True, rank=1), SeatResult(1, 7, False, rank=2)))
    assert p.summary_line(close, names) == "Ann wins with 8 points, 1 point ahead of the next player."
    assert "with a score of **7**." in p.result_dm(1, close, 1, names)
