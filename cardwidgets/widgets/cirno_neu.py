"""The cirno+neu table."""

from __future__ import annotations

from ._base import TableWidget, bundle


class CirnoNeu(TableWidget):
    """A live cirno+neu table (rules: ``shared/rules/cirno_neu.md``).

    Parameters are those of :func:`cardwidgets.games.cirno_neu.new_game` (``players``
    2–8, ``seed``, ``deck``, options such as ``life_system=True``) plus ``seat``,
    ``bots`` and ``bot_delay`` as for every table.
    """

    GAME = "cirno_neu"
    _esm = bundle("cirno_neu", "js")
    _css = bundle("cirno_neu", "css")
