"""The Underworld prompts without Discord: what a seat is offered, and that the clicks make legal actions."""

from __future__ import annotations

import io
import random

from PIL import Image

import engine.viceroy as V
from bot.presenters.viceroy import PRESENTER
from bot.presenters.viceroy.common import describe_action
from bot.ui.drafts import fresh_draft
from bot.ui.presenter import SeatCtx
from bot.ui.spec import MessageSpec, Select
from engine.viceroy.modules.criminals import token_text
from rendering import render_pyramid, render_screen, render_table
from tests.underworld.helpers import ROW, decide, dev_game, ext, give_tokens, kind_ids, play, stack_reserve

SMUGGLER, FENCE, FORGER, INFORMER = 130, 131, 132, 133


def _ctx(state: dict, seat: int = 0) -> SeatCtx:
    return SeatCtx(7, seat, "viceroy", V.view(state, seat), V.GAME.pending(state)[seat], {0: "Ann", 1: "Bo"})


def _render(state: dict, draft: dict, seat: int = 0) -> MessageSpec:
    ctx = _ctx(state, seat)
    return PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)


def _click(state: dict, draft: dict, op: str, values: list[str] | None = None, seat: int = 0) -> dict | None:
    ctx = _ctx(state, seat)
    return PRESENTER.prompt_kind(ctx.prompt).on_control(ctx, draft, op, values or [])


def _controls(spec: MessageSpec) -> dict[str, object]:
    return {c.custom_id.rsplit(":", 1)[1]: c for row in spec.rows for c in row}


def _image(spec: MessageSpec) -> Image.Image:
    return Image.open(io.BytesIO(spec.image.render()))


def test_criminal_play_with_its_line_on_the_lettered_level_0_places():
    state = dev_game(layout=ROW, cards=[FENCE])
    draft = fresh_draft(_ctx(state).key)
    spec = _render(state, draft)
    discard = _controls(spec).get("discard")
    assert discard is None or all("131" not in o.value for o in discard.options)  # criminals are not discarded
    _click(state, draft, "card", ["play:131"])
    spec = _render(state, draft)
    ctl = _controls(spec)
    assert [o.value for o in ctl["slot"].options] == ["0:1", "0:3"]
    assert [o.label.split(":")[0] for o in ctl["slot"].options] == ["A", "B"]
    assert len(ctl["opt"].options) == 3 and "2 judgement tokens" in ctl["opt"].options[0].label
    assert ctl["confirm"].disabled
    assert _image(spec).height > 0
    _click(state, draft, "slot", ["0:3"])
    _click(state, draft, "opt", ["0"])  # top line: 1 gem
    spec = _render(state, draft)
    assert not _controls(spec)["confirm"].disabled and "Reward gems" in spec.description
    action = _click(state, draft, "confirm")
    assert action["type"] == "play" and action["line"] == 0 and action["slot"] == "0:3"
    assert sum(action["reward"]["gems"].values()) == 1
    V.apply_action(state, 0, action)
    assert state["decision"]["kind"] == "judgement_return"
    assert describe_action(action) == "play #131 Fence on level 0, top line"


def test_judgement_return_prompt_names_only_the_tokens_just_taken():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    pp3 = kind_ids("pp", value=3)[0]
    none = kind_ids("none")[0]
    stack_reserve(state, [none, pp3])
    play(state, SMUGGLER, "0:1", 0)
    spec = _render(state, {})
    pick = _controls(spec)["pick"]
    assert [o.label for o in pick.options] == [token_text(pp3), token_text(none)]  # the worst first
    action = _click(state, {}, "pick", [pick.options[0].value])
    assert action == {"type": "decide", "token": pp3}
    V.apply_action(state, 0, action)
    assert ext(state)["held"][0] == [none]


def test_judgement_discard_prompt_takes_that_many():
    state = dev_game(layout=ROW, cards=[INFORMER])
    play(state, INFORMER, "0:1", 2)
    decide(state, token=state["decision"]["tokens"][0])
    menu = _controls(_render(state, {}))["return"]
    assert menu.min_values == menu.max_values == 2
    action = _click(state, {}, "return", [o.value for o in menu.options[:2]])
    V.apply_action(state, 0, action)
    assert len(ext(state)["held"][0]) == 1


def test_bribe_follow_up_offers_the_characters_the_bribes_reach_and_keeping_them():
    state = dev_game(layout={**ROW, "1:6": 6, "2:3": 4}, cards=[SMUGGLER])
    play(state, SMUGGLER, "0:5", 2)  # bottom: 4 bribes
    decide(state, token=state["decision"]["tokens"][0])
    spec = _render(state, {})
    ctl = _controls(spec)
    assert [o.value for o in ctl["pick"].options] == ["2:3", "1:2", "1:4", "1:6"]  # the highest level first
    assert "keep" in ctl
    action = _click(state, {}, "pick", ["2:3"])  # Mentor on level 2: 4 gems again
    V.apply_action(state, 0, action)
    assert ext(state)["bribes"]["held"][0] == 2
    assert state["decision"] is None or state["decision"]["kind"] == "gems"


def test_relocation_is_picked_on_the_lettered_pyramid_picture():
    state = dev_game(layout={"1:0": 104, "1:2": 3, "1:4": 5, "1:6": 7, "1:8": 6, "2:3": 4, "2:5": 12},
                     cards=[FORGER])
    play(state, FORGER, "0:1", 1)
    decide(state, token=state["decision"]["tokens"][0])
    draft: dict = {}
    spec = _render(state, draft)
    origins = [o.value for o in _controls(spec)["pick"].options]
    assert "1:8" in origins and spec.image is not None and _image(spec).width > 0
    _click(state, draft, "pick", ["1:8"])
    spec = _render(state, draft)
    targets = [o.value for o in _controls(spec)["pick"].options]
    assert "3:4" in targets and "1:8" not in targets and "change" in _controls(spec)
    assert _controls(spec)["pick"].options[targets.index("3:4")].label.startswith(
        "ABCDEFGHIJ"[targets.index("3:4")])
    action = _click(state, draft, "pick", ["3:4"])
    V.apply_action(state, 0, action)
    assert state["players"][0]["pyramid"]["cards"]["3:4"]["card"] == 6


def test_end_of_phase_criminal_return_prompt():
    state = dev_game(layout=ROW, cards=[SMUGGLER, FENCE])
    state["active"] = [0]
    V.apply_action(state, 0, {"type": "pass"})
    spec = _render(state, {})
    options = [o.value for o in _controls(spec)["pick"].options]
    assert options[0] == "keep" and set(options[1:]) == {"130", "131"}
    action = _click(state, {}, "pick", ["131"])
    assert describe_action(action) == "put #131 Fence under the deck"
    V.apply_action(state, 0, action)
    assert ext(state)["deck"][0] == FENCE


def test_judgement_prompt_offers_the_outcomes():
    state = dev_game(layout=ROW)
    state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] = [{"type": "science"}, {"type": "magic"}]
    give_tokens(state, 0, kind_ids("discard", tokens=["science", "magic"]))
    state["last_turn"] = True
    state["active"] = [0]
    V.apply_action(state, 0, {"type": "pass"})
    assert state["phase"] == "judgement"
    pick = _controls(_render(state, {}))["pick"]
    assert sorted(o.label for o in pick.options) == ["discard a magic token", "discard a science token"]
    V.apply_action(state, 0, _click(state, {}, "pick", [pick.options[0].value]))
    assert state["phase"] != "judgement"


def test_pictures_show_own_tokens_face_up_and_others_face_down():
    state = dev_game(layout={**ROW, "0:1": SMUGGLER})
    give_tokens(state, 0, kind_ids("pp", value=2)[:1])
    give_tokens(state, 1, kind_ids("pp", value=3)[:2])
    mine, public = V.view(state, 0), V.view(state, None)
    assert mine["players"][0]["judgement_tokens"] and "judgement_tokens" not in mine["players"][1]
    assert public["players"][1]["judgement"] == 2 and "judgement_tokens" not in public["players"][1]
    for png in (render_screen(mine, "Ann"), render_table(public, {0: "Ann", 1: "Bo"}),
                render_pyramid(mine["players"][0]["pyramid"], "Ann", None, ["0:3"])):
        assert Image.open(io.BytesIO(png)).size[0] > 100


def test_phase_titles_and_rules_topic_cover_the_underworld():
    from bot.presenters.viceroy import PHASE_TITLES, RULES_TOPICS

    assert {"underworld", "judgement"} <= set(PHASE_TITLES) and "underworld" in RULES_TOPICS


def test_every_underworld_prompt_renders_in_ai_games():
    """Every prompt of a few AI games renders, and every select has at most 25 options."""
    options = V.GAME.options_for({"modules": ["darkness", "underworld"]}, 3)
    seen = set()
    for seed in range(3):
        state = V.new_game(options, seed, 3)
        rng = random.Random(seed)
        for _ in range(3000):
            prompts = V.GAME.pending(state)
            if not prompts:
                break
            for seat, prompt in prompts.items():
                if prompt.kind in ("judgement_return", "judgement_discard", "bribe", "relocate", "underworld",
                                   "judgement") and prompt.kind not in seen:
                    spec = _render(state, {}, seat)
                    seen.add(prompt.kind)
                    assert all(len(c.options) <= 25 for row in spec.rows for c in row if isinstance(c, Select))
            seat = min(s for s, p in prompts.items() if p.waiting)
            V.apply_action(state, seat, V.ai.choose_action(state, seat, rng))
    assert {"judgement_return", "bribe", "underworld"} <= seen


def test_a_card_reward_may_draw_from_the_criminal_deck():
    state = dev_game(layout=ROW, cards=[FORGER])
    top = ext(state)["deck"][-1]
    draft = fresh_draft(_ctx(state).key)
    _click(state, draft, "card", ["play:132"])
    _click(state, draft, "slot", ["0:1"])
    _click(state, draft, "opt", ["0"])  # top line: 1 card
    draw = _controls(_render(state, draft))["draw"]
    assert "0:1" in [o.value for o in draw.options]
    _click(state, draft, "draw", ["0:1"])
    action = _click(state, draft, "confirm")
    assert action["reward"]["draw"] == ["criminal"]
    V.apply_action(state, 0, action)
    decide(state, token=state["decision"]["tokens"][0])
    assert top in state["players"][0]["hand"]


def test_a_module_choice_law_offers_its_three_options():
    """Aristocrat laws 102 and 103 choose one of three options like the base choice laws (the prompt once
    offered no choice for them, and a plan with one could never be confirmed)."""
    from tests.darkness.helpers import started
    from tests.engine.helpers import set_hand, to_development

    state = started(["darkness", "aristocrats"], 2, seed=2)
    to_development(state)
    set_hand(state, 0, [102])
    set_hand(state, 1, [])
    state["active"] = [0]
    draft = fresh_draft(_ctx(state).key)
    _click(state, draft, "card", ["play:102"])
    slot = _controls(_render(state, draft))["slot"].options[0].value
    _click(state, draft, "slot", [slot])
    ctl = _controls(_render(state, draft))
    assert len(ctl["opt"].options) == 3 and ctl["confirm"].disabled
    _click(state, draft, "opt", ["2"])  # any 4 gems
    action = _click(state, draft, "confirm")
    assert action["reward"]["option"] == 2
    V.apply_action(state, 0, action)
