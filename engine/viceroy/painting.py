"""End-of-game painting (RULES.md §9): validating a paint list and finding the best one.

Each leftover gem behind the screen may turn one circle section to its colour. Only sections of existing
circles may be painted, and each section at most once. A circle made single-coloured by painting scores
(its upper card's level + the circle bonus of that colour, + 1 per Heraldry law) but gives no gem.

Why the solver is exact and fast: every section belongs to at most one circle, and painting changes no
score except circle scores. So each circle is independent except for the shared gem budget; for a
circle the only useful moves are "leave it" or "make it single colour k", which costs the sections not
already k, all in gems of colour k. Painting only part of a circle changes nothing (or breaks a
single-colour circle, which never helps). That leaves a multiple-choice knapsack with a four-colour
budget, solved exactly by a bounded search (``_search``): first the most points, then the fewest gems for
them. Its bounds (a Lagrangian decomposition within about a point of the optimum) keep it to a few thousand
states on the largest pyramids (benchmarks/bench_painting.py), so it is cheap enough to run anywhere, the
bot's event loop included.
"""

from __future__ import annotations

from engine.viceroy import pyramid as pyr
from engine.viceroy.cards import ANY, COLORS, IMAGES, NONE
from engine.viceroy.pyramid import circle_colors
from engine.viceroy.scoring import LAW_HERALDRY, circle_value

_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
# The dynamic programme's work limit: beyond it (large pyramids with large budgets) the search answers.
_PROGRAMME_STATES = 3000
# The programme's values: (points, -gems spent) as points * _SCALE - gems spent (never as many gems).
_SCALE = 1 << 20


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
        if not isinstance(color, str) or color not in _COLOR_INDEX:
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
    paint_sections(cards, paint_list)
    return spent


def paint_sections(cards: dict, paint_list: list[dict]) -> None:
    """Set ``entry["paint"][section]`` for every item of a checked paint list (``cards``: the pyramid's cards)."""
    for item in paint_list:
        entry = cards[item["slot"]]
        paint = entry.get("paint")
        if paint is None:
            paint = entry["paint"] = {}
        paint[item["section"]] = item["color"]


def _circle_options(pyramid: dict, gems: dict[str, int]) -> list[tuple[tuple, list[tuple[int, int, int]]]]:
    """Per circle worth painting, in circle order (level then x): ``((order, sections, colours), moves)``, the
    moves being (colour index, gems needed, score gained). The circles are read here as ``pyramid.circles``
    describes them, without building a description of the circles that offer no move."""
    cards = pyramid.get("cards", {})
    # In one pass over the cards: the circle bonus (as pyr.circle_bonus), Heraldry laws, and whether anything
    # is painted yet (before a seat paints nothing is: then no circle needs a look at its paint).
    bonus = dict.fromkeys(COLORS, 0)
    heraldry = 0
    any_paint = False
    for e in cards.values():
        number = e["card"]
        if number == LAW_HERALDRY:
            heraldry += 1
        if e.get("paint"):
            any_paint = True
        tokens = e.get("tokens")
        images = IMAGES.get(number) if IMAGES else None
        for t in (tokens or ()) if images is None else [*(tokens or ()), *images]:
            if t["type"] == "circle_bonus" and t.get("color") in bonus:
                bonus[t["color"]] += t.get("value", 0)
    have = [gems.get(color, 0) for color in COLORS]
    painted: set[str] = set()
    result = []
    below_of, known = pyr._below, pyr._BELOW
    for order, slot in enumerate(sorted(cards, key=pyr.parse_slot)):
        below = known[slot] if slot in known else below_of(slot)
        if below is None:
            continue
        level, ll, lr = below
        ll_entry = cards.get(ll)
        lr_entry = cards.get(lr)
        if ll_entry is None or lr_entry is None:
            continue
        # The four sections' colours, paint included (as pyr.circles gives them).
        colors = circle_colors(ll_entry, lr_entry, cards[slot])
        c0, c1, c2, c3 = colors
        if NONE in colors:
            continue  # a colourless section (aristocrat) keeps the circle from ever being single-coloured
        current = 0
        if c1 == c0 and c2 == c0 and c3 == c0:
            current = circle_value(level, c0, bonus) + heraldry
        elif ANY in colors:
            # A multicoloured section (a domain card's) takes whatever colour the others share.
            real = [c for c in colors if c != ANY]
            if real.count(real[0]) == len(real):
                current = circle_value(level, real[0], bonus) + heraldry
        sections = None
        if any_paint:
            sections = ((ll, "top_right"), (lr, "top_left"), (slot, "bottom_left"), (slot, "bottom_right"))
            painted = {
                color
                for (where, section), color in zip(sections, colors, strict=True)
                if section in (cards[where].get("paint") or {})
            }
            if len(painted) > 1:
                continue  # a painted section cannot be painted again: no colour fits them all
        # A multicoloured section needs no paint: each colour needs the sections of neither it nor ANY.
        free = 4 - colors.count(ANY)
        worth = level + heraldry - current
        options = []
        for k, color in enumerate(COLORS):
            if painted and color not in painted:
                continue  # a painted section cannot be painted again
            gain = worth + bonus[color]
            if gain > 0:
                need = free - colors.count(color)
                if need and need <= have[k]:
                    options.append((k, need, gain))
        if options:
            if sections is None:
                sections = ((ll, "top_right"), (lr, "top_left"), (slot, "bottom_left"), (slot, "bottom_right"))
            result.append(((order, sections, colors), options))
    return result


def _greedy(items: list, budget: list[int]) -> int:
    """A quick feasible painting's gain: a lower bound that lets the exact search drop hopeless states."""
    best = 0
    every = [(i, m) for i, (_, opts) in enumerate(items) for m in opts]
    for key in (lambda im: (im[1][2], -im[1][1]), lambda im: (im[1][2] / im[1][1], im[1][2])):
        moves = sorted(every, key=key, reverse=True)
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
        total += max(0.0, max([g - lam[k] * need for k, need, g in opts]))
    return total


def _dp_prices(items: list, budget: list[int]) -> list[float]:
    """Gem prices that make the Lagrangian bound small (coordinate descent over its breakpoints)."""
    lam = [0.0, 0.0, 0.0, 0.0]
    best = _dual(items, budget, lam)
    # A colour no circle has a move of keeps its price at 0: its pass would find the bound it starts from.
    present = sorted({k for _, opts in items for k, _, _ in opts})
    # A colour's pass finds nothing new when no price has moved since its last pass (its own move included):
    # it would read the same terms and the same candidates, none lower than the bound it left. It is skipped.
    tried = [-1, -1, -1, -1]  # the pass that last tried each colour's prices
    moved = -1  # the last pass that lowered the bound
    passes = 0
    for _ in range(3):
        improved = False
        for k in present:
            if tried[k] >= 0 and moved <= tried[k]:
                continue
            passes += 1
            tried[k] = passes
            candidates = {0.0}
            # Per circle: its best term without its colour-k move (at least 0), and that move if it has one.
            # While only lam[k] moves, the bound is the sum of max(rest, g - lam[k] * need) over circles.
            rest: list[tuple[float, int, int]] = []
            for _, opts in items:
                # others = max([0.0] + [g - lam[o] * need for the moves of other colours]), in one pass (a
                # circle has one move per colour at most)
                others = 0.0
                need = 0
                for o, n, v in opts:
                    if o != k:
                        v -= lam[o] * n
                        if v > others:
                            others = v
                    else:
                        need, g = n, v
                if not need:
                    rest.append((others, 0, 0))
                else:
                    candidates.add(g / need)
                    if g > others:
                        candidates.add((g - others) / need)
                    rest.append((others, need, g))
            keep = lam[k]
            b0, b1, b2, b3 = budget
            for c in candidates:
                lam[k] = c
                # The same sum as sum(lam[j] * budget[j] for j in range(4)), in the same order.
                value = lam[0] * b0 + lam[1] * b1 + lam[2] * b2 + lam[3] * b3
                # Every term added is at least 0 and a sum of such terms never shrinks (rounding included):
                # once it reaches the bar the candidate cannot win, and the rest of the sum is not needed.
                bar = best - 1e-12
                if value >= bar:
                    continue
                for others, need, g in rest:
                    if need:
                        v = g - c * need
                        value += v if v > others else others
                    else:
                        value += others
                    if value >= bar:
                        break
                else:
                    best, keep, improved = value, c, True
                    moved = passes
            lam[k] = keep
        if not improved:
            break
    return lam


def _programme(items: list, budget: list[int], limit: int) -> list | None:
    """The dynamic programme over circles that chose paintings before ``_search`` (kept so that games
    replay alike: among equally good paintings it picks its own one). None when it would need more than
    ``limit`` states; ``_search`` then answers, in bounded time."""
    n = len(items)
    # need_after[i][k]: gems of colour k the circles i.. could still use; budgets above it are clipped.
    need_after = [[0, 0, 0, 0] for _ in range(n + 1)]
    # best_after[i]: the most circles i.. could add, ignoring the budget (an upper bound).
    best_after = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        row = list(need_after[i + 1])
        for k, need, _ in items[i][1]:
            row[k] += need
        need_after[i] = row
        best_after[i] = best_after[i + 1] + max([g for _, _, g in items[i][1]])
    # alone[i][k][r]: the most circles i.. could add if colour k alone had r gems (a 0/1 knapsack).
    # Summed over colours it bounds what circles i.. can add: dropping "one colour per circle" only helps.
    top = [min(budget[k], need_after[0][k]) for k in range(4)]
    alone: list[list[list[int]]] = [[]] * n + [[[0] * (top[k] + 1) for k in range(4)]]
    for i in range(n - 1, -1, -1):
        after = alone[i + 1]
        row = list(after)  # a colour this circle has no move of keeps the row after it (never changed)
        for k, need, g in items[i][1]:
            # here[r] = max(here[r], later[r - need] + g) for every r >= need, in one pass (later is longer)
            here, later = row[k], after[k]
            row[k] = here[:need] + [a if a >= b + g else b + g for a, b in zip(here[need:], later, strict=False)]
        alone[i] = row
    lower = _greedy(items, budget)
    # Lagrangian bound: with a price lam[k] per gem, circles i.. add at most
    # lam . rem + sum_j max(0, max_k(gain - lam[k] * need)) for any prices >= 0.
    lam = _dp_prices(items, [min(budget[k], need_after[0][k]) for k in range(4)])
    priced = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        priced[i] = priced[i + 1] + max(0.0, max([g - lam[k] * need for k, need, g in items[i][1]]))
    l0, l1, l2, l3 = lam

    def clip(rem: tuple[int, ...], i: int) -> tuple[int, ...]:
        cap = need_after[i]
        return (min(rem[0], cap[0]), min(rem[1], cap[1]), min(rem[2], cap[2]), min(rem[3], cap[3]))

    start = clip(tuple(budget), 0)
    # layer: remaining budget -> value, the pair (gain, -gems spent) as one number, gain * _SCALE - gems spent
    # (the same order: fewer than _SCALE gems are ever spent); back: per layer, state -> (previous state, move)
    layer: dict[tuple[int, ...], int] = {start: 0}
    back: list[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int, int] | None]]] = []
    scale = _SCALE
    work = 0
    for i, (_, options) in enumerate(items):
        work += len(layer)
        if work > limit:
            return None
        nxt: dict[tuple[int, ...], int] = {}
        links: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int, int] | None]] = {}
        hope = best_after[i]
        a0, a1, a2, a3 = alone[i]
        p = priced[i] + 1e-9
        c0, c1, c2, c3 = need_after[i + 1]
        # Each move with what it adds to the value.
        moves = [(move, move[0], move[1], move[2] * scale - move[1]) for move in options]
        for rem, value in layer.items():
            gain = -(-value // scale)
            r0, r1, r2, r3 = rem
            most = a0[r0] + a1[r1] + a2[r2] + a3[r3]
            if gain + (most if most < hope else hope) < lower:
                continue  # cannot reach a painting already known
            if gain + p + l0 * r0 + l1 * r1 + l2 * r2 + l3 * r3 < lower:
                continue
            # The next state: the gems left, clipped to what the circles after this one could still use.
            k0, k1, k2, k3 = (r0 if r0 < c0 else c0), (r1 if r1 < c1 else c1), (r2 if r2 < c2 else c2), (r3 if r3 < c3 else c3)
            key = (k0, k1, k2, k3)
            if value > nxt.get(key, -1):  # (values are never below 0)
                nxt[key] = value
                links[key] = (rem, None)
            for move, k, need, add in moves:
                if k == 0:
                    if r0 < need:
                        continue
                    r = r0 - need
                    key = ((r if r < c0 else c0), k1, k2, k3)
                elif k == 1:
                    if r1 < need:
                        continue
                    r = r1 - need
                    key = (k0, (r if r < c1 else c1), k2, k3)
                elif k == 2:
                    if r2 < need:
                        continue
                    r = r2 - need
                    key = (k0, k1, (r if r < c2 else c2), k3)
                else:
                    if r3 < need:
                        continue
                    r = r3 - need
                    key = (k0, k1, k2, (r if r < c3 else c3))
                after = value + add
                if after > nxt.get(key, -1):
                    nxt[key] = after
                    links[key] = (rem, move)
        back.append(links)
        layer = nxt
        top_gain = -(-max(nxt.values()) // scale)  # the most points in the layer (its greatest value's)
        if top_gain > lower:
            lower = top_gain

    final = max(layer, key=layer.__getitem__)
    chosen: list[tuple[int, int, int] | None] = [None] * n
    state_key = final
    for i in range(n - 1, -1, -1):
        state_key, chosen[i] = back[i][state_key]
    return chosen


def _paint_list(items: list, chosen: list) -> list[dict]:
    order = sorted(range(len(items)), key=lambda i: items[i][0][0])  # circle order: level then x
    paint_list: list[dict] = []
    for i in order:
        circle, move = items[i][0], chosen[i]
        if move is None:
            continue
        color = COLORS[move[0]]
        for (slot, section), current in zip(circle[1], circle[2], strict=True):
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


def _greedy_painting(items: list[list[tuple[int, int, int]]], budget: list[int]) -> tuple[int, int, list]:
    """A quick feasible painting (the better of two greedy orders): its gain, its gems and its moves."""
    best: tuple[int, int, list] = (0, 0, [None] * len(items))
    for key in (lambda m: (m[2], -m[1]), lambda m: (m[2] / m[1], m[2])):
        moves = sorted(((i, m) for i, options in enumerate(items) for m in options), key=lambda im: key(im[1]),
                       reverse=True)
        rem = list(budget)
        chosen: list = [None] * len(items)
        gain = spent = 0
        for i, move in moves:
            k, need, g = move
            if chosen[i] is None and rem[k] >= need:
                chosen[i] = move
                rem[k] -= need
                gain += g
                spent += need
        if (gain, -spent) > (best[0], -best[1]):
            best = (gain, spent, chosen)
    return best


def _prices(items: list[list[tuple[int, int, int]]], budget: list[int], lower: int, rounds: int = 25) -> list[float]:
    """Gem prices that make the Lagrangian bound small: a few subgradient steps (Polyak's step towards a
    known painting's gain). Any prices >= 0 give a valid bound; good ones make it nearly the LP bound."""
    lam = [0.0, 0.0, 0.0, 0.0]
    best, best_lam = float("inf"), lam
    for t in range(rounds):
        total = lam[0] * budget[0] + lam[1] * budget[1] + lam[2] * budget[2] + lam[3] * budget[3]
        slack = list(budget)  # the subgradient: budget minus what the priced choice of every circle uses
        for options in items:
            top, colour, need_top = 0.0, -1, 0
            for k, need, g in options:
                value = g - lam[k] * need
                if value > top:
                    top, colour, need_top = value, k, need
            total += top
            if colour >= 0:
                slack[colour] -= need_top
        if total < best:
            best, best_lam = total, list(lam)
        norm = slack[0] ** 2 + slack[1] ** 2 + slack[2] ** 2 + slack[3] ** 2
        if norm == 0 or total - lower < 1e-9:
            break
        step = (total - lower) / norm * (1.0 if t < 10 else 0.5)
        lam = [max(0.0, lam[k] - step * slack[k]) for k in range(4)]
    return best_lam


def _knapsacks(items: list, top: list[int], value) -> list[list[list[float]]]:  # noqa: ANN001
    """table[i][k][r]: the most ``value(i, move)`` the circles i.. reach with r gems of colour k alone."""
    n = len(items)
    table: list = [None] * (n + 1)
    table[n] = [[0] * (top[k] + 1) for k in range(4)]
    for i in range(n - 1, -1, -1):
        here = [row[:] for row in table[i + 1]]
        for move in items[i]:
            k, need, _ = move
            v = value(i, move)
            if v <= 0:
                continue
            later, row = table[i + 1][k], here[k]
            for r in range(need, top[k] + 1):
                if later[r - need] + v > row[r]:
                    row[r] = later[r - need] + v
        table[i] = here
    return table


def _circle_prices(items: list, top: list[int], lam: list[float], lower: int, rounds: int = 30) -> list[float]:
    """Prices per circle for the Lagrangian decomposition: start from each circle's best move under the gem
    prices (which makes the bound the LP bound), then subgradient steps on the decomposition itself, whose
    colours keep their knapsacks whole (a tighter bound where gems do not divide evenly)."""
    n = len(items)
    mu = [max(0.0, max(g - lam[k] * need for k, need, g in options)) for options in items]
    by_colour = [[None] * n for _ in range(4)]
    for i, options in enumerate(items):
        for k, need, g in options:
            by_colour[k][i] = (need, g)
    best, best_mu = float("inf"), mu
    for t in range(rounds):
        total = sum(mu)
        used = [0] * n
        for k in range(4):
            size = top[k]
            value = [0.0] * (size + 1)
            taken: list[bytearray | None] = [None] * n
            for i in range(n):
                move = by_colour[k][i]
                if move is None or move[1] - mu[i] <= 0:
                    continue
                need, gain = move
                worth = gain - mu[i]
                mark = bytearray(size + 1)
                for r in range(size, need - 1, -1):
                    v = value[r - need] + worth
                    if v > value[r]:
                        value[r] = v
                        mark[r] = 1
                taken[i] = mark
            total += value[size]
            r = size
            for i in range(n - 1, -1, -1):
                mark = taken[i]
                if mark is not None and mark[r]:
                    used[i] += 1
                    r -= by_colour[k][i][0]
        if total < best:
            best, best_mu = total, list(mu)
        slack = [1 - u for u in used]
        norm = sum(x * x for x in slack)
        if norm == 0 or total - lower < 1 - 1e-9:
            break  # the bound already proves that nothing beats the known painting
        step = (total - lower) / norm * (1.0 if t < 10 else 0.5)
        mu = [max(0.0, mu[i] - step * slack[i]) for i in range(n)]
    return best_mu


def _search(items: list[list[tuple[int, int, int]]], budget: list[int]) -> list[tuple[int, int, int] | None]:
    """The exact search: the most points first, then the fewest gems for those points.

    Both are depth-first searches over the circles (each: one of its moves, or none) that drop a branch as
    soon as a bound shows it cannot do better; a search state is (circle, gems left, clipped to what the
    circles after it could still use), remembered so that it is explored once. The bound on the points the
    circles i.. can still add with ``rem`` gems is the smallest of: every circle's best move (no budget),
    each colour's own knapsack (no "one colour per circle"), and a Lagrangian decomposition (each circle
    priced at its best move under the gem prices, each colour then an exact knapsack of what is left),
    which is within about a point of the optimum. Its cost follows the number of circles and how close the
    budget is to binding, not the size of the budget (colours the circles cannot exhaust collapse to one
    value).
    """
    # Circles giving most points per gem first: the bounds then close in quickest (measured on the worst
    # cases of benchmarks/bench_painting.py).
    rank = sorted(range(len(items)), key=lambda i: -max(g / need for _, need, g in items[i]))
    chosen = _exact([items[i] for i in rank], budget)
    out: list[tuple[int, int, int] | None] = [None] * len(items)
    for j, i in enumerate(rank):
        out[i] = chosen[j]
    return out


def _exact(items: list[list[tuple[int, int, int]]], budget: list[int]) -> list[tuple[int, int, int] | None]:
    n = len(items)
    cap = [[0, 0, 0, 0] for _ in range(n + 1)]  # cap[i][k]: gems of colour k the circles i.. could use
    hope = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        row = list(cap[i + 1])
        for k, need, _ in items[i]:
            row[k] += need
        cap[i] = row
        hope[i] = hope[i + 1] + max(g for _, _, g in items[i])
    top = [min(budget[k], cap[0][k]) for k in range(4)]
    lower, known_spent, known = _greedy_painting(items, top)
    lam = _prices(items, top, lower)
    circle_price = _circle_prices(items, top, lam, lower)
    priced = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        priced[i] = priced[i + 1] + circle_price[i]
    alone = _knapsacks(items, top, lambda i, move: move[2])
    split = _knapsacks(items, top, lambda i, move: move[2] - circle_price[i])

    def bound(i: int, rem: tuple[int, int, int, int]) -> int:
        a, d = alone[i], split[i]
        r0, r1, r2, r3 = rem
        b = a[0][r0] + a[1][r1] + a[2][r2] + a[3][r3]
        c = int(priced[i] + d[0][r0] + d[1][r1] + d[2][r2] + d[3][r3] + 1e-7)
        if c < b:
            b = c
        h = hope[i]
        return h if h < b else b

    def clip(rem: list[int] | tuple[int, ...], i: int) -> tuple[int, int, int, int]:
        c = cap[i]
        return (rem[0] if rem[0] < c[0] else c[0], rem[1] if rem[1] < c[1] else c[1],
                rem[2] if rem[2] < c[2] else c[2], rem[3] if rem[3] < c[3] else c[3])

    # Better moves first (more points, then fewer gems): good paintings are found early and bound the rest.
    order = [sorted(options, key=lambda m: (-m[2], m[1])) for options in items]
    start = clip(top, 0)

    best = lower
    seen: dict[tuple, int] = {}
    path: list = [None] * n

    def most(i: int, rem: tuple[int, int, int, int], gain: int, spent: int) -> None:
        nonlocal best, known, known_spent
        if i == n:
            if gain > best:
                best, known, known_spent = gain, list(path), spent
            return
        if gain + bound(i, rem) <= best:
            return
        key = (i, rem)
        if seen.get(key, -1) >= gain:
            return
        seen[key] = gain
        for move in order[i]:
            k, need, g = move
            if rem[k] >= need:
                left = list(rem)
                left[k] -= need
                path[i] = move
                most(i + 1, clip(left, i + 1), gain + g, spent + need)
        path[i] = None
        most(i + 1, clip(rem, i + 1), gain, spent)

    most(0, start, 0, 0)
    goal = best
    # cover[i][p]: the fewest gems the circles i.. need for p more points, budgets ignored (a lower bound).
    far = 1 << 30
    cover: list = [None] * (n + 1)
    cover[n] = [0] + [far] * goal
    for i in range(n - 1, -1, -1):
        later = cover[i + 1]
        row = later[:]
        for _, need, g in items[i]:
            for p in range(1, goal + 1):
                c = need + later[p - g if p > g else 0]
                if c < row[p]:
                    row[p] = c
        cover[i] = row
    fewest, chosen = known_spent, known  # the best painting so far: only fewer gems replace it
    visited: dict[tuple, list[tuple[int, int]]] = {}

    def cheapest(i: int, rem: tuple[int, int, int, int], gain: int, spent: int) -> None:
        nonlocal fewest, chosen
        if i == n:
            if gain >= goal and spent < fewest:
                fewest, chosen = spent, list(path)
            return
        short = goal - gain
        if short > 0:
            if bound(i, rem) < short or spent + cover[i][short] >= fewest:
                return
        elif spent >= fewest:
            return
        key = (i, rem)
        got = gain if short > 0 else goal
        marks = visited.get(key)
        if marks is None:
            visited[key] = [(got, spent)]
        else:
            for g0, s0 in marks:
                if g0 >= got and s0 <= spent:
                    return  # reached before with as many points for no more gems
            marks.append((got, spent))
        for move in order[i]:
            k, need, g = move
            if rem[k] >= need:
                left = list(rem)
                left[k] -= need
                path[i] = move
                cheapest(i + 1, clip(left, i + 1), gain + g, spent + need)
        path[i] = None
        cheapest(i + 1, clip(rem, i + 1), gain, spent)

    cheapest(0, start, 0, 0)
    return chosen


def best_painting(state: dict, seat: int) -> tuple[list[dict], int]:
    """The paint list that maximises the seat's total score with its leftover gems, and the points gained.

    Exact (optimal). Among equally good paintings the one spending fewest gems is returned, and among those
    the first the search meets (circles worth most first, better moves first); the list is ordered by
    circle (level then x), sections in circle order.
    """
    player = state["players"][seat]
    pyramid = player.get("pyramid") or {"cards": {}}
    gems = player.get("gems") or {}
    items = _circle_options(pyramid, gems)
    if not items:
        return [], 0
    # Circles worth most first: the bounds then prune early (a stable sort on each circle's best gain).
    if len(items) > 1:
        worth = [-max([g for _, _, g in options]) for _, options in items]
        items = [items[i] for i in sorted(range(len(items)), key=worth.__getitem__)]
    budget = [gems.get(c, 0) for c in COLORS]
    use = [0, 0, 0, 0]
    for _, options in items:
        for k, need, _ in options:
            use[k] += need
    if all(budget[k] >= use[k] for k in range(4)):
        # Every colour has gems for every move: each circle simply takes its best move.
        return _unconstrained(items)
    chosen = _programme(items, budget, _PROGRAMME_STATES)
    if chosen is None:
        chosen = _search([options for _, options in items], budget)
    return _paint_list(items, chosen), sum(move[2] for move in chosen if move is not None)
