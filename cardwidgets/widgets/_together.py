"""Playing together on Jupyter tables: the parts live in the table model (``cardwidgets.table.together``)."""

from ..table.together import LOG_TAIL, Group, narration_at, public_view

__all__ = ["LOG_TAIL", "Group", "narration_at", "public_view"]
