"""Drafts: a seat's unfinished plan for its current prompt (card -> place -> rewards -> confirm).

A draft is a plain JSON dict that a PromptKind fills as the player clicks; ``draft["key"]`` is the prompt key
it belongs to. The service stores drafts in their own table, one per (game, seat), so a plan survives a
restart; a draft for an older prompt is never used (the prompt moved on), and a game's drafts are dropped
when it ends. A submitted sealed choice keeps its draft: the player may amend the same plan until the reveal.
"""

from __future__ import annotations

import json
from typing import Any

Draft = dict[str, Any]


def fresh_draft(prompt_key: str) -> Draft:
    return {"key": prompt_key}


def load_draft(raw: str | dict | None, prompt_key: str) -> Draft:
    """The stored draft if it belongs to ``prompt_key``, else a fresh one."""
    draft: Any = raw
    if isinstance(raw, str):
        try:
            draft = json.loads(raw)
        except ValueError:
            draft = None
    if isinstance(draft, dict) and draft.get("key") == prompt_key:
        return draft
    return fresh_draft(prompt_key)


def clear(draft: Draft) -> None:
    """Forget every choice, keep the prompt key and what the bot noted for the prompt (keys starting "_")."""
    for k in list(draft):
        if k != "key" and not k.startswith("_"):
            del draft[k]


RECAP = "_recap"  # the prompt's first line: what the previous round brought the seat (kept on every edit)
RECAP_OF = "_recap_of"  # the game version whose events the recap tells (see cogs/announcer.py recap_mark)


def dump(draft: Draft | None) -> str | None:
    return json.dumps(draft, separators=(",", ":")) if draft else None
