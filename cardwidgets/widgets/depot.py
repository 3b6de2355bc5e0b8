"""The Depot table."""

from __future__ import annotations

from ._base import TableWidget, bundle


class Depot(TableWidget):
    """A live Depot table (rules: ``shared/rules/depot.md``).

    Parameters are those of :func:`cardwidgets.games.depot.new_game` (``players``,
    ``seed``, ``deck``, options such as ``games=3``) plus ``seat`` (whose view is
    shown; ``None`` = teacher view), ``bots`` (``{seat: "greedy"}``, or one name for
    every other seat) and ``bot_delay`` (seconds a bot waits after a click).

    >>> t = Depot(players=3, seed=1, seat=0, bots="greedy", bot_delay=0)
    >>> t.step(t.legal_actions()[0])[0].rule
    'D4.8'
    >>> t.cursor == t.history_len == len(t.history) >= 3   # the bots answered
    True
    """

    GAME = "depot"
    _esm = bundle("depot", "js")
    _css = bundle("depot", "css")
