"""The Discord permissions the bot needs, and its invite link.

The bot only ever writes its own messages in the game channel: the lobby, the table message with its image,
reveals, pings for players with closed DMs and the final score sheet. Everything else (prompts, screens,
refusals) goes by DM or as an interaction reply, which needs no channel permission at all. So the channel
needs exactly:

* View Channel (1 << 10): see the channel at all (without it every request answers 50001 Missing Access);
* Send Messages (1 << 11): post the lobby, the table and the reveals;
* Embed Links (1 << 14): every channel post is an embed;
* Attach Files (1 << 15): the table and score-sheet images are uploads;
* Send Messages in Threads (1 << 38): the same posts when a game is started inside a thread.

Not requested, because the bot never uses them: Read Message History (it edits its own messages by id and
never reads the channel), Add Reactions, Use External Emojis (its buttons use plain Unicode), Manage
Messages, Mention Everyone, and every privileged intent.
"""

from __future__ import annotations

from urllib.parse import urlencode

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38

NAMES: dict[int, str] = {
    VIEW_CHANNEL: "View Channel",
    SEND_MESSAGES: "Send Messages",
    EMBED_LINKS: "Embed Links",
    ATTACH_FILES: "Attach Files",
    SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
}

# What a game channel must grant the bot (52224).
CHANNEL_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
# In a thread, Send Messages in Threads replaces Send Messages.
THREAD_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS | EMBED_LINKS | ATTACH_FILES
# The integer in the invite link: everything either kind of game channel needs (274877959168).
INVITE_PERMISSIONS = CHANNEL_PERMISSIONS | THREAD_PERMISSIONS

INVITE_SCOPES = ("bot", "applications.commands")


def missing_permissions(granted: int, *, thread: bool = False) -> list[str]:
    """Names of the permissions the bot lacks in a channel, given its permission integer there
    (an interaction's ``app_permissions``); empty when it can play there. Administrator grants all."""
    if granted & (1 << 3):
        return []
    need = THREAD_PERMISSIONS if thread else CHANNEL_PERMISSIONS
    return [name for bit, name in NAMES.items() if need & bit and not granted & bit]


def invite_url(application_id: int, permissions: int = INVITE_PERMISSIONS) -> str:
    """The link a server owner opens to add the bot with exactly the permissions it needs."""
    query = urlencode({"client_id": str(application_id), "permissions": str(permissions),
                       "integration_type": "0", "scope": " ".join(INVITE_SCOPES)})
    return f"https://discord.com/oauth2/authorize?{query}"
