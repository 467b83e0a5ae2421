"""Discord's documented limits on what a bot sends, checked the way Discord checks them.

Each ``check_*`` function adds problems to a :class:`FormErrors`; the server turns a non-empty one into
Discord's ``400 {"code": 50035, "message": "Invalid Form Body", "errors": {...}}`` whose nested ``errors``
name the offending field (discord.py prints them as ``In embeds.0.title: Must be 256 or fewer in length.``).
Limits are from Discord's API reference and its OpenAPI description (``/work/shared/reference``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

# Names of the switchable checks (``FakeDiscord.checks``).
LIMITS = "limits"                      # content, embeds, files
COMPONENTS = "components"              # action rows, buttons, selects, unique custom ids
COMPONENTS_V2 = "components_v2"        # IS_COMPONENTS_V2 messages
MODALS = "modals"                      # modal callbacks
ATTACHMENTS = "attachments"            # attachment:// resolves only against this request's files
EMBEDDED_FILES = "embedded_files"      # files an embed shows are not listed in the message's attachments
PERMISSIONS = "permissions"            # channel permissions of the bot (50001, 50013)
DMS = "dms"                            # 50278 no mutual guild, 40003 opening DMs too fast
RATE_LIMITS = "rate_limits"            # per-route and global buckets, X-RateLimit-* headers, 429
INTERACTION_WINDOW = "interaction_window"  # 3 s from the click, gateway latency included
OLD_MESSAGE_EDITS = "old_message_edits"    # 30046 for messages older than an hour

ALL_CHECKS = frozenset({LIMITS, COMPONENTS, COMPONENTS_V2, MODALS, ATTACHMENTS, EMBEDDED_FILES, PERMISSIONS, DMS,
                        RATE_LIMITS, INTERACTION_WINDOW, OLD_MESSAGE_EDITS})

FLAG_COMPONENTS_V2 = 1 << 15

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_URL_MAX = 2048
EMBEDS_TOTAL_MAX = 6000
FILES_MAX = 10
ATTACHMENT_DESCRIPTION_MAX = 1024
ACTION_ROWS_MAX = 5
ROW_COMPONENTS_MAX = 5
CUSTOM_ID_MAX = 100
NONCE_MAX = 25  # characters of a message nonce (create message)
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
OPTION_TEXT_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
MODAL_LABEL_MAX = 45
LABEL_DESCRIPTION_MAX = 100
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
SECTION_TEXTS_MAX = 3
GALLERY_ITEMS_MAX = 10

SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TOP_TYPES = (1, 9, 10, 12, 13, 14, 17)
V2_CONTAINER_TYPES = (1, 9, 10, 12, 13, 14)
LABEL_CHILD_TYPES = (3, 4, 5, 6, 7, 8, 19, 21, 22, 23)

Path = tuple[str | int, ...]


class FormErrors:
    """Problems found in one request body, by field path."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((tuple(path), code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def nested(self) -> dict[str, Any]:
        """Discord's shape: ``{"embeds": {"0": {"title": {"_errors": [{"code", "message"}]}}}}``."""
        root: dict[str, Any] = {}
        for path, code, message in self.items:
            node = root
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        return "; ".join(f"{'.'.join(map(str, p)) or '(body)'}: {m}" for p, _, m in self.items)


def _length(errors: FormErrors, path: Path, value: Any, maximum: int, minimum: int = 0) -> None:
    if value is None:
        return
    n = len(value)
    if minimum and not minimum <= n <= maximum:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {maximum} in length.")
    elif n > maximum:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")


def _count(errors: FormErrors, path: Path, items: list[Any] | None, maximum: int, minimum: int = 0) -> None:
    if items is None:
        return
    if not minimum <= len(items) <= maximum:
        if minimum:
            errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {maximum} in length.")
        else:
            errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")


# ================================================================================================ limits
def check_limits(errors: FormErrors, body: dict[str, Any], files: dict[int, Any]) -> None:
    """Content, embeds (each field and the 6,000-character total), number of files."""
    _length(errors, ("content",), body.get("content"), CONTENT_MAX)
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        _count(errors, ("embeds",), embeds, EMBEDS_MAX)
        total = 0
        for i, embed in enumerate(embeds):
            total += _check_embed(errors, ("embeds", i), embed or {})
        if total > EMBEDS_TOTAL_MAX:
            errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                       f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}")
    if len(files) > FILES_MAX:
        errors.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length.")
    _count(errors, ("attachments",), body.get("attachments"), FILES_MAX)
    for i, att in enumerate(body.get("attachments") or []):
        if isinstance(att, dict):  # the alt text
            _length(errors, ("attachments", i, "description"), att.get("description"), ATTACHMENT_DESCRIPTION_MAX)


def _check_embed(errors: FormErrors, path: Path, embed: dict[str, Any]) -> int:
    """Checks one embed; returns the characters it counts toward the 6,000 total."""
    total = 0
    for key, maximum in (("title", EMBED_TITLE_MAX), ("description", EMBED_DESCRIPTION_MAX),
                         ("url", EMBED_URL_MAX)):
        _length(errors, (*path, key), embed.get(key), maximum)
    total += len(embed.get("title") or "") + len(embed.get("description") or "")
    fields = embed.get("fields")
    if isinstance(fields, list):
        _count(errors, (*path, "fields"), fields, EMBED_FIELDS_MAX)
        for j, fld in enumerate(fields):
            for key, maximum in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
                value = (fld or {}).get(key)
                if value is None or value == "":
                    errors.add((*path, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required")
                else:
                    _length(errors, (*path, "fields", j, key), value, maximum)
                    total += len(value)
    footer = embed.get("footer") or {}
    _length(errors, (*path, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX)
    total += len(footer.get("text") or "")
    author = embed.get("author") or {}
    _length(errors, (*path, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX)
    total += len(author.get("name") or "")
    return total


# ============================================================================================ components
def walk(items: Iterable[dict[str, Any]], path: Path = ("components",)) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every component with its path, whatever the nesting (rows, containers, sections, labels)."""
    for i, comp in enumerate(items):
        if not isinstance(comp, dict):
            continue
        here = (*path, i)
        yield here, comp
        if isinstance(comp.get("components"), list):
            yield from walk(comp["components"], (*here, "components"))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield (*here, key), comp[key]
                inner = comp[key]
                if isinstance(inner.get("components"), list):
                    yield from walk(inner["components"], (*here, key, "components"))


def _unique_ids(errors: FormErrors, components: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for path, comp in walk(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            errors.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        seen.add(cid)


def _check_button(errors: FormErrors, path: Path, comp: dict[str, Any]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
    _length(errors, (*path, "label"), comp.get("label"), BUTTON_LABEL_MAX)
    if style == 5:
        if not comp.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if comp.get("custom_id") is not None:
            errors.add((*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                       "A link button cannot have a custom id")
    elif style == 6:
        if not comp.get("sku_id"):
            errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        if not comp.get("custom_id"):
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if not comp.get("label") and not comp.get("emoji"):
            errors.add((*path, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
    if comp.get("custom_id") is not None:
        _length(errors, (*path, "custom_id"), comp.get("custom_id"), CUSTOM_ID_MAX, 1)


def _check_select(errors: FormErrors, path: Path, comp: dict[str, Any], *, in_modal: bool = False) -> None:
    _length(errors, (*path, "custom_id"), comp.get("custom_id") or "", CUSTOM_ID_MAX, 1)
    _length(errors, (*path, "placeholder"), comp.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    lo = comp.get("min_values", 1)
    hi = comp.get("max_values", 1)
    lo = 1 if lo is None else lo
    hi = 1 if hi is None else hi
    if not 0 <= lo <= SELECT_OPTIONS_MAX:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", f"int value should be between 0 and {SELECT_OPTIONS_MAX}.")
    if not 1 <= hi <= SELECT_OPTIONS_MAX:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", f"int value should be between 1 and {SELECT_OPTIONS_MAX}.")
    if lo > hi:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
                   "min_values must be less than or equal to max_values")
    if comp.get("type") == 3:
        options = comp.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            errors.add((*path, "options"), "BASE_TYPE_BAD_LENGTH",
                       f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.")
            options = options if isinstance(options, list) else []
        values: set[str] = set()
        for j, opt in enumerate(options):
            opt = opt or {}
            _length(errors, (*path, "options", j, "label"), opt.get("label") or "", OPTION_TEXT_MAX, 1)
            _length(errors, (*path, "options", j, "value"), opt.get("value") or "", OPTION_TEXT_MAX, 1)
            _length(errors, (*path, "options", j, "description"), opt.get("description"), OPTION_TEXT_MAX)
            if opt.get("value") in values:
                errors.add((*path, "options", j, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                           "Select option values must be unique")
            values.add(opt.get("value"))
        if options and hi > len(options):
            errors.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                       "max_values must be less than or equal to the number of options")


def _check_row(errors: FormErrors, path: Path, row: dict[str, Any]) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not 1 <= len(children) <= ROW_COMPONENTS_MAX:
        errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH",
                   f"Must be between 1 and {ROW_COMPONENTS_MAX} in length.")
        children = children if isinstance(children, list) else []
    types = [c.get("type") for c in children if isinstance(c, dict)]
    if any(t in SELECT_TYPES for t in types) and len(types) > 1:
        errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                   "The specified component exceeds the maximum width")
    for j, child in enumerate(children):
        cpath = (*path, "components", j)
        ctype = child.get("type")
        if ctype == 2:
            _check_button(errors, cpath, child)
        elif ctype in SELECT_TYPES:
            _check_select(errors, cpath, child)
        else:
            errors.add((*cpath, "type"), "UNION_TYPE_CHOICES",
                       f"Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8), got {ctype!r}.")


def check_components(errors: FormErrors, components: list[dict[str, Any]] | None, flags: int) -> None:
    """Classic (non-V2) message components: at most five action rows of at most five buttons, or one select."""
    if components is None or flags & FLAG_COMPONENTS_V2:
        return
    _count(errors, ("components",), components, ACTION_ROWS_MAX)
    for i, row in enumerate(components):
        path: Path = ("components", i)
        if row.get("type") in V2_TOP_TYPES and row.get("type") != 1:
            continue  # a layout component: the IS_COMPONENTS_V2 check names the missing flag
        if row.get("type") != 1:
            errors.add((*path, "type"), "COMPONENT_TYPE_INVALID",
                       "Only action rows are allowed at the top level without the IS_COMPONENTS_V2 flag")
            continue
        _check_row(errors, path, row)
    _unique_ids(errors, components)


def check_components_v2(errors: FormErrors, body: dict[str, Any], flags: int) -> None:
    """IS_COMPONENTS_V2 messages: no content, embeds, stickers or polls; 40 components; their own types."""
    if not flags & FLAG_COMPONENTS_V2:
        return
    for key in ("content", "embeds", "sticker_ids", "poll"):
        if body.get(key):
            errors.add((key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                       f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    components = body.get("components")
    if components is None:
        return
    everything = list(walk(components))
    if len(everything) > V2_COMPONENTS_MAX:
        errors.add(("components",), "MAX_COMPONENTS",
                   f"A message can have at most {V2_COMPONENTS_MAX} components (has {len(everything)})")
    text_total = 0
    for i, comp in enumerate(components):
        if comp.get("type") not in V2_TOP_TYPES:
            errors.add(("components", i, "type"), "UNION_TYPE_CHOICES",
                       f"Value of field \"type\" must be one of {V2_TOP_TYPES}.")
    for path, comp in everything:
        ctype = comp.get("type")
        if ctype == 1:
            _check_row(errors, path, comp)
        elif ctype == 17:
            children = comp.get("components")
            _count(errors, (*path, "components"), children if isinstance(children, list) else [], 40, 1)
            for j, child in enumerate(children or []):
                if child.get("type") not in V2_CONTAINER_TYPES:
                    errors.add((*path, "components", j, "type"), "UNION_TYPE_CHOICES",
                               f"Value of field \"type\" must be one of {V2_CONTAINER_TYPES}.")
        elif ctype == 9:
            texts = comp.get("components")
            _count(errors, (*path, "components"), texts if isinstance(texts, list) else [], SECTION_TEXTS_MAX, 1)
            for j, child in enumerate(texts or []):
                if child.get("type") != 10:
                    errors.add((*path, "components", j, "type"), "UNION_TYPE_CHOICES",
                               "A section holds text displays only.")
            accessory = comp.get("accessory")
            if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
                errors.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "A section needs a button or thumbnail accessory")
        elif ctype == 10:
            content = comp.get("content") or ""
            _length(errors, (*path, "content"), content, V2_TEXT_MAX, 1)
            text_total += len(content)
        elif ctype == 12:
            items = comp.get("items")
            _count(errors, (*path, "items"), items if isinstance(items, list) else [], GALLERY_ITEMS_MAX, 1)
            for j, item in enumerate(items or []):
                if not ((item or {}).get("media") or {}).get("url"):
                    errors.add((*path, "items", j, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif ctype == 11:
            if not (comp.get("media") or {}).get("url"):
                errors.add((*path, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif ctype == 13:
            url = (comp.get("file") or {}).get("url") or ""
            if not url.startswith("attachment://"):
                errors.add((*path, "file", "url"), "FILE_COMPONENT_ATTACHMENT_REQUIRED",
                           "A file component must reference an attachment (attachment://name)")
        elif ctype == 2 and path[-1] == "accessory":
            _check_button(errors, path, comp)
    if text_total > V2_TEXT_MAX:
        errors.add(("components",), "MAX_TEXT_DISPLAY_LENGTH",
                   f"The text of all text displays together must be {V2_TEXT_MAX} or fewer characters")
    _unique_ids(errors, components)


# ================================================================================================ modals
def check_modal(errors: FormErrors, data: dict[str, Any]) -> list[str]:
    """A modal callback's data. Returns notes about deprecated forms (action-row text inputs)."""
    notes: list[str] = []
    _length(errors, ("data", "custom_id"), data.get("custom_id") or "", CUSTOM_ID_MAX, 1)
    _length(errors, ("data", "title"), data.get("title") or "", MODAL_TITLE_MAX, 1)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                   f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length.")
        components = components if isinstance(components, list) else []
    for i, top in enumerate(components):
        path: Path = ("data", "components", i)
        ttype = top.get("type")
        if ttype == 1:
            notes.append("modal action rows with text inputs are deprecated: use Label components")
            children = top.get("components")
            if not isinstance(children, list) or len(children) != 1 or children[0].get("type") != 4:
                errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH",
                           "A modal action row holds exactly one text input")
                continue
            _check_text_input(errors, (*path, "components", 0), children[0], label_required=True)
        elif ttype == 18:
            _length(errors, (*path, "label"), top.get("label") or "", MODAL_LABEL_MAX, 1)
            _length(errors, (*path, "description"), top.get("description"), LABEL_DESCRIPTION_MAX)
            child = top.get("component")
            if not isinstance(child, dict) or child.get("type") not in LABEL_CHILD_TYPES:
                errors.add((*path, "component"), "UNION_TYPE_CHOICES",
                           f"A label holds one of {LABEL_CHILD_TYPES}")
            elif child.get("type") == 4:
                _check_text_input(errors, (*path, "component"), child, label_required=False)
            elif child.get("type") in SELECT_TYPES:
                _check_select(errors, (*path, "component"), child, in_modal=True)
        elif ttype == 10:
            _length(errors, (*path, "content"), top.get("content") or "", V2_TEXT_MAX, 1)
        else:
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1, 10, 18).")
    seen: set[str] = set()
    for path, comp in walk(components, ("data", "components")):
        cid = comp.get("custom_id")
        if cid is not None:
            if cid in seen:
                errors.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                           "Component custom id cannot be duplicated")
            seen.add(cid)
    return notes


def _check_text_input(errors: FormErrors, path: Path, comp: dict[str, Any], *, label_required: bool) -> None:
    _length(errors, (*path, "custom_id"), comp.get("custom_id") or "", CUSTOM_ID_MAX, 1)
    if comp.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    if label_required:
        _length(errors, (*path, "label"), comp.get("label") or "", MODAL_LABEL_MAX, 1)
    else:
        _length(errors, (*path, "label"), comp.get("label"), MODAL_LABEL_MAX)
    _length(errors, (*path, "value"), comp.get("value"), TEXT_INPUT_VALUE_MAX)
    _length(errors, (*path, "placeholder"), comp.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)
    lo, hi = comp.get("min_length"), comp.get("max_length")
    if lo is not None and not 0 <= lo <= TEXT_INPUT_VALUE_MAX:
        errors.add((*path, "min_length"), "NUMBER_TYPE_MAX", "int value should be between 0 and 4000.")
    if hi is not None and not 1 <= hi <= TEXT_INPUT_VALUE_MAX:
        errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", "int value should be between 1 and 4000.")
    if lo is not None and hi is not None and lo > hi:
        errors.add((*path, "min_length"), "TEXT_INPUT_MIN_GREATER_THAN_MAX", "min_length must not exceed max_length")


# =========================================================================================== attachments
def attachment_refs(body: dict[str, Any]) -> list[tuple[Path, str]]:
    """Every ``attachment://name`` the body points at (embed images, icons, V2 media), with its path."""
    refs: list[tuple[Path, str]] = []

    def take(path: Path, url: Any) -> None:
        if isinstance(url, str) and url.startswith("attachment://"):
            refs.append((path, url.removeprefix("attachment://")))

    for i, embed in enumerate(body.get("embeds") or []):
        embed = embed or {}
        for key in ("image", "thumbnail"):
            take(("embeds", i, key, "url"), (embed.get(key) or {}).get("url"))
        take(("embeds", i, "author", "icon_url"), (embed.get("author") or {}).get("icon_url"))
        take(("embeds", i, "footer", "icon_url"), (embed.get("footer") or {}).get("icon_url"))
    for path, comp in walk(body.get("components") or []):
        if comp.get("type") == 11:
            take((*path, "media", "url"), (comp.get("media") or {}).get("url"))
        elif comp.get("type") == 12:
            for j, item in enumerate(comp.get("items") or []):
                take((*path, "items", j, "media", "url"), ((item or {}).get("media") or {}).get("url"))
        elif comp.get("type") == 13:
            take((*path, "file", "url"), (comp.get("file") or {}).get("url"))
    return refs


def check_attachment_refs(errors: FormErrors, body: dict[str, Any], available: set[str]) -> None:
    """Each ``attachment://name`` must name a file of this request (uploaded now, or kept by the edit's
    ``attachments`` list): Discord resolves nothing else."""
    for path, name in attachment_refs(body):
        if name not in available:
            errors.add(path, "ATTACHMENT_NOT_FOUND",
                       f"attachment://{name} names no file uploaded in this request or kept in its attachments list")


# ============================================================================================== commands
# Discord's locales (the keys of name_localizations / description_localizations).
LOCALES = frozenset({"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
                     "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
                     "ja", "zh-TW", "ko"})
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICE_NAME_MAX = 100


def _check_name(errors: FormErrors, path: Path, name: Any) -> None:
    # Chat input names: 1-32 word characters or dashes, lower case where the script has cases.
    if not isinstance(name, str) or not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_localizations(errors: FormErrors, path: Path, item: dict[str, Any], key: str, *, name: bool,
                         maximum: int = COMMAND_DESCRIPTION_MAX) -> None:
    values = item.get(key)
    if values is None:
        return
    if not isinstance(values, dict):
        errors.add((*path, key), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, value in values.items():
        if locale not in LOCALES:
            errors.add((*path, key, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}")
        elif name:
            _check_name(errors, (*path, key, locale), value)
        else:
            _length(errors, (*path, key, locale), value, maximum, 1)


def check_command(errors: FormErrors, path: Path, cmd: dict[str, Any]) -> None:
    """A chat-input command (or one of its options), its localised names and descriptions, recursively."""
    _check_name(errors, (*path, "name"), cmd.get("name"))
    _length(errors, (*path, "description"), cmd.get("description") or "", COMMAND_DESCRIPTION_MAX, 1)
    _check_localizations(errors, path, cmd, "name_localizations", name=True)
    _check_localizations(errors, path, cmd, "description_localizations", name=False)
    options = cmd.get("options") or []
    _count(errors, (*path, "options"), options, COMMAND_OPTIONS_MAX)
    for i, option in enumerate(options):
        check_command(errors, (*path, "options", i), option)
    for i, choice in enumerate(cmd.get("choices") or []):
        _length(errors, (*path, "choices", i, "name"), choice.get("name"), CHOICE_NAME_MAX, 1)
        _check_localizations(errors, (*path, "choices", i), choice, "name_localizations", name=False,
                             maximum=CHOICE_NAME_MAX)
