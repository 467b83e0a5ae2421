"""A rematch of a finished Viceroy game: a lobby with the same seats and options that starts again."""

from __future__ import annotations

from bot.service import NotAllowed, NotInGame
from engine.viceroy import GAME


async def test_a_viceroy_rematch_keeps_seats_and_options_and_starts(service):
    game = await service.create_lobby(1, 10, 100, "Ann", kind="viceroy", options={"seats": 2, "deal": 2})
    await service.add_ai(game.id, 100, "Robo")
    await service.start(game.id, 100, seed=3)
    for step in range(400):  # Ann plays the engine's default move until the end
        pending = await service.pending(game.id)
        if (await service.game(game.id)).status == "finished":
            break
        state = await service.full_state(game.id)
        await service.submit(game.id, 100, GAME.default_action(state, 0), idempotency_key=f"k{step}",
                             prompt_key=pending[0].prompt_key)
    old = await service.game(game.id)
    assert old.status == "finished"
    try:
        await service.rematch(game.id, 999)
        raise AssertionError("a stranger asked for a rematch")
    except NotInGame:
        pass
    new = await service.rematch(game.id, 100)
    assert [(s.user_id, s.display_name, s.is_ai) for s in new.seats] == [(100, "Ann", False), (None, "Robo", True)]
    assert new.options["deal"] == 2 and new.channel_id == 10
    result = await service.start(new.id, 100, seed=4)
    assert result.status == "active"
    try:
        await service.rematch(new.id, 100)
        raise AssertionError("a rematch of a running game")
    except NotAllowed:
        pass
