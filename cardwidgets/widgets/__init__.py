"""anywidget tables: one thin class per game on top of ``_base.TableWidget``."""

from ._base import TableWidget
from .cirno_neu import CirnoNeu
from .depot import Depot

__all__ = ["CirnoNeu", "Depot", "TableWidget"]
