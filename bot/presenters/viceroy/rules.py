"""Viceroy's rules pages for ``/viceroy rules``: the packaged rules summary with this project's rulings."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

BOT_HELP = """**Playing Viceroy with this bot**
• `/viceroy new` opens a lobby; players press **Join**, the host may **Add AI** (easy, normal or hard: the
  lobby's AI level menu), switch Times of Darkness modules on in the lobby's modules menu, then **Start**.
• Every secret choice (starting card, bids, development plans, answers) comes to you by **direct message**,
  with buttons and menus. Your choice stays changeable until everyone has chosen; then all are revealed.
• DMs closed? Press **My screen** under the table message (or `/viceroy screen`): you get the same controls privately.
• The table message in the channel shows who we are waiting for; each decision has a time limit
  (`/viceroy settings`), with reminders. When time runs out you pass (or skip painting).
• `/viceroy waiting`, `/viceroy status`, `/viceroy pyramid`, `/viceroy log` show the game;
  the host (or a server admin) can `/viceroy replace` a player, `/viceroy undo` the last step or `/viceroy abandon`."""


@lru_cache(maxsize=1)
def _sections() -> dict[str, str]:
    try:
        text = resources.files("data.viceroy").joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        text = ""
    sections: dict[str, str] = {}
    title, body = "overview", []
    for line in text.splitlines():
        if line.startswith("## "):
            sections[title] = "\n".join(body).strip()
            title, body = line[3:].strip().lower(), [f"**{line[3:].strip()}**"]
        else:
            body.append(line)
    sections[title] = "\n".join(body).strip()
    return sections


def rules_text(topic: str) -> str:
    """The rules on one topic (a heading of the rules page that contains the topic word)."""
    topic = topic.lower().strip()
    if topic == "bot":
        return BOT_HELP
    sections = _sections()
    for title, body in sections.items():
        if topic in title and body:
            return body
    if topic == "overview" and sections.get("overview"):
        return sections["overview"]
    return "No rules page on that topic. Topics: " + ", ".join(t for t in sections if t) + ", bot."
