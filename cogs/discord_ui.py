"""Specs (bot/ui/spec.py) to discord.py objects and back: embeds, attachments, views, persistent controls.

Controls are DynamicItems made by one factory over the one id codec (bot/ui/ids.py), so a button or menu
on a message sent before a restart (or in the old `vg:`/`vs:`/`vl:`/`vc:` formats) still reaches its
handler. A click is handed to ``client.controls``, the object the bot names as its control handler (the
table cog), never a cog looked up by name.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import io
import re
import types
from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, catalogue, drawing, localize, reader, reading
from bot.ui import ids
from bot.ui.spec import Button, FormSpec, MessageSpec, Select, cut
from bot.ui.spec import Image as Picture
from rendering.words import drawn_in

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
DEFAULT_UPLOAD_LIMIT = 8 * 1024 * 1024
# Rendering runs off the event loop on its own thread: images are drawn one at a time (Pillow and FreeType
# are not meant to be shared across threads) and never take the default pool's threads, which aiohttp needs
# to open connections.
RENDER_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="gm-render")


def _handler(interaction: discord.Interaction) -> Any:
    return interaction.client.controls  # type: ignore[attr-defined]


def _dynamic(name: str, base: type, template: str, on_click: Callable[[Any, discord.Interaction, discord.ui.Item], Any]) -> type:
    """One persistent control class: matched by `template`, handled by `on_click(handler, interaction, item)`."""

    async def from_custom_id(cls: type, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> Any:
        return cls(item)

    async def callback(self: Any, interaction: discord.Interaction) -> None:
        await on_click(_handler(interaction), interaction, self.item)

    def __init__(self: Any, item: discord.ui.Item) -> None:
        discord.ui.DynamicItem.__init__(self, item)

    def body(ns: dict) -> None:
        ns.update({"__init__": __init__, "from_custom_id": classmethod(from_custom_id), "callback": callback,
                   "__module__": __name__, "__qualname__": name})

    return types.new_class(name, (discord.ui.DynamicItem[base],), {"template": template}, body)  # type: ignore[valid-type]


def _values(item: discord.ui.Item) -> list[str] | None:
    """A menu's chosen values; None for a button."""
    values = getattr(item, "values", None)
    return None if values is None else list(values)


# discord.py keys dynamic items by template, so one class per template serves buttons and menus alike.
PromptControl = _dynamic("PromptControl", discord.ui.Item, ids.SEATED_TEMPLATE,
                         lambda h, i, item: h.on_prompt_control(i, item.custom_id, list(getattr(item, "values", []))))
TableButton = _dynamic("TableButton", discord.ui.Item, ids.UNSEATED_TEMPLATE,
                       lambda h, i, item: h.on_table_control(i, item.custom_id, _values(item)))
DYNAMIC_ITEMS = (PromptControl, TableButton)


def _control_rows(rows: list[list[Button | Select]]) -> list[list[discord.ui.Item]]:
    """The buttons and menus of a spec as persistent discord.py items, a list per row (at most five), labelled
    in the current reader's language (bot.i18n.reading)."""
    locale, game = reader()
    if locale != DEFAULT_LOCALE:
        rows = localize(MessageSpec(rows=rows), locale, game).rows
    out: list[list[discord.ui.Item]] = []
    for row in rows[:5]:
        items: list[discord.ui.Item] = []
        for comp in row:
            if isinstance(comp, Button):
                item: discord.ui.Item = discord.ui.Button(label=cut(comp.label, 80), custom_id=comp.custom_id,
                                                          style=STYLES[comp.style], disabled=comp.disabled)
                control = ids.ControlId.decode(comp.custom_id)
                cls: type = PromptControl if control is not None and control.surface == "prompt" else TableButton
            else:
                # Cut again after translating: a translation may be longer than the English the spec was cut to,
                # and Discord refuses the whole message for one option over its limit.
                options = [discord.SelectOption(label=cut(o.label), value=o.value, default=o.default,
                                                description=cut(o.description) if o.description else o.description)
                           for o in comp.options]
                if not options:
                    continue
                item = discord.ui.Select(custom_id=comp.custom_id, options=options,
                                         placeholder=cut(comp.placeholder, 150) if comp.placeholder else None,
                                         min_values=comp.min_values, max_values=comp.max_values)
                control = ids.ControlId.decode(comp.custom_id)
                cls = TableButton if control is not None and control.surface in ("lobby", "table") else PromptControl
            items.append(cls(item))
        out.append(items)
    return out


def view_from_rows(rows: list[list[Button | Select]]) -> discord.ui.View | None:
    """The buttons and menus of a spec, labelled in the current reader's language (bot.i18n.reading)."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for r, items in enumerate(_control_rows(rows)):
        for item in items:
            item.row = r
            view.add_item(item)
    return view


def file_for(data: bytes, filename: str, limit: int, description: str | None = None) -> discord.File:
    """An image attachment; one over the upload limit degrades to a JPEG."""
    if len(data) > limit:
        from PIL import Image

        img = Image.open(io.BytesIO(data)).convert("RGB")
        quality = 85
        while True:
            out = io.BytesIO()
            img.save(out, "JPEG", quality=quality)
            if out.tell() <= limit or quality <= 30:
                break
            quality -= 15
            img = img.resize((img.width * 3 // 4, img.height * 3 // 4))
        data = out.getvalue()
        filename = filename.rsplit(".", 1)[0] + ".jpg"
    return discord.File(io.BytesIO(data), filename=filename, description=description)


def alt_text(spec: MessageSpec) -> str:
    """The alt text of a spec's picture: its own, or what the message says it is."""
    image = spec.image
    text = (image.alt if image is not None else "") or spec.title or ""
    if not text and image is not None:
        text = image.filename.rsplit(".", 1)[0].replace("_", " ")
    return text[:1024]


async def render(spec: MessageSpec, color: int, limit: int = DEFAULT_UPLOAD_LIMIT, *,
                 locale: str | None = None, game: str | None = None) -> tuple[discord.Embed | None, discord.File | None]:
    """The embed and attachment for a spec of ``game`` (its kind) in ``locale`` (None: the current reader's, see
    bot.i18n.reading); the picture is drawn off the event loop."""
    if locale is None:
        locale, game = reader()
    return await _render(localize(spec, locale, game), color, limit, locale, game)


async def draw_picture(image: Picture, locale: str, game: str | None) -> bytes:
    """A spec's picture drawn off the event loop, its words in ``locale`` (with the texts of ``game``)."""
    key, translate = drawing(locale, game)
    return await asyncio.get_running_loop().run_in_executor(RENDER_POOL, drawn_in(key, translate, image.render))


async def _render(spec: MessageSpec, color: int, limit: int, locale: str,
                  game: str | None) -> tuple[discord.Embed | None, discord.File | None]:
    """``render`` for a spec already in ``locale``."""
    embed = None
    if spec.title or spec.description or spec.fields or spec.image:
        embed = discord.Embed(title=spec.title, description=(spec.description or None),
                              color=spec.color if spec.color is not None else color)
        for name, value in spec.fields:
            embed.add_field(name=name, value=value[:1024] or "-", inline=False)
        if spec.footer:
            embed.set_footer(text=spec.footer)
    file = None
    if spec.image is not None:
        data = await draw_picture(spec.image, locale, game)
        file = file_for(data, spec.image.filename, limit, alt_text(spec))
        embed.set_image(url=f"attachment://{file.filename}")  # type: ignore[union-attr]
    return embed, file


async def message_kwargs(spec: MessageSpec, color: int, limit: int = DEFAULT_UPLOAD_LIMIT, *,
                         content: str | None = None, locale: str | None = None, game: str | None = None,
                         texts: bool = True) -> dict:
    """Keyword arguments for send(): content, embed, view and file (only those that are set), in ``locale``
    (with the texts of ``game``, its kind; None: the current reader's, see bot.i18n.reading). ``texts=False``:
    only the picture's words are in ``locale``, the texts stay English for ``localize_kwargs`` to translate on
    their way out (the announcer's messages, which it sends to readers of different languages)."""
    if locale is None:
        locale, game = reader()
    if texts:
        spec = localize(spec, locale, game)
    embed, file = await _render(spec, color, limit, locale, game)
    kwargs: dict = {}
    text = (catalogue(locale, game).text(content) if texts else content) if content is not None else spec.content
    if text:
        kwargs["content"] = text
    if embed is not None:
        kwargs["embed"] = embed
    view = view_from_rows(spec.rows)
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    return kwargs


V2_TEXT_MAX = 4000  # Discord: characters of all the text displays of a components V2 message together


def layout_from_spec(spec: MessageSpec, color: int, file: discord.File | None = None) -> discord.ui.LayoutView:
    """A spec (already in its reader's language) as a components V2 layout: one container in the game's
    colour holding the title as a heading, the text, each field, the picture in a media gallery (with its alt
    text), the footer in small print, and the buttons and menus in action rows."""
    texts = [f"## {spec.title}" if spec.title else "", spec.content or "", spec.description or ""]
    texts += [f"**{name}**\n{value}" for name, value in spec.fields]
    texts.append(f"-# {spec.footer}" if spec.footer else "")
    container: discord.ui.Container = discord.ui.Container(
        accent_colour=spec.color if spec.color is not None else color)
    room = V2_TEXT_MAX
    for text in texts:
        if text and room > 1:
            text = cut(text, room)
            container.add_item(discord.ui.TextDisplay(text))
            room -= len(text)
    if file is not None:
        container.add_item(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{file.filename}", description=file.description)))
    for items in _control_rows(spec.rows):
        if items:
            container.add_item(discord.ui.ActionRow(*items))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


async def layout_kwargs(spec: MessageSpec, color: int, limit: int = DEFAULT_UPLOAD_LIMIT, *,
                        locale: str | None = None, game: str | None = None) -> dict:
    """Keyword arguments for send() or an edit that show ``spec`` as a components V2 message: view and, with a
    picture, file; never content or embeds, which Discord refuses beside the IS_COMPONENTS_V2 flag (discord.py
    sets it for a LayoutView). In ``locale`` (None: the current reader's, see bot.i18n.reading)."""
    if locale is None:
        locale, game = reader()
    with reading(locale, game):
        spec = localize(spec, locale, game)
        file = None
        if spec.image is not None:
            data = await draw_picture(spec.image, locale, game)
            file = file_for(data, spec.image.filename, limit, alt_text(spec))
        kwargs: dict = {"view": layout_from_spec(spec, color, file)}
    if file is not None:
        kwargs["file"] = file
    return kwargs


def shown_picture(message: discord.Message | None, filename: str | None = None, *,
                  index: int = 0) -> discord.Attachment | None:
    """The file ``message``'s embed (the first, or ``index``) shows (``filename``, if given), as an attachment
    an edit can keep.

    Discord lists no file an embed shows among the message's attachments and resolves ``attachment://name``
    only against the files of the same request; an edit keeps a picture by naming its attachment id in the
    ``attachments`` list, and that id is in the URL Discord returns for the embed's image
    (``.../attachments/<channel>/<attachment>/<name>``)."""
    if message is None or len(message.embeds) <= index or not message.embeds[index].image:
        return None
    url = message.embeds[index].image.url or ""
    parts = url.split("?", 1)[0].split("/")
    if len(parts) < 4 or parts[-4] != "attachments" or not parts[-2].isdigit():
        return None
    name = parts[-1]
    if filename is not None and name != filename:
        return None
    data = {"id": parts[-2], "filename": name, "size": 0, "url": url, "proxy_url": url}
    return discord.Attachment(data=data, state=message._state)  # type: ignore[arg-type]


def merge_kwargs(*parts: dict) -> dict:
    """Several messages' keyword arguments (message_kwargs) as one message: their embeds and files in order,
    the first content and the first view (a prompt with the player's screen under it; the final post)."""
    out: dict = {}
    embeds = [p["embed"] for p in parts if p.get("embed") is not None]
    files = [p["file"] for p in parts if p.get("file") is not None]
    for key in ("content", "view"):
        value = next((p[key] for p in parts if p.get(key) is not None), None)
        if value is not None:
            out[key] = value
    if embeds:
        out["embeds"] = embeds
    if files:
        out["files"] = files
    return out


def digest(file: discord.File | None) -> str | None:
    """A fingerprint of an attachment's bytes: a picture drawn again the same need not be uploaded again."""
    fp = getattr(file, "fp", None)
    if not isinstance(fp, io.BytesIO):
        return None
    return hashlib.blake2b(fp.getbuffer(), digest_size=16).hexdigest()


def refile(file: discord.File | None, files: list[discord.File] | None = None) -> Callable[[], dict]:
    """A factory of fresh copies of an attachment (or of a list of them): discord.py closes a file once it has
    tried to send it."""
    if file is None and not files:
        return dict
    copies = [(f.fp.read(), f.filename, f.description) for f in ([file] if file is not None else files or [])]

    def fresh() -> dict:
        made = [discord.File(io.BytesIO(data), filename=name, description=description)
                for data, name, description in copies]
        return {"file": made[0]} if file is not None else {"files": made}

    return fresh


class FormModal(discord.ui.Modal):
    """A form from a FormSpec. Submissions are handled in the cog's ``on_interaction`` (by custom id), so a
    form opened before a restart still works."""

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None


def modal(spec: FormSpec) -> discord.ui.Modal:
    form = FormModal(title=spec.title, custom_id=spec.custom_id, timeout=None)
    for f in spec.fields:
        # Label components: Discord's current form of a modal field (action-row text inputs are deprecated).
        form.add_item(discord.ui.Label(text=f.label, component=discord.ui.TextInput(
            custom_id=f.id, default=f.default, max_length=f.max_length, required=f.required)))
    return form


def form_values(data: dict) -> dict[str, str]:
    """Field id -> value of a submitted modal: a Label's input arrives under ``component``, an action row's
    (the older form, still sent by modals opened before an upgrade) under ``components``."""
    values: dict[str, str] = {}
    for top in data.get("components", []):
        if isinstance(top.get("component"), dict):
            inner = [top["component"]]
        else:
            inner = top.get("components", [top])
        for comp in inner:
            if "custom_id" in comp:
                values[comp["custom_id"]] = comp.get("value", "")
    return values


_HEADING = re.compile(r"(?:#{1,3}|-#) ")


def _localize_embed(embed: discord.Embed, text: Callable[[str | None], str | None]) -> discord.Embed:
    out = embed.copy()
    out.title = text(embed.title)
    out.description = text(embed.description)
    out.clear_fields()
    for f in embed.fields:
        out.add_field(name=text(f.name) or "-", value=(text(f.value) or "-")[:1024], inline=f.inline)
    if embed.footer and embed.footer.text:
        out.set_footer(text=text(embed.footer.text), icon_url=embed.footer.icon_url)
    return out


def _localize_item(item: discord.ui.Item, text: Callable[[str | None], str | None]) -> None:
    inner = getattr(item, "item", item)  # a dynamic item wraps the button or menu
    if isinstance(inner, discord.ui.Button) and inner.label:
        inner.label = (text(inner.label) or inner.label)[:80]
    elif isinstance(inner, discord.ui.Select):
        if inner.placeholder:
            inner.placeholder = (text(inner.placeholder) or inner.placeholder)[:150]
        for option in inner.options:
            option.label = (text(option.label) or option.label)[:100]
            if option.description:
                option.description = (text(option.description) or option.description)[:100]


def localize_kwargs(kwargs: dict, locale: str, game: str | None = None) -> dict:
    """send()/edit() keyword arguments with their texts in ``locale``: content, embeds, buttons and menus.
    The one place every message passes on its way to a channel or a DM (custom ids never change)."""
    cat = catalogue(locale, game)
    if cat.is_source:
        return kwargs
    out = dict(kwargs)
    if isinstance(out.get("content"), str):
        out["content"] = cat.text(out["content"])
    if isinstance(out.get("embed"), discord.Embed):
        out["embed"] = _localize_embed(out["embed"], cat.text)
    if isinstance(out.get("embeds"), list):
        out["embeds"] = [_localize_embed(e, cat.text) if isinstance(e, discord.Embed) else e for e in out["embeds"]]
    for file in ([out["file"]] if isinstance(out.get("file"), discord.File) else []) + \
            [f for f in out.get("files") or [] if isinstance(f, discord.File)]:
        if file.description:  # a picture's alt text
            file.description = cat.text(file.description)
    view = out.get("view")
    if isinstance(view, discord.ui.View):
        for child in view.children:
            _localize_item(child, cat.text)
    elif isinstance(view, discord.ui.LayoutView):  # a components V2 layout: its texts, alt texts and controls
        for child in view.walk_children():
            if isinstance(child, discord.ui.TextDisplay):
                head = _HEADING.match(child.content)  # a heading's or small print's mark stays as it is
                mark = head.group(0) if head else ""
                child.content = mark + (cat.text(child.content[len(mark):]) or child.content[len(mark):])
            elif isinstance(child, discord.ui.MediaGallery):
                for item in child.items:
                    item.description = cat.text(item.description) if item.description else item.description
            else:
                _localize_item(child, cat.text)
    return out
