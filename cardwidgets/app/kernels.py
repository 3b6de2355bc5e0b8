"""The kernels of ``cardwidgets play``: at most :attr:`CappedKernelManager.max_kernels` at once.

Voilà starts a kernel (about 70 MB) for every GET of the page. Idle ones are culled (see
:func:`cardwidgets.app.server.command`), and this manager refuses a new one past the cap with
"503 Service Unavailable", so whoever can reach the port cannot pile kernels up. Voilà imports
this module (``--VoilaConfiguration.multi_kernel_manager_class``); nothing else does.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer


class CappedKernelManager(AsyncMappingKernelManager):
    """A kernel manager that runs at most ``max_kernels`` kernels (games) at a time."""

    max_kernels = Integer(16, config=True, help="The most kernels (open games) at once; a page asked "
                                                "for beyond it is refused with 503 until one is culled "
                                                "or closed.")

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        if kwargs.get("kernel_id") is None and len(self.list_kernel_ids()) >= self.max_kernels:
            raise web.HTTPError(503, reason="Too many games open: close one or try again later")
        return await super().start_kernel(*args, **kwargs)
