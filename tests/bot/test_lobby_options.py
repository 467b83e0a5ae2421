"""The lobby's menus, played through the real bot on the strict fake Discord: the host switches a game's flag
options (Viceroy's Times of Darkness modules) and the AI seats' level before Start; nobody else can, forged or
stale choices change nothing, and the game starts with what was chosen."""

from __future__ import annotations

from bot.ui import checks, lobby
from bot.ui.spec import Select
from engine.api import GameType, OptionSpec
from engine.viceroy.modules import CHOICES
from tests.bot.harness import open_lobby, running_table
from tests.bot.test_bot_interactions import last_ephemeral
from tests.bot.test_interaction_checks import button_row, forged, select_row


def _description(world, message) -> str:  # noqa: ANN001
    return world.messages[message.id].embeds[0]["description"]


def _menu(world, message, op: str) -> dict:  # noqa: ANN001
    current = world.messages[message.id]
    return next(c for c in current.iter_components() if str(c.get("custom_id", "")).endswith(":" + op))


async def _choose_modules_refused(table, user, message, values: list[str]) -> str:  # noqa: ANN001
    """``user`` picks ``values`` in the lobby's module menu; the choice must change no stored option. The
    bot's private answer."""
    await user.select(message, _menu(table.world, message, "opt.modules")["custom_id"], values)
    await table.settle()
    game = (await table.bot.service.list_games(statuses=("lobby",)))[0]
    assert not game.options.get("modules")
    return last_ephemeral(user)


async def test_the_host_switches_modules_on_in_the_lobby_and_the_game_plays_with_them(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann", "Bo"]) as table:
        ann, bo = table.users
        message = await open_lobby(table, ann, seats=2)
        menu = _menu(world, message, "opt.modules")
        # Every module the engine offers is in the menu, from the option spec: none chosen yet.
        assert [o["value"] for o in menu["options"]] == [v for v, _ in CHOICES]
        assert menu["min_values"] == 0 and menu["max_values"] == len(CHOICES)
        assert "Times of Darkness modules: none" in _description(world, message)
        await ann.select(message, menu["custom_id"], ["aristocrats", "darkness"])
        await table.settle()
        text = _description(world, message)
        assert "Times of Darkness modules: Domain cards, diamonds, revised laws, Aristocrats" in text
        chosen = [o["value"] for o in _menu(world, message, "opt.modules")["options"] if o.get("default")]
        assert chosen == ["darkness", "aristocrats"]
        game = (await table.bot.service.list_games(statuses=("lobby",)))[0]
        assert game.options["modules"] == ["darkness", "aristocrats"]  # stored in the spec's order

        rules = await bo.slash(table.channel, "viceroy rules")
        await table.settle()
        assert f"game #{game.id} plays with" in rules.reply.content
        assert "Aristocrats" in rules.reply.content and "topic:darkness" in rules.reply.content

        await bo.click(message, label="Join")
        await table.settle()
        await ann.click(message, label="Start")
        await table.settle()
        game = await table.bot.service.game(game.id)
        assert game.status == "active" and game.options["modules"] == ["darkness", "aristocrats"]
        state = await table.bot.service.full_state(game.id)
        assert state["phase"] == "domain"  # the darkness module's domain cards come first
        tables = [m for m in table.channel.messages() for e in m.embeds
                  if (e.get("title") or "").startswith(f"Viceroy game #{game.id} ·")]
        assert tables and "Times of Darkness modules: Domain cards, diamonds, revised laws, Aristocrats" in \
            tables[-1].embeds[0]["description"]


async def test_only_the_host_changes_the_modules(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann", "Bo"]) as table:
        ann, bo = table.users
        message = await open_lobby(table, ann, seats=2)
        await bo.click(message, label="Join")
        await table.settle()
        before = _description(world, message)
        answer = await _choose_modules_refused(table, bo, message, ["duo"])
        assert "Only the host" in answer and "Times of Darkness modules" in answer
        assert _description(world, message) == before


async def test_a_module_the_table_cannot_play_is_refused_when_chosen(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann"]) as table:
        ann = table.users[0]
        message = await open_lobby(table, ann, seats=4)
        # The engine's own check (the revised two-player game is for 1-2 players), and nothing changed.
        assert "for 1 or 2 players" in await _choose_modules_refused(table, ann, message, ["duo", "darkness"])
        assert "Times of Darkness modules: none" in _description(world, message)


async def test_modules_from_the_command_that_do_not_fit_are_refused_at_start(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann"]) as table:
        ann = table.users[0]
        message = await open_lobby(table, ann, seats=3, ai=2, ai_level="easy", modules="duo")
        start = await ann.click(message, label="Start")
        await table.settle()
        assert start.ephemeral and "for 1 or 2 players" in start.reply.content
        assert (await table.bot.service.list_games(statuses=("lobby",)))[0].status == "lobby"
        # The host mends it in the lobby's menu and starts.
        await ann.select(message, _menu(world, message, "opt.modules")["custom_id"], ["darkness"])
        await table.settle()
        await ann.click(message, label="Start")
        await table.settle()
        game = (await table.bot.service.list_games(statuses=("active",)))[0]
        assert game.options["modules"] == ["darkness"]


async def test_forged_and_stale_lobby_choices_change_nothing(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann"]) as table:
        ann = table.users[0]
        message = await open_lobby(table, ann, seats=2, ai=1, ai_level="easy")
        game = (await table.bot.service.list_games(statuses=("lobby",)))[0]
        menu_id = _menu(world, message, "opt.modules")["custom_id"]
        cases = [
            (select_row(menu_id, ["darkness", "no_such_module"]), checks.BAD_VALUE),
            (select_row(f"l:{game.id}:opt.no_such_option", ["darkness"]), lobby.UNKNOWN_OPTION),
            (select_row(f"l:{game.id}:{lobby.AI_LEVEL_OP}", ["brilliant"]), checks.BAD_VALUE),
            (button_row(menu_id), checks.UNKNOWN_CONTROL),
        ]
        for components, expected in cases:
            fake = forged(world, table.channel, components)
            comp = fake.iter_components()[0]
            if comp["type"] == 2:
                await ann.click(fake, custom_id=comp["custom_id"])
            else:
                await ann.select(fake, comp["custom_id"], [o["value"] for o in comp["options"]])
            await table.settle()
            assert last_ephemeral(ann) == expected
        info = await table.bot.service.game(game.id)
        assert not info.options.get("modules") and info.seats[1].ai_level == "easy"
        await ann.click(message, label="Start")
        await table.settle()
        # The lobby's menus are gone with its buttons; an old copy of one now answers that the game started.
        assert not world.messages[message.id].iter_components()
        stale = forged(world, table.channel, select_row(menu_id, ["aristocrats"]))
        await ann.select(stale, menu_id, ["aristocrats"])
        await table.settle()
        assert last_ephemeral(ann) == lobby.NOT_IN_LOBBY
        assert not (await table.bot.service.game(game.id)).options.get("modules")


async def test_the_host_chooses_the_ai_level_in_the_lobby(fake_discord, tmp_path):
    world = fake_discord
    async with running_table(world, tmp_path, ["Ann", "Bo"]) as table:
        ann, bo = table.users
        message = await open_lobby(table, ann, seats=4)
        with_no_ai = [c.get("custom_id") for c in world.messages[message.id].iter_components()]
        assert not any(str(c).endswith(lobby.AI_LEVEL_OP) for c in with_no_ai)  # no AI seat: no level menu
        await ann.click(message, label="Add AI")
        await table.settle()
        assert "• AI 1 (normal) (AI)" in _description(world, message)  # normal unless the host says otherwise
        menu = _menu(world, message, lobby.AI_LEVEL_OP)
        assert [o["value"] for o in menu["options"]] == ["easy", "normal", "hard"]
        assert [o["value"] for o in menu["options"] if o.get("default")] == ["normal"]
        await ann.select(message, menu["custom_id"], ["hard"])
        await table.settle()
        await ann.click(message, label="Add AI")  # the next AI seat takes the lobby's level
        await table.settle()
        text = _description(world, message)
        assert "• AI 1 (hard) (AI)" in text and "• AI 2 (hard) (AI)" in text
        await bo.click(message, label="Join")
        await table.settle()
        await bo.select(message, menu["custom_id"], ["easy"])
        await table.settle()
        assert "Only the host" in last_ephemeral(bo)
        game = (await table.bot.service.list_games(statuses=("lobby",)))[0]
        assert [(s.display_name, s.ai_level) for s in game.seats if s.is_ai] == [("AI 1 (hard)", "hard"),
                                                                                ("AI 2 (hard)", "hard")]


def test_every_flag_option_of_a_game_type_gets_a_lobby_menu():
    """Generic: a game type with its own flag options gets menus from its specs alone."""
    game_type = GameType(name="other", display_name="Other", min_seats=2, max_seats=4, dynamics="sequential",
                         hidden_information=False, options=(
                             OptionSpec("variants", "Variants", "flags", [], choices=(("a", "Variant A"), ("b", "B"))),
                             OptionSpec("rounds", "Rounds", "int", 3, min=1, max=9),
                             OptionSpec("extras", "Extras", "flags", ["x"], choices=(("x", "X"), ("y", "Y"), ("z", "Z")))))
    rows = lobby.control_rows(7, game_type, {"variants": ["b"]}, seats=[])
    menus = [row[0] for row in rows]
    assert all(isinstance(m, Select) for m in menus)
    assert [m.custom_id for m in menus] == ["l:7:opt.variants", "l:7:opt.extras"]
    assert [[o.value for o in m.options if o.default] for m in menus] == [["b"], ["x"]]  # the default shows
    assert lobby.active_flags(game_type, {"variants": ["a", "b"], "extras": []}) == ["Variants: Variant A, B"]
    assert lobby.option_from_values(game_type.options[2], ["z", "x", "nope"]) == ["z", "x"]
