"""The game is remembered: the score sheet offers a rematch (same seats and options); status, log and show
find the finished game; history, stats and export describe a server's finished games."""

from __future__ import annotations

import json

import pytest

import tests.service.toygame as toygame
from bot.autoplay import any_control
from bot.presenters import register_presenter
from bot.ui.history import PlayerStats, stats_table, stats_text
from tests.bot.harness import new_table, play_out, start_game
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    register_presenter(PRESENTER)


async def finished_game(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    ann, bo = table.users
    await start_game(table, "toy", seats=3, rounds=2, ai=1, ai_level="normal")
    await table.settle()
    await play_out(table, [ann, bo], strategy=any_control)
    return table


async def test_a_finished_game_stays_viewable_and_is_counted(fake_discord, tmp_path):
    table = await finished_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        scores = {s["seat"]: s for s in await table.bot.service.final_scores(1)}
        rec = await ann.slash(table.channel, "toy status")
        await table.settle()
        assert "The game is over" in rec.messages[-1].embeds[0]["description"]
        rec = await bo.slash(table.channel, "toy log", game=1)
        assert rec.ephemeral and "Nothing has happened" not in rec.reply.content
        rec = await ann.slash(table.channel, "toy history")
        assert rec.ephemeral and "**#1**" in rec.reply.content and "🏆" in rec.reply.content
        rec = await ann.slash(table.channel, "toy stats")
        await table.settle()
        board = rec.messages[-1].content
        assert "leaderboard" in board and "**Ann**" in board and "**Bo**" in board and "AI" not in board
        rec = await ann.slash(table.channel, "toy stats", player=bo)
        await table.settle()
        bo_seat = next(s.seat for s in (await table.bot.service.game(1)).seats if s.user_id == bo.id)
        assert f"best {scores[bo_seat]['total']}" in rec.messages[-1].content
        rec = await bo.slash(table.channel, "toy export", game=1)
        record = json.loads(rec.reply.file("toy-1.json"))
        state = toygame.KIND.replay(record)
        assert toygame.KIND.final_scores(state) == await table.bot.service.final_scores(1)
    finally:
        await table.stop_bot()


async def test_rematch_opens_a_lobby_with_the_same_seats_and_options(fake_discord, tmp_path):
    table = await finished_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        final = next(m for m in table.channel.messages() for e in m.embeds if "final scores" in (e.get("title") or ""))
        assert [c["label"] for c in final.buttons()] == ["Rematch"]
        await bo.click(final, label="Rematch")
        await table.settle()
        info = await table.bot.service.game_in_channel(table.channel.id)
        old = await table.bot.service.game(1)
        assert info.status == "lobby" and info.id != 1 and info.host_user_id == bo.id
        assert [(s.user_id, s.display_name, s.is_ai) for s in info.seats] == \
            [(bo.id, "Bo", False), (ann.id, "Ann", False), (None, next(s.display_name for s in old.seats if s.is_ai), True)]
        assert info.options["rounds"] == old.options["rounds"] and info.options["seats"] == 3
        lobby = table.channel.messages()[-1]
        await bo.click(lobby, label="Start")
        await table.settle()
        assert (await table.bot.service.game(info.id)).status == "active"
        rec = await bo.slash(table.channel, "toy export")
        await table.settle()
        assert rec.ephemeral and "Only a finished game" in rec.reply.content and not rec.reply.filenames
        # A second press makes no second lobby: the channel is busy.
        rec = await ann.click(final, label="Rematch")
        await table.settle()
        assert rec.ephemeral and "already has an open" in rec.reply.content
    finally:
        await table.stop_bot()


def test_stats_rank_by_wins_then_average():
    class Seat:
        def __init__(self, seat, user, name, ai=False):
            self.seat, self.user_id, self.display_name, self.is_ai = seat, user, name, ai

    class Info:
        def __init__(self, seats):
            self.seats = seats

    seats = [Seat(0, 1, "Ann"), Seat(1, 2, "Bo"), Seat(2, None, "AI 1", True)]
    results = [(Info(seats), [{"seat": 0, "total": 10, "winner": True}, {"seat": 1, "total": 8, "winner": False},
                              {"seat": 2, "total": 30, "winner": False}]),
               (Info(seats), [{"seat": 0, "total": 5, "winner": False}, {"seat": 1, "total": 9, "winner": True}])]
    table = stats_table(results)
    assert [p.name for p in table] == ["Bo", "Ann"]  # one win each; Bo's average 8.5 beats 7.5
    assert table[0] == PlayerStats(2, "Bo", 2, 1, 17, 9)
    assert "place 2 of 2" in stats_text("Toy", table, 1)
    assert "not finished" in stats_text("Toy", table, 3, "Cy")


def test_the_score_sheet_summary_says_who_won_by_how_much():
    from bot.ui.presenter import BasePresenter
    from engine.api import Outcome, SeatResult

    p = BasePresenter()
    names = {0: "Ann", 1: "Bo"}
    assert p.summary_line(Outcome((SeatResult(0, 74, True, rank=1), SeatResult(1, 61, False, rank=2))), names) == \
        "Ann wins with 74 points, 13 points ahead of the next player."
    assert p.summary_line(Outcome((SeatResult(0, 5, True, rank=1), SeatResult(1, 5, True, rank=1))), names) == \
        "Ann and Bo share the victory with 5 points."
