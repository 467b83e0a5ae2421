"""Presenters by game name: ``bot.presenters.<game>`` exports ``PRESENTER`` (see bot/ui/presenter.py)."""

from __future__ import annotations

import importlib

from bot.ui.presenter import Presenter

_PRESENTERS: dict[str, Presenter] = {}


class UnknownPresenter(KeyError):
    pass


def register_presenter(presenter: Presenter) -> Presenter:
    """Add a presenter that does not live in this package (tests do this for their own games)."""
    _PRESENTERS[presenter.name] = presenter
    return presenter


def presenter_for(name: str) -> Presenter:
    if name not in _PRESENTERS:
        try:
            module = importlib.import_module(f"bot.presenters.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.presenters.{name}":
                raise  # the presenter exists but something it imports is missing
            raise UnknownPresenter(name) from exc
        _PRESENTERS[name] = module.PRESENTER
    return _PRESENTERS[name]
