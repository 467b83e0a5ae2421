"""The translation catalogue: every player-facing text goes through it on its way to Discord.

English is the source language and its texts are the message ids (as with gettext): a catalogue maps an
English text or *template* to the target language, e.g. ``"{who} passes." -> "{who} passar."``. Texts are
translated in two ways, both from the same catalogue:

- ``tr(locale, template, **values)`` before formatting (the bot's own texts);
- ``Catalogue.text(text)`` after formatting, for texts that reach the bot already written, such as the engines'
  log lines (engines stay pure and language-free): each line is matched whole against the catalogue's entries
  (``{n}``, ``{m}``, ``{k}`` match a whole number,
  ``{colour}``, ``{cell}``, ``{kind}``, ``{side}``, ``{d}`` one word, ``{spot}`` a board square such as ``A1``,
  other placeholders any run of characters), then sentence by sentence, then part by part (``; `` and `` · ``), then sentence by sentence, then item by item (``, ``).
  A matched placeholder's value is itself translated when the catalogue knows it (colours, card names), and is
  kept as it is otherwise (player names, numbers).

Catalogues live in ``data/i18n/<locale>/``: ``common.json`` (what every game shares), ``commands.json`` (slash
commands) and one file per game named after its kind (``viceroy.json``), so that each slice owns its texts and a
game can word a shared text its own way; each file is ``{"entries": {english: translation}}``. A locale without a catalogue is English.
``Catalogue.missing`` lists what a text leaves untranslated, which the language tests scan every message for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from bot.ui.spec import Button, Option, Select

DEFAULT_LOCALE = "en"
# The languages a player or server can choose, with their names in their own language.
LANGUAGES: dict[str, str] = {"en": "English", "sv": "Svenska"}

_PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
_PREFIX = re.compile(r"^(\s*(?:[-•*>] |#{1,3} |\d+\. )?)")
_SENTENCE = re.compile(r"(?<=[.!?:])\s+(?=\S)")
_PART = re.compile(r"(; | · | \| )")
_ITEM = re.compile(r"(, )")
_WORDLESS = re.compile(r"^[\W\d_]*$")
_MARK = re.compile(r"^(\*\*|__|\*|_|`)(.+)\1$")


def locale_of(discord_locale: object) -> str:
    """The catalogue for a Discord locale (``sv-SE`` -> ``sv``, ``en-GB`` -> ``en``); unknown ones are English."""
    text = str(getattr(discord_locale, "value", discord_locale) or "").lower()
    code = text.split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT_LOCALE


@dataclass(frozen=True)
class _Template:
    pattern: re.Pattern[str]
    names: tuple[str, ...]
    target: str
    literal: int  # how many characters of the English text are not placeholders
    spans: bool  # its own text runs across a sentence break ("{who} plays {card}, top line: {k} tokens.")




def _compile(source: str, target: str) -> _Template:
    names: list[str] = []
    parts: list[str] = []
    pos = 0
    joins = bool(_JOIN.fullmatch(source))
    for m in _PLACEHOLDER.finditer(source):
        parts.append(re.escape(source[pos:m.start()]))
        name = m.group(1)
        if name in names:  # the same value twice: a backreference
            parts.append(f"(?P={name})")
        else:
            names.append(name)
            parts.append(f"(?P<{name}>{_pattern(name, joins)})")
        pos = m.end()
    parts.append(re.escape(source[pos:]))
    return _Template(re.compile("^" + "".join(parts) + "$", re.DOTALL), tuple(names), target,
                     len(_PLACEHOLDER.sub("", source)), bool(_SENTENCE.search(source)))


_NUMBER = r"[-+]?\d+"
# A square of a lettered and numbered board ("A1", "E5"), so that "{spot} {colour}" is a board's label and
# never any two words.
_SPOT = r"[A-Z]\d{1,2}"


def _pattern(name: str, joins: bool = False) -> str:
    """What a placeholder matches, by its name (see the module's docstring); ``joins``: the template is two
    placeholders and a word joining them."""
    if _is_number(name):
        return _NUMBER
    if name.rstrip("0123456789") == "spot":
        return _SPOT
    if _is_word(name):
        return _WORD
    return _ITEM_TEXT if joins else _ANY


def _is_number(name: str) -> bool:
    """Placeholders named n, m, k (or n1, n_gems, ...) stand for a whole number only, so that a template such
    as "{n} red" never swallows a list ("2 red, 1 red" is two items, not one with n = "2 red, 1")."""
    return name in ("n", "m", "k") or name[:2] in ("n_", "m_", "k_") or (name[0] in "nmk" and name[1:].isdigit())


_WORD = r"[^\s,;*]+"  # never a bold mark: "{x} as {colour}" must not end inside "**...**"
# Never across "; ", which joins the parts of a line, nor across the end of a sentence: each part and sentence
# has its own template ("{who} takes {x} from {y}." must not take "Last round: Ann" for a name).
_ANY = r"(?:(?!; |[.!?] ).)+?"


# A template that is only two values and a word joining them ("{a} or {b}") joins two items, never two lists: its
# values do not reach across ", ", or it would take "no penalty, discard a science or magic token" for one "or"
# and leave the list's items, whose entries the catalogue has, untranslated.  (An arrow or a plus may join
# longer texts: "{x} → {y}" leads Pyramido's plan to "at B, second block west → ...".)
_JOIN = re.compile(r"\{\w+\} [^\W\d_]+ \{\w+\}")
_ITEM_TEXT = r"(?:(?!; |, |: |[.!?] ).)+?"  # nor across a label's colon ("Your tokens: a or b")


def _is_word(name: str) -> bool:
    """Placeholders for a colour, a board cell, a token kind, a side or a direction stand for one word only, so
    that a short template such as "{colour} from {cell}" never swallows a whole sentence of another game."""
    return name.rstrip("0123456789") in ("colour", "cell", "kind", "side", "d", "dir", "letter")


def _first_word(source: str) -> str:
    """The index key of a template: its text before the first space or placeholder ('' if it starts with one)."""
    head = _PLACEHOLDER.split(source, 1)[0]
    return head.split(" ", 1)[0] if " " in head else ""


class Catalogue:
    """One language's texts: exact entries and templates, with a cache of translated lines."""

    def __init__(self, locale: str, entries: Mapping[str, str]) -> None:
        self.locale = locale
        self.entries: dict[str, str] = dict(entries)
        self.exact: dict[str, str] = {}
        self._templates: dict[str, list[_Template]] = {}
        for source, target in entries.items():
            if _PLACEHOLDER.search(source):
                self._templates.setdefault(_first_word(source), []).append(_compile(source, target))
            else:
                self.exact[source] = target
        for group in self._templates.values():
            # The most specific first, by the text they spell out (not their regex, which grows with each
            # placeholder): "{who} takes {n} gems from the reserve (passing)." before "{who} takes {x} from {y}.",
            # "{who} passes and takes {n} gems." before "{who} passes{rest}".
            group.sort(key=lambda t: -t.literal)
        self._line = lru_cache(maxsize=50_000)(self._translate_line)

    @property
    def is_source(self) -> bool:
        return self.locale == DEFAULT_LOCALE

    def __len__(self) -> int:
        return len(self.exact) + sum(len(g) for g in self._templates.values())

    # -- before formatting ---------------------------------------------------------------------------------
    def format(self, template: str, **values: object) -> str:
        """``template`` translated, then filled in (values are translated when the catalogue knows them)."""
        target = self.entries.get(template)
        filled = {k: self._value(str(v)) for k, v in values.items()}
        chosen = target if target is not None else template
        return chosen.format(**filled) if values else chosen

    # -- after formatting ----------------------------------------------------------------------------------
    def text(self, text: str | None) -> str | None:
        """A whole text (any number of lines) in this language; what the catalogue lacks stays English."""
        if not text or self.is_source:
            return text
        return "\n".join(self._line(line) for line in text.split("\n"))

    def missing(self, text: str | None, known: Iterable[str] = ()) -> list[str]:
        """The parts of an English ``text`` this catalogue cannot translate (``known``: names to ignore)."""
        if not text or self.is_source:
            return []
        skip = set(known)
        out: list[str] = []
        for line in text.split("\n"):
            self._collect_missing(line, skip, out)
        return out

    def _value(self, value: str) -> str:
        return self._line(value) if not self.is_source else value

    def _match(self, text: str, spanning: bool = False) -> str | None:
        """The translation of a whole text; ``spanning``: the text is several sentences, which only an entry
        written across a sentence break may translate (never "{a} or {b}" over two sentences)."""
        exact = self.exact.get(text)
        if exact is not None:
            return exact
        for key in (_first_word_of_text(text), ""):
            for tpl in self._templates.get(key, ()):
                if spanning and not tpl.spans:
                    continue
                m = tpl.pattern.match(text)
                if m:
                    return tpl.target.format(**{n: self._value(m.group(n)) for n in tpl.names})
        return None

    def _translate_line(self, line: str) -> str:
        prefix = _PREFIX.match(line).group(1)  # type: ignore[union-attr]
        body = line[len(prefix):]
        if not body.strip() or _WORDLESS.match(body):
            return line
        return prefix + self._segment(body, None)

    def _whole(self, body: str, spanning: bool = False) -> str | None:
        found = self._match(body, spanning)
        if found is not None:
            return found
        m = _MARK.match(body)  # **bold**, _italic_ or `code` around a whole text
        if m:
            inner = self._match(m.group(2), spanning)
            if inner is not None:
                return m.group(1) + inner + m.group(1)
        if body.endswith(".") and not body.endswith(".."):  # the last item of a list, ending its sentence
            inner = self._match(body[:-1], spanning)
            if inner is not None and not inner.endswith("."):
                return inner + "."
        return None

    def _segment(self, text: str, missing: list[str] | None, skip: frozenset[str] = frozenset()) -> str:
        """``text`` whole, else part by part (``; ``, `` · ``, `` | ``), else sentence by sentence; what is
        left untranslated goes to ``missing`` (when given)."""
        found = self._whole(text)
        if found is not None:
            return found
        pieces = _PART.split(text)
        if len(pieces) > 1:
            return "".join(p if i % 2 else self._segment(p, missing, skip) for i, p in enumerate(pieces))
        sentences = _SENTENCE.split(text)
        if len(sentences) > 1:
            return " ".join(self._sentences(sentences, missing, skip))
        m = _MARK.match(text.strip())
        if m:  # **a list** whose items the catalogue knows
            return text.replace(m.group(2), self._segment(m.group(2), missing, skip), 1)
        items = _ITEM.split(text)  # lists such as "2 red, 1 green": each item on its own
        if len(items) > 1:
            return "".join(p if i % 2 else self._segment(p, missing, skip) for i, p in enumerate(items))
        stripped = text.strip()
        if missing is not None and stripped and not _WORDLESS.match(stripped) and stripped not in skip:
            missing.append(stripped)
        return text

    def _sentences(self, sentences: list[str], missing: list[str] | None, skip: frozenset[str]) -> Iterator[str]:
        """Sentences in turn, each with the longest run of those after it that the catalogue knows whole: a
        text split at a colon ("{who} plays {card}, top line: 2 tokens for 1 PP.") is one entry."""
        i = 0
        while i < len(sentences):
            for j in range(len(sentences), i + 1, -1):
                found = self._whole(" ".join(sentences[i:j]), spanning=True)
                if found is not None:
                    yield found
                    i = j
                    break
            else:
                yield self._segment(sentences[i], missing, skip)
                i += 1

    def _collect_missing(self, line: str, skip: set[str], out: list[str]) -> None:
        body = line[len(_PREFIX.match(line).group(1)):]  # type: ignore[union-attr]
        self._segment(body, out, frozenset(skip))


def _first_word_of_text(text: str) -> str:
    return text.split(" ", 1)[0] if " " in text else ""


# Every other file holds one game's texts, named after its kind, or a part of the bot's texts for the games its
# "games" list names ("*": all).
SHARED_FILES = ("common.json", "commands.json")


def _load_entries(locale: str, game: str | None) -> dict[str, str]:
    """The shared entries of a locale, overlaid with one game's (a game may say "PP" differently)."""
    entries: dict[str, str] = {}
    root = resources.files("data").joinpath("i18n", locale)
    if not root.is_dir():
        return entries
    others = sorted(p.name for p in root.iterdir() if p.name.endswith(".json") and p.name not in SHARED_FILES)
    loaded = {name: json.loads(root.joinpath(name).read_text(encoding="utf-8"))
              for name in [*SHARED_FILES, *others] if root.joinpath(name).is_file()}
    if game:
        # A game's own file, and the files of a part of the bot (a "games" list) that serve it or every game ("*").
        files = [*SHARED_FILES, *(name for name in others if game in file_games(name, loaded[name]) or
                                  "*" in file_games(name, loaded[name]))]
    else:  # the game is not known (a click before its game is read): every game's texts, which never disagree
        files = [*SHARED_FILES, *others]
    for name in files:
        data = loaded.get(name)
        if data is None:
            continue
        for source, target in data.get("entries", {}).items():
            check_entry(source, target, where=f"{locale}/{name}")
            entries[source] = target
    return entries


def file_games(name: str, data: Mapping[str, Any]) -> list[str]:
    """The games a catalogue file serves: its "games" list ("*": every game), else the game it is named after."""
    games = data.get("games")
    return list(games) if games else [name.removesuffix(".json")]


def catalogue_files(locale: str) -> list[str]:
    """The catalogue files a locale ships (for the tests that check each one)."""
    root = resources.files("data").joinpath("i18n", locale)
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".json")) if root.is_dir() else []


@cache
def command_names(locale: str) -> dict[str, str]:
    """Slash command, option and parameter names in a language (the ``names`` of its catalogue files): Discord
    shows them to readers of that language; interactions still carry the English names."""
    names: dict[str, str] = {}
    root = resources.files("data").joinpath("i18n", locale)
    if locale == DEFAULT_LOCALE or not root.is_dir():
        return names
    for item in sorted(root.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            names.update(json.loads(item.read_text(encoding="utf-8")).get("names", {}))
    return names


def check_entry(source: str, target: str, where: str = "catalogue") -> None:
    """An entry must keep exactly the placeholders of its English text (a lost {who} would hide a name)."""
    if not isinstance(source, str) or not isinstance(target, str) or not target.strip():
        raise ValueError(f"{where}: entry {source!r} needs a non-empty translation")
    if _PLACEHOLDER.fullmatch(source):  # its value would be translated by the entry itself, forever
        raise ValueError(f"{where}: entry {source!r} is a placeholder alone")
    if sorted(_PLACEHOLDER.findall(source)) != sorted(_PLACEHOLDER.findall(target)):
        raise ValueError(f"{where}: {source!r} and {target!r} must have the same placeholders")


@cache
def catalogue(locale: str, game: str | None = None) -> Catalogue:
    """The catalogue of a locale code (see ``locale_of``) for one game's messages (its kind, e.g. "viceroy") or,
    with no game, every game's texts together (the game files never translate one text two ways: a test checks
    it); English is the identity."""
    locale = locale if locale in LANGUAGES else DEFAULT_LOCALE
    return Catalogue(locale, {} if locale == DEFAULT_LOCALE else _load_entries(locale, game))


def tr(locale: str, template: str, game: str | None = None, **values: object) -> str:
    """One of the bot's own texts in a language: ``tr("sv", "{who} passes.", who="Ann")``."""
    return catalogue(locale, game).format(template, **values)


def localize(spec: Any, locale: str, game: str | None = None) -> Any:
    """A message spec (bot/ui/spec.py) of one game (its kind; None: the shared texts only) with every text in
    ``locale``: content, title, description, fields, footer, button labels, select placeholders and option
    labels and descriptions. Custom ids never change."""
    cat = catalogue(locale, game)
    if cat.is_source:
        return spec
    def control(c: Any) -> Any:
        if isinstance(c, Button):
            return replace(c, label=cat.text(c.label))
        if isinstance(c, Select):
            return replace(c, placeholder=cat.text(c.placeholder),
                           options=[replace(o, label=cat.text(o.label), description=cat.text(o.description))
                                    if isinstance(o, Option) else o for o in c.options])
        return c

    return replace(spec, content=cat.text(spec.content), title=cat.text(spec.title),
                   description=cat.text(spec.description), footer=cat.text(spec.footer),
                   fields=[(cat.text(n), cat.text(v)) for n, v in spec.fields],
                   rows=[[control(c) for c in row] for row in spec.rows])


# Who reads what is being built right now: (locale, game kind). Set around a delivery (a channel post in the
# server's language, a DM or an ephemeral reply in the player's); message building reads it when it is not
# given a locale. A context variable, so concurrent deliveries never mix their languages.
_READER: ContextVar[tuple[str, str | None]] = ContextVar("reader", default=(DEFAULT_LOCALE, None))


def reader() -> tuple[str, str | None]:
    """The locale and game of the message being built (English and no game outside any delivery)."""
    return _READER.get()


@contextmanager
def reading(locale: str, game: str | None = None) -> Iterator[None]:
    """Build and send messages for a reader of ``locale`` (and texts of ``game``) inside this block."""
    token = _READER.set((locale if locale in LANGUAGES else DEFAULT_LOCALE, game))
    try:
        yield
    finally:
        _READER.reset(token)


def here(text: str | None) -> str | None:
    """``text`` in the current reader's language (see ``reading``)."""
    locale, game = _READER.get()
    return catalogue(locale, game).text(text)


def drawing(locale: str, game: str | None = None) -> tuple[str, Callable[[str], str] | None]:
    """The language of the words drawn in a picture for a reader of ``locale`` (see rendering/words.py): its
    key for the picture caches and the translation of a drawn English text; ("", None) for English."""
    cat = catalogue(locale, game)
    if cat.is_source:
        return "", None
    return f"{cat.locale}:{game or '*'}", cat.text
