"""End-of-game painting (RULES.md §9): validating a paint list and finding the best one.

Each leftover gem behind the screen may turn one circle section to its colour. Only sections of existing
circles may be painted, and each section at most once. A circle made single-coloured by painting scores
(its upper card's level + the circle bonus of that colour, + 1 per Heraldry law) but gives no gem.

Why the solver is exact and fast: every section belongs to at most one circle, and painting changes no
score except circle scores. So each circle is independent except for the shared gem budget; for a
circle the only useful moves are "leave it" or "make it single colour k", which costs the sections not
already k, all in gems of colour k. Painting only part of a circle changes nothing (or breaks a
single-colour circle, which never helps). That leaves a multiple-choice knapsack with a four-colour
budget, solved by dynamic programming over circles. The remaining budget of each colour is clipped to
what the remaining circles could still use, so colours with plenty of gems collapse to one state and the
table stays small.
"""

from __future__ import annotations

from engine.viceroy import pyramid as pyr
from engine.viceroy.cards import ANY, COLORS, NONE
from engine.viceroy.scoring import LAW_HERALDRY, circle_value

_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}


def apply_painting(pyramid: dict, gems: dict[str, int], paint_list: list[dict]) -> dict[str, int]:
    """Validate ``paint_list`` against the pyramid and the gems, then paint.

    Each item is ``{"slot", "section", "color"}``. Raises ValueError with a player-facing message when an
    item is malformed, names a section outside every circle, paints a section twice (or one already
    painted), or needs more gems of a colour than ``gems`` holds; nothing is changed then. Otherwise sets
    ``entry["paint"][section]`` for every item and returns the gems spent per colour (all four colours);
    ``gems`` itself is not changed, the caller moves the spent gems.
    """
    if not isinstance(paint_list, list):
        raise ValueError("Painting must be a list of sections to paint.")
    allowed = set(pyr.paintable_sections(pyramid))
    cards = pyramid.get("cards", {})
    spent = dict.fromkeys(COLORS, 0)
    seen: set[tuple[str, str]] = set()
    for item in paint_list:
        if not isinstance(item, dict):
            raise ValueError("Each painted section needs a slot, a section and a colour.")
        slot, section, color = item.get("slot"), item.get("section"), item.get("color")
        if color not in _COLOR_INDEX:
            raise ValueError(f"'{color}' is not a gem colour (use {', '.join(COLORS)}).")
        if section not in pyr.SECTIONS:
            raise ValueError(f"'{section}' is not a card section (use {', '.join(pyr.SECTIONS)}).")
        if not isinstance(slot, str) or slot not in cards:
            raise ValueError(f"There is no card at position {slot} in your pyramid.")
        key = (slot, section)
        if key not in allowed:
            raise ValueError(f"The {section.replace('_', '-')} section at {slot} is not part of a circle.")
        if key in seen or section in (cards[slot].get("paint") or {}):
            raise ValueError(f"The {section.replace('_', '-')} section at {slot} can be painted only once.")
        seen.add(key)
        spent[color] += 1
    for color in COLORS:
        if spent[color] > gems.get(color, 0):
            raise ValueError(
                f"Painting needs {spent[color]} {color} gem(s) but you have {gems.get(color, 0)} left."
            )
    for item in paint_list:
        entry = cards[item["slot"]]
        paint = entry.get("paint")
        if paint is None:
            paint = entry["paint"] = {}
        paint[item["section"]] = item["color"]
    return spent


def _circle_options(pyramid: dict, gems: dict[str, int]) -> list[tuple[dict, list[tuple[int, int, int]]]]:
    """Per circle: the moves worth considering as (colour index, gems needed, score gained)."""
    cards = pyramid.get("cards", {})
    bonus = pyr.circle_bonus(pyramid)
    heraldry = len(pyr.law_slots(pyramid, (LAW_HERALDRY,)))
    have = [gems.get(color, 0) for color in COLORS]
    result = []
    for circle in pyr.circles(pyramid):
        level = circle["level"]
        current = 0
        if circle["single"]:
            current = circle_value(level, circle["color"], bonus) + heraldry
        colors = circle["colors"]
        painted = [
            color
            for (slot, section), color in zip(circle["sections"], colors, strict=True)
            if section in (cards[slot].get("paint") or {})
        ]
        if NONE in colors:
            continue  # a colourless section (aristocrat) keeps the circle from ever being single-coloured
        options = []
        for k, color in enumerate(COLORS):
            if painted and any(p != color for p in painted):
                continue  # a painted section cannot be painted again
            need = 4 - colors.count(color) - colors.count(ANY)  # a multicoloured section needs no paint
            gain = level + bonus.get(color, 0) + heraldry - current
            if need and gain > 0 and need <= have[k]:
                options.append((k, need, gain))
        if options:
            result.append((circle, options))
    return result


def _greedy(items: list, budget: list[int]) -> int:
    """A quick feasible painting's gain: a lower bound that lets the exact search drop hopeless states."""
    best = 0
    for key in (lambda m: (m[2], -m[1]), lambda m: (m[2] / m[1], m[2])):
        moves = sorted(
            ((i, m) for i, (_, opts) in enumerate(items) for m in opts),
            key=lambda im: key(im[1]),
            reverse=True,
        )
        rem = list(budget)
        done: set[int] = set()
        gain = 0
        for i, (k, need, g) in moves:
            if i not in done and rem[k] >= need:
                done.add(i)
                rem[k] -= need
                gain += g
        best = max(best, gain)
    return best


def _dual(items: list, budget: list[int], lam: list[float]) -> float:
    total = sum(lam[k] * budget[k] for k in range(4))
    for _, opts in items:
        total += max(0.0, max(g - lam[k] * need for k, need, g in opts))
    return total


def _prices(items: list, budget: list[int]) -> list[float]:
    """Gem prices that make the Lagrangian bound small (coordinate descent over its breakpoints)."""
    lam = [0.0, 0.0, 0.0, 0.0]
    best = _dual(items, budget, lam)
    for _ in range(3):
        improved = False
        for k in range(4):
            candidates = {0.0}
            # Per circle: its best term without its colour-k move (at least 0), and that move if it has one.
            # While only lam[k] moves, the bound is the sum of max(rest, g - lam[k] * need) over circles.
            rest: list[tuple[float, int, int]] = []
            for _, opts in items:
                others = max([0.0] + [g - lam[o] * need for o, need, g in opts if o != k])
                move = (others, 0, 0)
                for o, need, g in opts:
                    if o == k:
                        candidates.add(g / need)
                        if g > others:
                            candidates.add((g - others) / need)
                        move = (others, need, g)
                rest.append(move)
            keep = lam[k]
            for c in candidates:
                lam[k] = c
                value = sum(lam[j] * budget[j] for j in range(4))
                for others, need, g in rest:
                    if need:
                        v = g - c * need
                        value += v if v > others else others
                    else:
                        value += others
                if value < best - 1e-12:
                    best, keep, improved = value, c, True
            lam[k] = keep
        if not improved:
            break
    return lam


def _paint_list(items: list, chosen: list) -> list[dict]:
    order = sorted(range(len(items)), key=lambda i: pyr.parse_slot(items[i][0]["slot"]))
    paint_list: list[dict] = []
    for i in order:
        circle, move = items[i][0], chosen[i]
        if move is None:
            continue
        color = COLORS[move[0]]
        for (slot, section), current in zip(circle["sections"], circle["colors"], strict=True):
            if current != color and current != ANY:
                paint_list.append({"slot": slot, "section": section, "color": color})
    return paint_list


def _unconstrained(items: list) -> tuple[list[dict], int]:
    """The best painting when no colour runs short: per circle the best move (more points, then fewer gems)."""
    chosen: list = []
    total = 0
    for _, options in items:
        best, value = None, (0, 0)
        for move in options:
            _k, need, g = move
            if (g, -need) > value:
                best, value = move, (g, -need)
        chosen.append(best)
        total += value[0]
    return _paint_list(items, chosen), total


def best_painting(state: dict, seat: int) -> tuple[list[dict], int]:
    """The paint list that maximises the seat's total score with its leftover gems, and the points gained.

    Exact (optimal). Among equally good paintings the one spending fewest gems is returned; the order is
    deterministic (circles by level then x, sections in circle order).
    """
    player = state["players"][seat]
    pyramid = player.get("pyramid") or {"cards": {}}
    gems = player.get("gems") or {}
    items = _circle_options(pyramid, gems)
    if not items:
        return [], 0
    # Circles worth most first: the bound below then prunes early.
    items.sort(key=lambda item: -max(g for _, _, g in item[1]))
    n = len(items)
    budget = [gems.get(c, 0) for c in COLORS]
    # need_after[i][k]: gems of colour k the circles i.. could still use; budgets above it are clipped.
    need_after = [[0, 0, 0, 0] for _ in range(n + 1)]
    # best_after[i]: the most circles i.. could add, ignoring the budget (an upper bound).
    best_after = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        row = list(need_after[i + 1])
        for k, need, _ in items[i][1]:
            row[k] += need
        need_after[i] = row
        best_after[i] = best_after[i + 1] + max(g for _, _, g in items[i][1])
    if all(budget[k] >= need_after[0][k] for k in range(4)):
        # Every colour has gems for every move: each circle simply takes its best move (the search below
        # would keep one state per circle and choose exactly this).
        return _unconstrained(items)
    # alone[i][k][r]: the most circles i.. could add if colour k alone had r gems (a 0/1 knapsack).
    # Summed over colours it bounds what circles i.. can add: dropping "one colour per circle" only helps.
    top = [min(budget[k], need_after[0][k]) for k in range(4)]
    alone = [[[0] * (top[k] + 1) for k in range(4)] for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for k in range(4):
            alone[i][k] = list(alone[i + 1][k])
        for k, need, g in items[i][1]:
            later, here = alone[i + 1][k], alone[i][k]
            for r in range(need, top[k] + 1):
                if later[r - need] + g > here[r]:
                    here[r] = later[r - need] + g
    lower = _greedy(items, budget)
    # Lagrangian bound: with a price lam[k] per gem, circles i.. add at most
    # lam . rem + sum_j max(0, max_k(gain - lam[k] * need)) for any prices >= 0.
    lam = _prices(items, [min(budget[k], need_after[0][k]) for k in range(4)])
    priced = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        priced[i] = priced[i + 1] + max(0.0, max(g - lam[k] * need for k, need, g in items[i][1]))
    l0, l1, l2, l3 = lam

    def clip(rem: tuple[int, ...], i: int) -> tuple[int, ...]:
        cap = need_after[i]
        return (min(rem[0], cap[0]), min(rem[1], cap[1]), min(rem[2], cap[2]), min(rem[3], cap[3]))

    start = clip(tuple(budget), 0)
    # layer: remaining budget -> (gain, -gems spent); back: per layer, state -> (previous state, move)
    layer: dict[tuple[int, ...], tuple[int, int]] = {start: (0, 0)}
    back: list[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int, int] | None]]] = []
    for i, (_, options) in enumerate(items):
        nxt: dict[tuple[int, ...], tuple[int, int]] = {}
        links: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int, int] | None]] = {}
        hope = best_after[i]
        a0, a1, a2, a3 = alone[i]
        p = priced[i] + 1e-9
        c0, c1, c2, c3 = need_after[i + 1]
        for rem, (gain, neg_spent) in layer.items():
            r0, r1, r2, r3 = rem
            if gain + min(hope, a0[r0] + a1[r1] + a2[r2] + a3[r3]) < lower:
                continue  # cannot reach a painting already known
            if gain + p + l0 * r0 + l1 * r1 + l2 * r2 + l3 * r3 < lower:
                continue
            # The next state: the gems left, clipped to what the circles after this one could still use.
            k0, k1, k2, k3 = (r0 if r0 < c0 else c0), (r1 if r1 < c1 else c1), (r2 if r2 < c2 else c2), (r3 if r3 < c3 else c3)
            key = (k0, k1, k2, k3)
            value = (gain, neg_spent)
            old = nxt.get(key)
            if old is None or value > old:
                nxt[key] = value
                links[key] = (rem, None)
            for move in options:
                k, need, g = move
                if rem[k] < need:
                    continue
                if k == 0:
                    r = r0 - need
                    key = ((r if r < c0 else c0), k1, k2, k3)
                elif k == 1:
                    r = r1 - need
                    key = (k0, (r if r < c1 else c1), k2, k3)
                elif k == 2:
                    r = r2 - need
                    key = (k0, k1, (r if r < c2 else c2), k3)
                else:
                    r = r3 - need
                    key = (k0, k1, k2, (r if r < c3 else c3))
                value = (gain + g, neg_spent - need)
                old = nxt.get(key)
                if old is None or value > old:
                    nxt[key] = value
                    links[key] = (rem, move)
        back.append(links)
        layer = nxt
        lower = max(lower, max(v[0] for v in nxt.values()))

    final = max(layer, key=lambda s: layer[s])
    best_gain = layer[final][0]
    chosen: list[tuple[int, int, int] | None] = [None] * n
    state_key = final
    for i in range(n - 1, -1, -1):
        state_key, chosen[i] = back[i][state_key]

    return _paint_list(items, chosen), best_gain
