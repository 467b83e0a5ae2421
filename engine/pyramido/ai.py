"""The baseline architect: greedy, cheap, and never walls itself into a lost floor when a safe move exists.

Each candidate (domino × position × direction) is valued from what the architect can see: same-colour
neighbours on the floor and beneath (areas grow across floors), the gem icons that will stay visible once the
floor above is built, and whether a gem can score the block now. Candidates are tried best first; the first
whose floor can still be completed (or, failing that, needs the fewest single block cards) is played.
"""

from __future__ import annotations

import random

from . import game as G
from . import geometry as geo
from . import scoring as sc
from .tiles import CARD_FACES, COLOURS, DOMINOES, QUADRANT_BIT, QUADRANTS

_CI = {c: i for i, c in enumerate(COLOURS)}
_POP = tuple(bin(m).count("1") for m in range(16))
_NEIGH = ((1, 0), (-1, 0), (0, 1), (0, -1))
# Which quadrant of a lower block each of the four blocks above it covers: upper (x, y) sits on lower
# (x, y) [its br], (x+1, y) [bl], (x, y+1) [tr], (x+1, y+1) [tl].
_SUPPORTS = ((0, 0), (1, 0), (0, 1), (1, 1))


def _visible_mask(floor: int, cell: geo.Cell, frame: tuple[int, int, int, int]) -> int:
    """Quadrants of a block at ``cell`` that stay visible once the floor above is built (frame: ox, oy, w, h)."""
    if floor == geo.FLOORS:
        return 15
    ox, oy, w, h = frame
    x, y = cell[0] - ox, cell[1] - oy
    mask = 15
    if x < w - 1 and y < h - 1:
        mask &= ~8
    if x >= 1 and y < h - 1:
        mask &= ~4
    if x < w - 1 and y >= 1:
        mask &= ~2
    if x >= 1 and y >= 1:
        mask &= ~1
    return mask


def _frame(state: dict, player: dict, floor: int, cells: set) -> tuple[int, int, int, int]:
    if floor == 1:
        found = geo.first_floor_rect(cells)
        assert found is not None
        return found[:4]
    w, h = geo.upper_size(G.shape_of(player), floor)
    return 0, 0, w, h


def _spots(state: dict, seat: int, rng: random.Random) -> list[tuple]:
    """Every position to consider, with what the valuation needs (geometry once, not per domino)."""
    player = state["players"][seat]
    floor = state["floor"]
    blocks = sc.floor_blocks(player, floor)
    below = sc.floor_blocks(player, floor - 1) if floor > 1 else {}
    pairs = geo.legal_pairs(floor, blocks, G.shape_of(player))
    frame = _frame(state, player, floor, set(blocks))
    if floor == 1 and blocks:
        # Build towards one 5×4 / 4×5 rectangle that can still be completed (when there is one).
        ox, oy, w, h = frame
        inside = [p for p in pairs if all(ox <= c[0] < ox + w and oy <= c[1] < oy + h for c in p)]
        if inside and geo.first_floor_rect(set(blocks))[4] == 0:
            pairs = inside
    cells = {c for pair in pairs for c in pair}
    # aff[cell][colour index]: how much a block of that colour there would join (neighbours, supports)
    aff: dict[geo.Cell, list[float]] = {}
    vis: dict[geo.Cell, int] = {}
    for c in cells:
        d = [0.0] * 6
        x, y = c
        for dx, dy in _NEIGH:
            b = blocks.get((x + dx, y + dy))
            if b is not None:
                d[_CI[b[0]]] += 1.5 if b[2] is not None else 1.0
        for dx, dy in _SUPPORTS:
            b = below.get((x + dx, y + dy))
            if b is not None:
                d[_CI[b[0]]] += 0.6
        aff[c] = d
        vis[c] = 15 if floor == geo.FLOORS else _visible_mask(floor, c, frame)
    spots = []
    for pair in pairs:
        for at, direction in geo.placements_of(pair):
            other = geo.other_cell(at, direction)
            spots.append((geo.ROTATE[geo.ROTATION[direction]], aff[at], aff[other], vis[at], vis[other],
                          at, direction, pair))
    # Equal values go to the first found: start the list at a random place so play varies between games.
    if spots:
        k = rng.randrange(len(spots))
        spots = spots[k:] + spots[:k]
    return spots


def _as_action(state: dict, candidate: tuple, refill: int | None = None) -> dict:
    _, slot, domino, at, direction, gem, _ = candidate
    if refill is None:
        piles = G.refill_piles(state, slot)
        refill = max(piles, key=lambda p: (len(state["piles"][p]), -p)) if piles else None
    return {"type": "place", "domino": domino, "at": [at[0], at[1]], "dir": direction, "gem": gem,
            "card": None, "refill": refill}


def choose_action(state: dict, seat: int, rng: random.Random | None = None) -> dict:
    rng = rng or random.Random(0)
    if state["over"] or seat != state["turn"]:
        raise ValueError("nothing to decide for this seat")
    player = state["players"][seat]
    if state["need"] == "fill":
        return _fill(state, seat, player, state["floor"])
    spots = _spots(state, seat, rng)
    gems = player["gems"]
    best, candidates = _best(state, spots, gems, keep=False)
    if G.gaps_after(state, seat, best[6]) != 0:
        _, candidates = _best(state, spots, gems, keep=True)
        best = _safest(state, seat, candidates, len(G.unused_cards(player)))
    action = _as_action(state, best)
    if state["floor"] == geo.FLOORS and G.unused_cards(player):
        action["card"] = _final_card(player, action)
    return action


def _final_card(player: dict, action: dict) -> dict | None:
    """On the top floor the last domino decides the floor's areas: a single block card of the right colour
    on the block without the gem (scored with its own gem) can join a large area below. Worth it when it gains
    at least 2 points (an unused card only breaks ties)."""
    gem = action["gem"]
    piece = {"d": action["domino"], "at": action["at"], "dir": action["dir"], "gem": gem, "card": None}
    used_gem = None if gem is None else DOMINOES[action["domino"]][0 if gem == "a" else 1][0]
    free_gems = [c for c in player["gems"] if c != used_gem]

    lower = sc.lower_layers(player, geo.FLOORS)

    def score(card: dict | None) -> int:
        trial = dict(player)
        trial["floors"] = player["floors"][:3] + [[dict(piece, card=card)]]
        return sc.score_floor(trial, geo.FLOORS, lower)["total"]

    best, best_gain = None, 1
    base = score(None)
    for card in G.unused_cards(player):
        for side in CARD_FACES[card]:
            if side not in free_gems:
                continue  # an unscored card adds little: keep it for the tie-break
            for block in ("a", "b"):
                if block == gem:
                    continue
                option = {"card": card, "side": side, "block": block, "icon": "tl", "gem": True}
                gain = score(option) - base
                if gain > best_gain:
                    best, best_gain = option, gain
    if best is None:
        return None
    return {k: best[k] for k in ("card", "side", "block", "icon")}


def ranked_actions(state: dict, seat: int, rng: random.Random, count: int = 8) -> list[dict]:
    """The ``count`` best-valued placements that keep the floor completable (or leave the fewest gaps),
    each with both refill piles: a short list of sensible moves for a search."""
    player = state["players"][seat]
    if state["need"] == "fill":
        return [_fill(state, seat, player, state["floor"])]
    _, candidates = _best(state, _spots(state, seat, rng), player["gems"], keep=True)
    candidates.sort(key=_value, reverse=True)
    gaps: dict = {}
    for cand in candidates:
        if cand[6] not in gaps:
            gaps[cand[6]] = G.gaps_after(state, seat, cand[6])
    fewest = min(gaps.values())
    chosen = [c for c in candidates if gaps[c[6]] == fewest][:count]
    out = []
    for cand in chosen:
        for pile in G.refill_piles(state, cand[1]) or [None]:
            out.append(_as_action(state, cand, pile))
    return out


def _best(state: dict, spots: list, gems: list[str], keep: bool) -> tuple[tuple, list[tuple]]:
    """The highest-valued (value, slot, domino, at, direction, gem, pair), and every candidate if ``keep``."""
    pop = _POP
    candidates: list[tuple] = []
    best = None
    top = float("-inf")
    for slot, domino in enumerate(state["quarry"]):
        if domino is None:
            continue
        (ca, ma), (cb, mb) = DOMINOES[domino]
        ka, kb = _CI[ca], _CI[cb]
        same = 1.0 if ca == cb else 0.0
        gem_a = ca in gems
        gem_b = cb in gems
        for rot, fa, fb, visa, visb, at, direction, pair in spots:
            ia = pop[rot[ma] & visa]
            ib = pop[rot[mb] & visb]
            va = fa[ka] + same
            vb = fb[kb] + same
            value = va * (1 + ia) + vb * (1 + ib) + 0.4 * (ia + ib)
            gem = None
            if gem_a or gem_b:
                ga = (va + 1) * (ia + 1) if gem_a else -1.0
                gb = (vb + 1) * (ib + 1) if gem_b else -1.0
                if ga >= gb:
                    gem, value = "a", value + ga
                else:
                    gem, value = "b", value + gb
            if value > top:
                top = value
                best = (value, slot, domino, at, direction, gem, pair)
            if keep:
                candidates.append((value, slot, domino, at, direction, gem, pair))
    assert best is not None
    return best, candidates


def _value(candidate: tuple) -> float:
    return candidate[0]


def _safest(state: dict, seat: int, candidates: list[tuple], cards_left: int) -> tuple:
    """The best candidate that keeps the floor completable; failing that, the one leaving the fewest gaps."""
    candidates.sort(key=_value, reverse=True)
    gap_cache: dict = {}
    best = None
    best_gaps = None
    for cand in candidates:
        pair = cand[6]
        g = gap_cache.get(pair)
        if g is None:
            g = gap_cache[pair] = G.gaps_after(state, seat, pair)
        if g == 0:
            return cand
        if best_gaps is None or g < best_gaps:
            best, best_gaps = cand, g
    assert best is not None
    return best


def _fill(state: dict, seat: int, player: dict, floor: int) -> dict:
    """Fill each gap with a card face matching the most neighbours, its icon where it stays visible."""
    blocks = sc.floor_blocks(player, floor)
    gaps = G.gap_cells(state, seat)
    frame = _frame(state, player, floor, set(blocks) | set(gaps))
    free = G.unused_cards(player)
    out = []
    for gap in gaps:
        counts: dict[str, int] = {}
        for dx, dy in _NEIGH:
            b = blocks.get((gap[0] + dx, gap[1] + dy))
            if b is not None:
                counts[b[0]] = counts.get(b[0], 0) + 1
        card, side = max(((c, s) for c in free for s in CARD_FACES[c]), key=lambda cs: counts.get(cs[1], 0))
        free.remove(card)
        mask = _visible_mask(floor, gap, frame)
        icon = next((q for q in QUADRANTS if mask & QUADRANT_BIT[q]), "tl")
        out.append({"card": card, "side": side, "at": [gap[0], gap[1]], "icon": icon})
    return {"type": "fill", "cards": out}
