"""Game-agnostic engine parts: the kit every game is built on. Standard library only."""

from .errors import CORE_RULES, MAX_ACTION_TEXT, IllegalActionError, InvalidActionError, SamplingLimitError
from .events import Event, Explanation, number, ordinal, visible
from .outcome import Outcome, Termination
from .rng import Recorded, Recorder, fresh_seed
from .spec import FINISHED, GameSpec, Mode, Option, Phase
from .state import ANY, Field, State, fields, plural, seat_name, tuple_field
from .timeline import Timeline

__all__ = [
    "ANY",
    "CORE_RULES",
    "FINISHED",
    "MAX_ACTION_TEXT",
    "Event",
    "Explanation",
    "Field",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "SamplingLimitError",
    "Mode",
    "Option",
    "Outcome",
    "Phase",
    "Recorded",
    "Recorder",
    "State",
    "Termination",
    "Timeline",
    "fields",
    "fresh_seed",
    "number",
    "ordinal",
    "plural",
    "seat_name",
    "tuple_field",
    "visible",
]
