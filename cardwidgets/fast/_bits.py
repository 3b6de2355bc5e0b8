"""Bit instructions for the kernels' card masks (a hand as the bits of an int64).

numba has no name for them; a loop over the bits instead costs one pass per bit up to the
highest, and in Crypto Trick that loop was half of a random game's time.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def low_bit(typingctx, x):
    """The index of the lowest set bit of ``x`` (an int64 other than 0): LLVM's ``cttz``."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], cgutils.true_bit)  # true: 0 is no input (undefined)
    return types.int64(types.int64), codegen


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of ``x`` (an int64 >= 0): LLVM's ``ctpop``."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen
