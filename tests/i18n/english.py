"""English left in a Swedish game: every text the bot sends is scanned for frequent English words that are not
Swedish words (one of them in a message means a text was not translated), and the other way round for English
readers. ``Messages`` records every text the fake Discord shows (channel posts, DMs, private replies, buttons and
menus, as sent and as edited) with who reads it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from bot.localdiscord import FakeChannel, FakeDiscord, FakeMessage
from engine.viceroy.cards import CARDS

ENGLISH = frozenset("""
the you your and with for this that from takes take plays play bids bid passes choose choice waiting level
levels gems gem turn round card cards reward rewards cost costs discard discards pyramid's law laws nobody
game over final scores reserve screen only can see decide until everyone has have are is was will into
their they them which what when where who while after before each every other players player points
start starts keep kept goes back deck circle circles section sections paint painting skip done
domain diamond diamonds revised character characters auction reserve colour swords shields wins returns
draws sits both
""".split())
# ("hand" is a Swedish word too.)
# Words of one game's vocabulary, English and not Swedish ("block" and "bonus" are Swedish words too).
PYRAMIDO = frozenset("""
domino dominoes floor floors single gaps gap icon icons tile tiles market quarry architect fills fill lost
loses best unused pile piles brown blue yellow aqua red green first second
""".split())
SPLENDOR_DUEL = frozenset("""
token tokens privilege privileges buy buys bought gold pearl pearls crown crowns prestige royal board
replenish replenished ability reserved reserves bag white blue green red black opponent none first
""".split())
# Frequent Swedish words that are not English words: any of them in an English reader's message is a leak of
# another reader's language.
SWEDISH = frozenset("""
och tar väljer väntar tur poäng spelet vinner köper reserverar brädet för inte kvar nästa dina ditt du
är eller kort ingen med på från spelare skärm klar välj
""".split())
CARD_NAME = re.compile("|".join(sorted((re.escape(c["name"]) for c in CARDS.values()), key=len, reverse=True)))


def message_texts(msg: FakeMessage) -> list[str]:
    """Every text a message shows: content, embeds, a components V2 layout, buttons and menus."""
    texts = [msg.content]
    for embed in msg.embeds:
        texts += [embed.get("title") or "", embed.get("description") or "", (embed.get("footer") or {}).get("text", "")]
        texts += [t for f in embed.get("fields") or [] for t in (f.get("name") or "", f.get("value") or "")]
    texts += msg.text_displays()
    for comp in msg.iter_components():
        texts += [comp.get("label") or "", comp.get("placeholder") or ""]
        texts += [t for o in comp.get("options") or [] for t in (o.get("label") or "", o.get("description") or "")]
    return [t for t in texts if t]


def english_left(text: str, names: set[str], words: Iterable[str] = ENGLISH) -> list[str]:
    """The English ``words`` in ``text``, past card names, links, mentions and the given ``names``."""
    text = CARD_NAME.sub(" ", text)  # card names are proper names, printed in English
    text = re.sub(r"https?://\S+|<[^>]+>", " ", text)
    found = {w.lower() for w in re.findall(r"[A-Za-zÅÄÖåäö']+", text) if w not in names}
    return sorted(found & frozenset(words))


class Messages:
    """Records every text shown on the fake Discord, with who reads it (see ``reader``)."""

    def __init__(self, world: FakeDiscord) -> None:
        self.world = world
        self.seen: list[tuple[str, str]] = []

    def watch(self, channel: FakeChannel) -> None:
        """Start recording (``swedish_game``'s ``watch``): ``channel`` is the game's channel."""
        original = self.world._apply_edit

        def recording(msg, body, files, *, creating=False):
            original(msg, body, files, creating=creating)
            self.seen.extend((self.reader(msg, channel), t) for t in message_texts(msg))

        self.world._apply_edit = recording

    def reader(self, msg: FakeMessage, channel: FakeChannel) -> str:
        """Who reads ``msg``: "channel" (a post in the game's channel), or "dm:<user id>" (a DM or a private
        reply, which only that user sees)."""
        if msg.ephemeral_to is not None:
            return f"dm:{msg.ephemeral_to}"
        if msg.channel_id == channel.id:
            return "channel"
        recipient = self.world.channel(msg.channel_id).recipient_id
        return f"dm:{recipient}" if recipient is not None else f"channel {msg.channel_id}"

    def texts(self, where: str) -> list[str]:
        """Every text recorded for one reader (see ``reader``)."""
        return [t for w, t in self.seen if w == where]

    def english(self, names: set[str], words: Iterable[str] = ENGLISH) -> dict[str, tuple[str, list[str]]]:
        """Each recorded text with English ``words`` left in it: where it was shown and the words."""
        words = frozenset(words)
        left: dict[str, tuple[str, list[str]]] = {}
        for where, text in self.seen:
            found = english_left(text, names, words)
            if found:
                left.setdefault(text, (where, found))
        if left and os.environ.get("VICEROY_I18N_DUMP"):  # for translators: every text left, one per line
            with open(os.environ["VICEROY_I18N_DUMP"], "a", encoding="utf-8") as dump:
                dump.write("".join(f"{found} {text!r}\n" for text, (_, found) in left.items()))
        return left


def sample(left: dict[str, tuple[str, list[str]]], n: int = 25) -> str:
    """A few of ``Messages.english``'s texts, for an assertion's message."""
    return "\n".join(f"[{w}] {found}: {t[:160]!r}" for t, (w, found) in list(left.items())[:n])
