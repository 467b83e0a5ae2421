"""The baseline AI seat: greedy, cheap, and only looking at what the seat's view shows.

Per turn, in order: buy a card that wins now (spending privileges if they close the gap); stop an obvious
win of the opponent (buy or reserve the card that would win it); buy the best card worth its cost; else take
the line of tokens most useful for the cards it is working towards (spending privileges on the tokens it
needs most when that completes a purchase, or when holding them all); reserve when tokens are poor.

It reads the board, the pyramid, its own cards and tokens, and the opponent's public holdings: never the
decks' order or the opponent's blind reserves (a test compares its choices on determinized states).
"""

from __future__ import annotations

import random

from . import board as B
from .cards import CARDS, COST_KINDS, GEM_COLORS, GOLD, LEVELS, PEARL, ROYALS, TOKEN_KINDS
from .game import (
    DISCARD,
    START,
    TOKEN_LIMIT,
    WIN_COLOR_POINTS,
    WIN_CROWNS,
    WIN_POINTS,
    apply,
    can_reserve,
    crosses_threshold,
    must_replenish,
    new_game,
)
from .rules import can_afford, shortfall

ABILITY_VALUE = {
    "extra_turn": 2.5,
    "take_token_of_card_color_from_board": 1.0,
    "take_privilege": 1.2,
    "steal_token_from_opponent": 1.2,
    "joker_bonus_copy": 0.0,
}
LINES_1 = tuple(line for line in B.LINES if len(line) == 1)
LINES_2 = tuple(line for line in B.LINES if len(line) == 2)
LINES_3 = tuple(line for line in B.LINES if len(line) == 3)
ROYAL_PREFERENCE = {"R-4": 3.0, "R-2": 2.6, "R-1": 2.4, "R-3": 2.2}


def _face_up(state: dict) -> list[str]:
    return [c for lv in LEVELS for c in state["pyramid"][str(lv)] if c is not None]


def _after_buy(me: dict, card_id: str, joker: str | None, royal: str | None) -> tuple[int, int, int]:
    """(points, crowns, best colour points) after buying a card."""
    card = CARDS[card_id]
    color = joker if card.is_joker else card.color
    points = me["points"] + card.points + (ROYALS[royal].points if royal else 0)
    crowns = me["crowns"] + card.crowns
    best = 0
    for c in GEM_COLORS:
        v = me["color_points"][c] + (card.points if c == color else 0)
        if v > best:
            best = v
    return points, crowns, best


def _wins(stats: tuple[int, int, int]) -> bool:
    return stats[0] >= WIN_POINTS or stats[1] >= WIN_CROWNS or stats[2] >= WIN_COLOR_POINTS


def _best_joker_color(me: dict) -> str:
    return max((c for c in GEM_COLORS if me["bonus"][c] > 0), key=lambda c: (me["color_points"][c], me["bonus"][c]))


BASE_VALUE = {c.id: c.points * 1.6 + c.crowns * 1.3 + c.bonus * 1.1 + sum(ABILITY_VALUE[a] for a in c.abilities)
              for c in CARDS.values()}


def _card_value(me: dict, card_id: str, joker: str | None = None) -> float:
    """How much a card moves the player towards a victory condition (``joker``: the colour a joker
    would take)."""
    card = CARDS[card_id]
    value = BASE_VALUE[card_id]
    color = card.color if not card.is_joker else joker
    if color is not None and card.points:
        # Points in one colour count twice: towards 20 and towards 10 in that colour.
        value += card.points * 0.25 * (1 + me["color_points"][color])
    crowns = me["crowns"] + card.crowns
    if card.crowns and crosses_threshold(me["crowns"], crowns):
        value += 2.5
    if card.crowns and me["crowns"] >= 6:
        value += card.crowns * 0.8
    return value


def _choose_royal(state: dict, me: dict, points_after: int) -> str:
    royals = state["royals"]
    for r in royals:
        if points_after + ROYALS[r].points >= WIN_POINTS:
            return r
    return max(royals, key=lambda r: ROYAL_PREFERENCE.get(r, ROYALS[r].points))


def _complete_buy(state: dict, seat: int, card_id: str, tokens: dict | None = None) -> dict:
    """One buy action with its answers chosen: joker colour, ability take/steal, royal card."""
    me, other = state["players"][seat], state["players"][1 - seat]
    card = CARDS[card_id]
    action: dict = {"type": "buy", "card": card_id}
    if card.is_joker:
        action["joker"] = _best_joker_color(me)
    if "take_token_of_card_color_from_board" in card.abilities:
        cells = [i for i, t in enumerate(state["board"]) if t == card.color]
        if cells:
            action["take"] = B.CELL_NAMES[cells[0]]
    stealable = [k for k in GEM_COLORS + (PEARL,) if other["tokens"][k] > 0]
    steal = max(stealable, key=lambda k: (k == PEARL, other["tokens"][k])) if stealable else None
    if "steal_token_from_opponent" in card.abilities and steal:
        action["steal"] = steal
    crowns = me["crowns"]
    if card.crowns and state["royals"] and crosses_threshold(crowns, crowns + card.crowns):
        royal = _choose_royal(state, me, me["points"] + card.points)
        action["royal"] = royal
        if "steal_token_from_opponent" in ROYALS[royal].abilities and steal:
            action["royal_steal"] = steal
    return action


def _with_discard(state: dict, seat: int, action: dict, gained: dict[str, int], spent: dict[str, int],
                  weights: dict[str, float]) -> dict:
    """Add the discard the plan needs (lowest-valued tokens first)."""
    held = dict(state["players"][seat]["tokens"])
    for k, n in gained.items():
        held[k] += n
    for k, n in spent.items():
        held[k] -= n
    excess = sum(held.values()) - TOKEN_LIMIT
    if excess <= 0:
        return action
    out: dict[str, int] = {}
    for _ in range(excess):
        kind = min((k for k in TOKEN_KINDS if held[k] > 0),
                   key=lambda k: (weights.get(k, 0.0) + (5.0 if k == GOLD else 0.0), -held[k]))
        held[kind] -= 1
        out[kind] = out.get(kind, 0) + 1
    action["discard"] = out
    return action


def _need_weights(state: dict, me: dict, targets: list[tuple[float, str]],
                  gap: dict[str, int] | None = None) -> dict[str, float]:
    """How much one more token of each kind is worth, from the cards the player works towards."""
    weights = dict.fromkeys(TOKEN_KINDS, 0.05)
    weights[GOLD] = 0.6
    tokens, bonus = me["tokens"], me["bonus"]
    for value, card_id in targets:
        card = CARDS[card_id]
        missing_total = gap[card_id] if gap is not None else shortfall(card, tokens, bonus) - tokens[GOLD]
        if missing_total <= 0:
            continue
        share = value / (missing_total + 1.0)
        for kind, n, discounted in card.cost_items:
            left = (n - bonus[kind] if discounted else n) - tokens[kind]
            if left > 0:
                weights[kind] += share
    return weights


def choose_action(state: dict, seat: int, rng: random.Random | None = None) -> dict:
    """The baseline AI's action for the seat whose turn it is."""
    rng = rng or random.Random(0)
    me, op = state["players"][seat], state["players"][1 - seat]
    if state["stage"] == DISCARD:
        weights = _need_weights(state, me, _targets(state, me, seat))
        return {"type": "discard", "tokens": _with_discard(state, seat, {}, {}, {}, weights).get("discard", {})}
    if must_replenish(state, seat):
        return {"type": "replenish"}
    board = state["board"]
    tokens, bonus = me["tokens"], me["bonus"]
    face_up = _face_up(state)
    mine = [c for c, _blind in me["reserved"]]
    candidates = face_up + mine
    privileges = me["privileges"] if state["stage"] == START else 0
    on_board = [(i, t) for i, t in enumerate(board) if t is not None and t != GOLD]
    has_bonus = any(bonus.values())
    # Per decision, once: what each card still lacks after tokens and gold, and what it is worth.
    gap = {}
    for c in candidates:
        card = CARDS[c]
        gap[c] = 99 if card.is_joker and not has_bonus else shortfall(card, tokens, bonus) - tokens[GOLD]
    joker = _best_joker_color(me) if has_bonus else None
    value = {c: _card_value(me, c, joker) for c in candidates}

    # 1. A purchase that wins now, with privileges closing a small gap.
    affordable = [c for c in candidates if gap[c] <= 0]
    best_royal = max(state["royals"], key=lambda r: ROYALS[r].points) if state["royals"] else None
    crowns = me["crowns"]

    def could_win(card_id: str) -> bool:
        card = CARDS[card_id]
        royal = best_royal if card.crowns and crosses_threshold(crowns, crowns + card.crowns) else None
        return _wins(_after_buy(me, card_id, joker, royal))

    for card_id in affordable:
        if could_win(card_id):
            return _complete_buy(state, seat, card_id)
    if privileges:
        for card_id in candidates:
            if 0 < gap[card_id] <= privileges and could_win(card_id):
                plan = _privilege_buy(state, seat, card_id, privileges, on_board)
                if plan is not None:
                    return dict(_complete_buy(state, seat, card_id), privileges=plan)

    # 2. Deny an obvious win: a face-up card the opponent could buy next turn and win with.
    threat = _threat(state, seat, face_up, op)
    if threat is not None:
        if threat in affordable:
            return _complete_buy(state, seat, threat)
        if can_reserve(state, seat):
            gold = next(i for i, t in enumerate(board) if t == GOLD)
            return {"type": "reserve", "gold": B.CELL_NAMES[gold], "card": threat}

    ranked = []
    for c in candidates:
        g = gap[c]
        if g < 99:
            ranked.append((value[c] / (1.0 + 0.35 * g) if g > 0 else value[c], c))
    ranked.sort(reverse=True)
    targets = ranked[:3]
    weights = _need_weights(state, me, targets, gap)

    # 3. The best purchase, when it is worth its price.
    best_buy, best_score = None, 0.0
    for card_id in affordable:
        spent = 0
        for kind, n, discounted in CARDS[card_id].cost_items:
            left = n - bonus[kind] if discounted else n
            if left > 0:
                spent += left
        score = value[card_id] - 0.25 * spent + rng.random() * 0.05
        if card_id in mine:
            score += 0.4  # frees a reserve slot
        if score > best_score:
            best_buy, best_score = card_id, score
    if best_buy is not None and best_score >= 1.0:
        return _complete_buy(state, seat, best_buy)
    if privileges and targets:
        top, card_id = targets[0]
        plan = _privilege_buy(state, seat, card_id, privileges, on_board) if 0 < gap[card_id] <= privileges else None
        if plan is not None and top >= 2.0:
            return dict(_complete_buy(state, seat, card_id), privileges=plan)

    # 4. Tokens: the most useful line (a gold or an empty space sinks a line's score).
    cw = [-100.0 if t is None or t == GOLD else weights[t] for t in board]
    best_line, line_score = None, -1.0
    for a, in LINES_1:
        score = cw[a] + 0.15
        if score > line_score:
            best_line, line_score = (a,), score
    for a, b in LINES_2:
        score = cw[a] + cw[b] + 0.3
        if score > line_score:
            if board[a] == PEARL and board[b] == PEARL:
                score -= 0.8  # gives the opponent a privilege
            if score > line_score:
                best_line, line_score = (a, b), score
    for a, b, c in LINES_3:
        score = cw[a] + cw[b] + cw[c] + 0.45
        if score > line_score:
            ta, tb, tc = board[a], board[b], board[c]
            if (ta == tb == tc) or (ta == PEARL) + (tb == PEARL) + (tc == PEARL) == 2:
                score -= 0.8  # gives the opponent a privilege
            if score > line_score:
                best_line, line_score = (a, b, c), score
    if line_score < -50:
        best_line = None

    if best_buy is not None and best_score > 0.3 and (best_line is None or line_score < 1.5):
        return _complete_buy(state, seat, best_buy)
    reserve_ok = can_reserve(state, seat) and len(me["reserved"]) < 2
    if reserve_ok and (best_line is None or line_score < 0.9):
        reserve = _reserve_choice(state, face_up, value)
        if reserve is not None:
            gold = next(i for i, t in enumerate(board) if t == GOLD)
            action = dict({"type": "reserve", "gold": B.CELL_NAMES[gold]}, **reserve)
            return _with_discard(state, seat, action, {GOLD: 1}, {}, weights)
    if (best_line is None or line_score < 0.7) and state["stage"] == START and sum(state["bag"].values()) >= 4:
        return {"type": "replenish"}
    if best_line is None:
        if affordable:
            return _complete_buy(state, seat, max(affordable, key=lambda c: value[c]))
        gold = next(i for i, t in enumerate(board) if t == GOLD)
        reserve = _reserve_choice(state, face_up, value) or {"deck": next(
            lv for lv in LEVELS if state["decks"][str(lv)])}
        action = dict({"type": "reserve", "gold": B.CELL_NAMES[gold]}, **reserve)
        return _with_discard(state, seat, action, {GOLD: 1}, {}, weights)
    action: dict = {"type": "take", "tokens": B.names(best_line)}
    gained: dict[str, int] = {}
    for i in best_line:
        gained[board[i]] = gained.get(board[i], 0) + 1
    if privileges >= 3 or (privileges and sum(tokens.values()) + len(best_line) + privileges <= 8):
        # A privilege on the most needed token off the line (scrolls are worth most when spent).
        spare = [(weights[t], i) for i, t in on_board if i not in best_line]
        if spare:
            w, cell = max(spare)
            if w > 0.8 or privileges >= 3:
                action["privileges"] = [B.CELL_NAMES[cell]]
                gained[board[cell]] = gained.get(board[cell], 0) + 1
    return _with_discard(state, seat, action, gained, {}, weights)


def _targets(state: dict, me: dict, seat: int) -> list[tuple[float, str]]:
    """Up to three cards worth working towards, best first."""
    scored = []
    for card_id in _face_up(state) + [c for c, _b in me["reserved"]]:
        card = CARDS[card_id]
        if card.is_joker and not any(me["bonus"].values()):
            continue
        missing = shortfall(card, me["tokens"], me["bonus"]) - me["tokens"][GOLD]
        joker = _best_joker_color(me) if any(me["bonus"].values()) else None
        scored.append((_card_value(me, card_id, joker) / (1.0 + 0.35 * max(0, missing)), card_id))
    scored.sort(reverse=True)
    return scored[:3]


def _privilege_buy(state: dict, seat: int, card_id: str, privileges: int, on_board: list) -> list[str] | None:
    """Board spaces whose tokens, taken with privileges, make the card affordable; None if none do."""
    me = state["players"][seat]
    card = CARDS[card_id]
    if card.is_joker and not any(me["bonus"].values()):
        return None
    tokens = dict(me["tokens"])
    cells: list[str] = []
    gap = shortfall(card, tokens, me["bonus"]) - tokens[GOLD]
    if gap <= 0 or gap > privileges:
        return None
    used: set[int] = set()
    for _ in range(gap):
        need = {}
        for kind, n in zip(COST_KINDS, card.cost, strict=True):
            left = (n if kind == PEARL else n - me["bonus"][kind]) - tokens[kind]
            if left > 0:
                need[kind] = left
        pick = next(((i, t) for i, t in on_board if t in need and i not in used), None)
        if pick is None:
            return None
        used.add(pick[0])
        tokens[pick[1]] += 1
        cells.append(B.CELL_NAMES[pick[0]])
    return cells if can_afford(card, tokens, me["bonus"]) else None


def _threat(state: dict, seat: int, face_up: list[str], op: dict) -> str | None:
    """A face-up card the opponent could buy on their next turn and win with at once."""
    tokens, bonus = op["tokens"], op["bonus"]
    # Only cards that could finish the game are worth the affordability check.
    points_need = WIN_POINTS - op["points"] - (3 if state["royals"] else 0)
    crowns_need = WIN_CROWNS - op["crowns"]
    color_need = WIN_COLOR_POINTS - max(op["color_points"].values())
    for card_id in face_up:
        card = CARDS[card_id]
        if card.points < points_need and card.crowns < crowns_need and card.points < color_need:
            continue
        short = shortfall(card, tokens, bonus) - tokens[GOLD]
        if short > op["privileges"] or (card.is_joker and not any(bonus.values())):
            continue
        joker = _best_joker_color(op) if card.is_joker else None
        royal = None
        if card.crowns and state["royals"] and crosses_threshold(op["crowns"], op["crowns"] + card.crowns):
            royal = max(state["royals"], key=lambda r: ROYALS[r].points)
        if _wins(_after_buy(op, card_id, joker, royal)):
            return card_id
    return None


def _reserve_choice(state: dict, face_up: list[str], value: dict[str, float]) -> dict | None:
    """The face-up card most worth holding, or a level-3 deck top when nothing stands out."""
    best, best_value = None, 0.0
    for card_id in face_up:
        if value[card_id] > best_value:
            best, best_value = card_id, value[card_id]
    if best is not None and best_value >= 3.0:
        return {"card": best}
    for lv in (3, 2, 1):
        if state["decks"][str(lv)]:
            return {"deck": lv}
    return {"card": best} if best is not None else None


def play_game(options: dict | None = None, seed: int = 0, max_actions: int = 2000) -> tuple[dict, list]:
    """A full AI-vs-AI game: (final state, record of (seat, action) pairs)."""
    state = new_game(options or {}, seed, 2)
    rng = random.Random(seed)
    record: list = []
    while state["stage"] != "over" and len(record) < max_actions:
        seat = state["active"]
        action = choose_action(state, seat, rng)
        apply(state, seat, action)
        record.append((seat, action))
    return state, record
