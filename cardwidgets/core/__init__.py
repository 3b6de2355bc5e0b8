"""Game-agnostic engine parts. Imports only the standard library."""

from .errors import CORE_RULES, IllegalActionError, InvalidActionError
from .events import Event
from .options import Option, resolve
from .outcome import Outcome
from .rng import Rng, fresh_seed
from .state import ANY, State, seat_name

__all__ = [
    "ANY",
    "CORE_RULES",
    "Event",
    "IllegalActionError",
    "InvalidActionError",
    "Option",
    "Outcome",
    "Rng",
    "State",
    "fresh_seed",
    "resolve",
    "seat_name",
]
