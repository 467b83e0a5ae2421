"""A game's rules page for ``/<game> rules``, in the reader's language.

The English page is ``data/<game>/rules.md``; a translation lies beside it as ``rules.<locale>.md``
(``rules.sv.md``). Each ``## `` heading starts a topic, the text before the first one is the overview. A
translated heading names the English heading it translates in a comment (``## Kostnader <!-- Costs -->``), so
that a topic is found by the same English word (the slash command's choice) in every language; a section the
translation lacks is shown in English.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from bot.i18n import DEFAULT_LOCALE, reader

_SOURCE = re.compile(r"\s*<!--\s*(.*?)\s*-->\s*$")


def _parse(text: str, skip: tuple[str, ...]) -> dict[str, str]:
    """English heading (lower case) -> section text, its heading in bold on the first line."""
    sections: dict[str, str] = {}
    key, body = "overview", []
    for line in text.splitlines():
        if line.startswith("## "):
            sections[key] = "\n".join(body).strip()
            heading = line[3:].strip()
            source = _SOURCE.search(heading)
            if source:
                heading = heading[:source.start()].strip()
            key, body = (source.group(1) if source else heading).lower(), [f"**{heading}**"]
        elif not line.startswith("# "):
            body.append(line)
    sections[key] = "\n".join(body).strip()
    for name in skip:
        sections.pop(name, None)
    return sections


@lru_cache(maxsize=32)
def sections(package: str, locale: str = DEFAULT_LOCALE, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """The sections of a rules page (``package``: "data.viceroy"), English where a translation lacks one, in the
    English page's order (``skip``: English headings that are not for players)."""
    root = resources.files(package)
    try:
        english = _parse(root.joinpath("rules.md").read_text(encoding="utf-8"), skip)
    except (FileNotFoundError, OSError):
        return {}
    if locale == DEFAULT_LOCALE:
        return english
    try:
        local = _parse(root.joinpath(f"rules.{locale}.md").read_text(encoding="utf-8"), skip)
    except (FileNotFoundError, OSError):
        return english
    merged = {key: local.get(key) or body for key, body in english.items()}
    merged.update({key: body for key, body in local.items() if key not in merged})  # e.g. the bot's help
    return merged


def find(package: str, topic: str, locale: str | None = None, skip: tuple[str, ...] = ()) -> str | None:
    """The section whose English heading contains ``topic`` (the overview for "overview"), in ``locale`` (None:
    the current reader's); None when there is none."""
    locale = locale or reader()[0]
    topic = (topic or "overview").lower().strip()
    pages = sections(package, locale, skip)
    if topic == "overview":
        return pages.get("overview") or None
    for key, body in pages.items():
        if topic in key and body:
            return body
    return None

