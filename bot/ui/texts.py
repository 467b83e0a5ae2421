"""Texts every game uses: seat names, Discord timestamps, message splitting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MESSAGE_LIMIT = 1900  # below Discord's 2000 characters, with room for a prefix

# Informed choices (bot/ui/informed.py).
BLOCKED_MARK = "✖"
GIVES_ARROW = "→"


def cannot_afford_text(needs: str, has: str) -> str:
    return f"cannot afford: needs {needs}, you have {has}"


def blocked_answer(reason: str) -> str:
    """The private answer to picking an option that cannot be taken."""
    return f"{reason[0].upper()}{reason[1:]}. Nothing was changed: choose another option."


def costs_gives_text(costs: str, gives: str) -> str:
    """'for 1G 1B → magic token', 'free → 2 gems', '→ 2 gems'."""
    if costs and gives:
        return f"for {costs} {GIVES_ARROW} {gives}"
    if costs:
        return f"for {costs}"
    return f"{GIVES_ARROW} {gives}" if gives else ""


# Lock in (bot/ui/lockin.py).
LOCK_IN = "Lock in"
LOCK_IN_CHANGE = "Lock in the change"
NOTHING_DRAFTED = "Choose something first; then lock it in."


def drafted_line(what: str, changing: bool) -> str:
    if changing:
        return (f"Your new choice: **{what}**. Press **{LOCK_IN_CHANGE}** to replace your sealed choice "
                "(until everyone has locked in).")
    return f"Your choice: **{what}**. Press **{LOCK_IN}** to seal it; until then nothing is final."


RECAP_LIMIT = 400


def recap_text(lines: list[str]) -> str:
    """The first line of a prompt: what the previous round brought this player."""
    return "Last round: " + " ".join(lines)


def names_map(seats: Iterable[Any]) -> dict[int, str]:
    """Seat number -> display name, from SeatInfo-like objects."""
    return {s.seat: s.display_name for s in seats}


def fill_names(text: str, names: dict[int, str]) -> str:
    """Engine texts name seats as {p0}, {p1}, ...: the players' names go in."""
    for seat, name in names.items():
        text = text.replace("{p" + str(seat) + "}", name)
    return text


def timestamp(when: float | None, style: str = "R") -> str:
    """A Discord timestamp (shown in each reader's time zone), or 'no time limit'."""
    return f"<t:{int(when)}:{style}>" if when else "no time limit"


def move_line(display_name: str, game_id: int, deadline: float | None, waiting: bool = True) -> str:
    """The text line of every prompt message: which game, and the deadline as Discord timestamps (a text line,
    not the embed footer, because Discord renders timestamps only in text). Sent with the prompt and repeated
    on every edit of it, so it never vanishes after a click. ``waiting`` False: the seat has chosen and may
    amend until the reveal; ``deadline`` is then the latest time the others have (None: unknown or no limit)."""
    stamps = f"{timestamp(deadline, 'f')} ({timestamp(deadline)})" if deadline else ""
    if not waiting:
        when = "your choice is in; you can change it until the reveal" + (f", at the latest {stamps}" if stamps else "")
    else:
        when = f"decide by {stamps}" if stamps else "no time limit"
    return f"Your move in {display_name} game #{game_id}: {when}."


def prompt_head(display_name: str, game_id: int, deadline: float | None, recap: str | None = None,
                waiting: bool = True) -> str:
    """A prompt message's text: what the previous round brought the seat (if anything), then the move line."""
    line = move_line(display_name, game_id, deadline, waiting)
    return f"{recap}\n{line}" if recap else line


def decision_text(prompt_kind: str) -> str:
    """A decision named from its prompt kind when the presenter gives no name ("fill_gaps" -> "your fill gaps")."""
    return "your " + prompt_kind.replace("_", " ") if prompt_kind else "your decision"


def undone_text(moves: list[str]) -> str:
    what = "; ".join(moves) if moves else "your last move"
    return f"↩ The host's undo took back your move: **{what}**. Your prompt comes again: choose anew."


def timeout_public(name: str) -> str:
    return f"⌛ Time ran out for {name}: the bot decided in their place (they are told what by DM)."


def timeout_private(display_name: str, what: str) -> str:
    return f"⌛ Time ran out for your decision in {display_name}. I chose for you: **{what}**."


def reminder_text(display_name: str, game_id: int, decision: str, deadline: float | None, where: str,
                  link: str = "") -> str:
    text = (f"⏰ Reminder: {display_name} game #{game_id}{where} is waiting for {decision} "
            f"(time runs out {timestamp(deadline)}).")
    return text + (f" Your prompt: {link}" if link else "")


def ping_text(user_id: int, display_name: str, game_id: int, decision: str) -> str:
    return (f"<@{user_id}>, {display_name} game #{game_id} is waiting for {decision}: press **My screen** "
            "(I cannot DM you).")


def where_text(guild_name: str | None, channel_id: int) -> str:
    """' on **Server** in #channel' (a channel mention is a link in every client)."""
    return (f" on **{guild_name}**" if guild_name else "") + (f" in <#{channel_id}>" if channel_id else "")


def jump_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def no_card_text(query: str, near: list[str]) -> str:
    text = f"No single card matches “{query[:50]}”."
    return text + (" Did you mean: " + "; ".join(near) + "?" if near else " Try its number, or part of its name.")


IN_A_SERVER = "Use this command in a server channel: it is about that server's games."
REMATCH = "Rematch"
EXPORT_FINISHED_ONLY = ("Only a finished game can be exported: its record would reveal every hand and deck "
                        "before the end.")


def count_text(n: int, word: str) -> str:
    """'1 crown', '2 crowns': a count with its word in the singular or the plural."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def points_text(n: int) -> str:
    return count_text(n, "point")


def summary_text(winners: list[str], top: int, runner_up: int | None) -> str:
    # A bare number ("wins with 55") leaves the reader guessing what was counted.
    if not winners:
        return "Nobody won this game."
    if len(winners) > 1:
        return f"{' and '.join(winners)} share the victory with {points_text(top)}."
    if runner_up is None:
        return f"{winners[0]} wins with {points_text(top)}."
    return f"{winners[0]} wins with {points_text(top)}, {points_text(top - runner_up)} ahead of the next player."


def ending_text(reason: str) -> str:
    """Why the game ended, as a sentence: the engines give a bare phrase ("twelve turns played")."""
    if not reason or reason.endswith((".", "!", "?")):
        return reason
    return f"The game ended: {reason}."


def export_text(title: str, game_id: int, moves: int) -> str:
    return (f"The record of {title} game #{game_id}: {moves} moves, replayable "
            "(`python -m bot.export` describes the format).")


def hours(seconds: int | None) -> str:
    return "none" if seconds is None else f"{seconds / 3600:g} h"


def split_text(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit (a single over-long line is cut)."""
    chunks: list[str] = []
    cur = ""
    for line in lines:
        line = line[:limit]
        if cur and len(cur) + len(line) + 1 > limit:
            chunks.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        chunks.append(cur)
    return chunks


CHANNEL_GONE = ("The channel of {game} game #{n} is gone. The game goes on here: your prompts come by DM, and so "
                "does your result at the end. The host can end the game with `/{command} abandon` here.")


def channel_gone_text(game: str, game_id: int, command: str) -> str:
    """Told by DM to each player of a game whose channel was deleted."""
    return CHANNEL_GONE.format(game=game, n=game_id, command=command)
