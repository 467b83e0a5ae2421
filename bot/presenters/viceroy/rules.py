"""Viceroy's rules pages for ``/viceroy rules``: the packaged rules summary with this project's rulings."""

from __future__ import annotations

from bot.ui import rulesbook

BOT_HELP = """**Playing Viceroy with this bot**
• `/viceroy new` opens a lobby; players press **Join**, the host may **Add AI** (easy, normal or hard: the
  lobby's AI level menu), switch Times of Darkness modules on in the lobby's modules menu, then **Start**.
• Every secret choice (starting card, bids, development plans, answers) comes to you by **direct message**,
  with buttons and menus. A sealed choice is made in the menu and sealed with **Lock in**; you can change it
  until everyone has locked in, then all are revealed.
• DMs closed? Press **My screen** under the table message (or `/viceroy screen`): you get the same controls privately.
• The table message in the channel shows who we are waiting for; each decision has a time limit
  (`/viceroy settings`), with reminders. When time runs out the bot chooses for you and tells you what by DM.
• `/viceroy waiting`, `/viceroy status`, `/viceroy pyramid`, `/viceroy log`, `/viceroy card`, `/viceroy history`
  and `/viceroy stats` show the game and the finished ones;
  the host (or a server admin) can `/viceroy replace` a player, `/viceroy undo` the last step or `/viceroy abandon`."""


PAGE = "data.viceroy"
NOT_FOR_PLAYERS = ("coverage (for developers)",)


def rules_text(topic: str, locale: str | None = None) -> str:
    """The rules on one topic (a heading of the rules page that contains the topic word), in ``locale`` (None:
    the reader's; a section not yet translated is in English)."""
    topic = (topic or "overview").lower().strip()
    found = rulesbook.find(PAGE, topic, locale, NOT_FOR_PLAYERS)
    if found:
        return found
    if topic == "bot":
        return BOT_HELP
    topics = [t for t in rulesbook.sections(PAGE, skip=NOT_FOR_PLAYERS) if t]
    return "No rules page on that topic. Topics: " + ", ".join(topics) + ", bot."
