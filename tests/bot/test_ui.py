"""The generic UI toolkit without Discord: the control-id codec, drafts, texts and the sync plan."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui import ids, sync
from bot.ui.drafts import clear, fresh_draft, load_draft
from bot.ui.texts import split_text, timestamp

# ------------------------------------------------------------------------------------------ control ids


@settings(deadline=None)  # the machine is shared: no wall-clock limit per example
@given(game=st.integers(0, 10**12), seat=st.integers(0, 9),
       key=st.text(st.sampled_from("abcdefghij0123456789:_"), min_size=1, max_size=30),
       op=st.text(st.sampled_from("abcxyz_.0123456789-"), min_size=1, max_size=15))
def test_a_prompt_id_decodes_to_what_was_encoded(game, seat, key, op):
    text = ids.prompt_id(game, seat, key, op)
    control = ids.ControlId.decode(text)
    assert control == ids.ControlId("prompt", game, op, seat, ids.decode_key(ids.encode_key(key)))
    assert control.matches(key)


def test_ids_written_by_earlier_versions_still_decode():
    assert ids.ControlId.decode("vg:12:1:auction.3.2:choose") == ids.ControlId("prompt", 12, "choose", 1, "auction:3:2")
    assert ids.ControlId.decode("vs:12:0:setup.0.0:start") == ids.ControlId("prompt", 12, "start", 0, "setup:0:0")
    assert ids.ControlId.decode("vm:5:1:decide.gems.40:gems.decide").surface == "form"
    assert ids.ControlId.decode("vl:7:join") == ids.ControlId("lobby", 7, "join")
    assert ids.ControlId.decode("vc:7:screen") == ids.ControlId("table", 7, "screen")


def test_the_dynamic_item_templates_accept_old_and_new_ids():
    import re

    seated, unseated = re.compile(ids.SEATED_TEMPLATE), re.compile(ids.UNSEATED_TEMPLATE)
    for text in ("vg:1:0:k:op", "vs:1:0:k:op", ids.prompt_id(1, 0, "a:b", "gems.pass")):
        assert seated.fullmatch(text), text
    for text in ("vl:1:join", "vc:1:screen", ids.lobby_id(1, "start"), ids.table_id(1, "screen")):
        assert unseated.fullmatch(text), text
    assert ids.form_id(1, 0, "k", "gems.pass").startswith(ids.FORM_PREFIXES)


def test_unknown_ids_and_ids_over_the_limit():
    assert ids.ControlId.decode("floor:1") is None
    assert ids.ControlId.decode("vg:x:0:k:op") is None
    try:
        ids.prompt_id(1, 0, "k" * 100, "op")
    except ValueError:
        pass
    else:
        raise AssertionError("an id over Discord's limit was made")


# ------------------------------------------------------------------------------------- drafts and texts


def test_a_draft_of_an_older_prompt_is_not_used():
    assert load_draft('{"key": "old", "card": 3}', "new") == {"key": "new"}
    assert load_draft({"key": "k", "card": 3}, "k")["card"] == 3
    assert load_draft("not json", "k") == fresh_draft("k")
    draft = {"key": "k", "card": 3, "slot": "1:0"}
    clear(draft)
    assert draft == {"key": "k"}


@settings(deadline=None)
@given(st.lists(st.text(max_size=300), max_size=40))
def test_split_text_keeps_every_line_within_the_limit(lines):
    chunks = split_text(lines, limit=500)
    assert all(0 < len(c) <= 500 for c in chunks)
    assert "\n".join(chunks).replace("\n", "") == "".join(line[:500] for line in lines).replace("\n", "")


def test_discord_timestamps():
    assert timestamp(1_800_000_000.5) == "<t:1800000000:R>"
    assert timestamp(None) == "no time limit"


# -------------------------------------------------------------------------------------------- sync plan


@dataclass
class Rec:
    id: int
    seat: int | None
    purpose: str
    prompt_key: str | None
    message_id: int = 1
    channel_id: int = 1


def seat(n: int, key: str | None, waiting: bool = True, **kw) -> sync.SeatState:
    return sync.SeatState(n, 100 + n, kw.get("is_ai", False), kw.get("dm_closed", False), key, waiting,
                          kw.get("screen"))


def test_sealed_games_prompt_every_waiting_seat_without_an_open_prompt():
    seats = [seat(0, "a:1"), seat(1, "a:1"), seat(2, "a:1", waiting=False)]
    messages = [Rec(1, 1, "prompt", "a:1")]
    todo = sync.plan(seats, messages, dynamics="sealed", hidden_information=False, table_key="t")
    assert [s.seat for s in todo.send] == [0]
    assert todo.close == [] and todo.table_post


def test_sequential_games_prompt_only_the_seat_whose_turn_it_is():
    seats = [seat(0, None, waiting=False), seat(1, "turn:3"), seat(2, "turn:3")]
    todo = sync.plan(seats, [], dynamics="sequential", hidden_information=False, table_key="t")
    assert [s.seat for s in todo.send] == [1]


def test_stale_prompts_and_pings_close_and_ai_seats_get_nothing():
    seats = [seat(0, "b:2"), seat(1, "b:2", is_ai=True)]
    messages = [Rec(1, 0, "prompt", "a:1"), Rec(2, 0, "ping", "a:1"), Rec(3, None, "status", "t")]
    todo = sync.plan(seats, messages, dynamics="sealed", hidden_information=False, table_key="t")
    assert [m.id for m in todo.close] == [1, 2]
    assert [s.seat for s in todo.send] == [0]
    assert todo.table_edit is messages[2] and not todo.table_post


def test_screens_only_for_hidden_information_and_only_when_they_change():
    seats = [seat(0, "k", screen="s1"), seat(1, "k", screen="s2"), seat(2, "k", screen="s3", dm_closed=True)]
    messages = [Rec(1, 0, "screen", "s1"), Rec(2, 1, "screen", "old")]
    todo = sync.plan(seats, messages, dynamics="sealed", hidden_information=True, table_key=None)
    assert [(s.seat, old.id if old else None) for s, old in todo.screens] == [(1, 2)]
    todo = sync.plan(seats, messages, dynamics="sealed", hidden_information=False, table_key=None)
    assert todo.screens == []


def test_a_new_table_key_posts_a_new_table_message_and_retires_the_old():
    messages = [Rec(1, None, "status", "auction:1")]
    todo = sync.plan([seat(0, "k")], messages, dynamics="sealed", hidden_information=False, table_key="development:1")
    assert todo.table_post and todo.table_retire == messages


def test_the_plan_is_idempotent_once_carried_out():
    seats = [seat(0, "k", screen="s"), seat(1, "k", screen="s")]
    first = sync.plan(seats, [], dynamics="sealed", hidden_information=True, table_key="t")
    done = [Rec(i + 1, s.seat, "prompt", s.prompt_key) for i, s in enumerate(first.send)]
    done += [Rec(10 + s.seat, s.seat, "screen", s.screen_key) for s, _ in first.screens]
    done.append(Rec(20, None, "status", "t"))
    again = sync.plan(seats, done, dynamics="sealed", hidden_information=True, table_key="t")
    assert again.send == [] and again.close == [] and again.screens == [] and not again.table_post


def test_a_finished_game_closes_every_prompt():
    messages = [Rec(1, 0, "prompt", "k"), Rec(2, None, "status", "t")]
    todo = sync.plan([seat(0, "k")], messages, dynamics="sealed", hidden_information=True, table_key="t",
                     active=False)
    assert [m.id for m in todo.close] == [1] and not todo.send and not todo.table_post


# --------------------------------------------------------------------------------- presenter defaults


def _table(dynamics: str, hidden: bool):
    from bot.ui.presenter import BasePresenter, TableCtx, Waiting
    from engine.api import GameType

    class Plain(BasePresenter):
        name, display_name = "plain", "Plain"

    game_type = GameType("plain", "Plain", 2, 4, dynamics, hidden)  # type: ignore[arg-type]
    ctx = TableCtx(3, game_type, {"phase": "play"}, {0: "Ann", 1: "Bo"},
                   [Waiting(0, "Ann", None, False), Waiting(1, "Bo", 1_800_000_000.0, True)])
    return Plain().table(ctx, with_image=True)


def test_the_table_message_of_a_sequential_game_names_whose_turn_it_is():
    spec = _table("sequential", False)
    assert spec.description == "Turn: **Bo** (<t:1800000000:R>)"
    assert spec.title == "Plain game #3" and spec.image is None
    assert spec.rows[0][0].custom_id == ids.table_id(3, "screen")


def test_the_table_message_of_a_sealed_game_lists_who_still_owes_a_choice():
    spec = _table("sealed", True)
    assert spec.description == "Waiting for: Bo (<t:1800000000:R>)"
    assert "secret screen" in spec.footer


def test_default_lobby_lines_and_score_sheet_come_from_the_contract():
    from bot.ui.presenter import BasePresenter
    from engine.api import GameType, OptionSpec, Outcome, SeatResult

    class Plain(BasePresenter):
        name, display_name = "plain", "Plain"

    game_type = GameType("plain", "Plain", 1, 4, "sealed", False,
                         (OptionSpec("deal", "Deal", "choice", 4, ((4, "4 cards"), (2, "2 cards"))),
                          OptionSpec("rounds", "Rounds", "int", 3, min=1, max=9)))
    assert Plain().lobby_lines(game_type, {"deal": 2}) == ["Deal: 2 cards · Rounds: 3"]
    outcome = Outcome((SeatResult(0, 10, False, (("Gold", 10),), 2), SeatResult(1, 12, True, (("Gold", 12),), 1)))
    (sheet,) = Plain().final(5, outcome, {}, {0: "Ann", 1: "Bo"})
    assert sheet.title == "Plain game #5: final scores"
    assert sheet.description.splitlines() == ["**Bo**: 12 🏆 (Gold 12)", "**Ann**: 10 (Gold 10)"]


def test_a_menu_never_repeats_an_option_value():
    from bot.ui.presenter import SeatCtx
    from bot.ui.spec import Option

    ctx = SeatCtx.__new__(SeatCtx)
    ctx.control_id = lambda op: f"p:1:0:k:{op}"  # type: ignore[method-assign]
    menu = ctx.select("slot", "Where", [Option("A", "1:0"), Option("A again", "1:0"), Option("B", "1:1")])
    assert [o.value for o in menu.options] == ["1:0", "1:1"] and menu.options[0].label == "A"
