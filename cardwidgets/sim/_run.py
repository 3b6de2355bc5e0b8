"""``simulate``: many seeded games between bots, on one core or many."""

from __future__ import annotations

import json
import math
import operator
import time
import warnings
from typing import Any, Iterator, Sequence

from ..games import game_module
from ._play import ON_ILLEGAL, bot_label, bot_specs, play_chunk
from ._result import SimResult, games_frame, games_frame_columns

#: Chunks per worker: enough that the last chunks finish together, few enough that
#: starting a chunk (pickling its arguments and its rows) costs next to nothing.
CHUNKS_PER_WORKER = 8
#: The most games in one chunk, so that a progress bar moves in a long run.
MAX_CHUNK = 250
#: The most games in one chunk of the fast lane (a game takes microseconds there).
MAX_FAST_CHUNK = 20_000
#: The values of ``engine=``.
ENGINES = ("auto", "fast", "python")


def simulate(game: str, n: int, *, bots: Any, seed: int, workers: int = 1, backend: str | None = None,
             progress: bool = False, engine: str = "auto", on_illegal: str = "raise",
             **new_game_kwargs: Any) -> SimResult:
    """Play ``n`` seeded games between bots, headless, and collect one row per game.

    Parameters
    ----------
    game:
        A game name (``cardwidgets.available_games()``).
    n:
        How many games.
    bots:
        One bot for every seat, a list with one per seat, or a mapping seat -> bot
        (seats it leaves out play ``"random"``). A bot is a name
        (``cardwidgets.bots.bot_names(game)``), a mapping with a ``"name"`` and the bot's
        parameters (``{"name": "ismcts", "iterations": 50}``, as ``make_bot`` takes it)
        or an object with ``act(view, legal)``;
        an object is copied for every game, so no game depends on the games before it.
    seed:
        The run's seed. Game ``i`` is seeded with ``game_seed(seed, i)`` and its bots
        from that game seed, so the rows are the same whatever ``workers`` and
        ``backend``, and runs with nearby seeds share no games.
    workers:
        Processes to play on: ``-1`` (joblib's convention) or more than the backend
        has cores play on every core; never more than the chunks of games, so
        a few games start few processes. Games are sent in chunks, so that starting
        processes and sending rows back stays small next to playing.
    backend:
        A joblib backend name for ``workers != 1`` (default ``"loky"``, processes on
        this machine). ``"dask"`` plays on a Dask cluster: create a
        ``dask.distributed.Client`` first (``pip install dask distributed``).
    progress:
        Show a progress bar (tqdm: a widget in a notebook, text in a terminal); it
        names the engine.
    engine:
        ``"auto"`` (default): the compiled fast lane (``cardwidgets.fast``, the ``fast``
        extra) where it is installed and covers the game, mode, options and bots, else
        the reference engine, and ``result.note`` says why. ``"fast"``: the lane, or a
        ``ValueError`` naming what it does not cover. ``"python"``: the reference engine.
        The lane's games for a seed are not the reference engine's (its own RNG), so the
        rows differ by engine; ``.games["engine"]`` says which played, and
        ``result.replay(i)`` opens a lane game on the reference engine all the same.
    on_illegal:
        What a move of a bot object that the rules refuse does (its move is checked as a
        table checks it; notation text is accepted): ``"raise"`` stops the run with
        :class:`~cardwidgets.sim.BotMoveError` naming the bot, the seat, the move and the rule;
        ``"forfeit"`` ends that game only, recorded with termination ``"forfeit"``, no winner,
        NaN scores and the refusal as its reason.
    **new_game_kwargs:
        ``players``, ``mode`` and options, as ``new_game`` takes them.

    Returns
    -------
    SimResult
        ``.games`` and ``.seats`` (pandas DataFrames), ``.summary()``, ``.plot()``,
        ``.save(path)``.

    Examples
    --------
    >>> res = simulate("depot", 20, bots=["greedy", "random", "random"], seed=1, players=3)
    >>> len(res.games), res.bots, res.games["seed"].is_unique
    (20, ('greedy', 'random', 'random'), True)
    """
    given = {"n": n, "seed": seed, "workers": workers}  # the values as given, for the messages
    n, seed, workers = _integer(n), _integer(seed), _integer(workers)
    if n is None or n < 1:
        raise ValueError(f"n must be a positive number of games, got {given['n']!r}")
    if seed is None:
        raise ValueError(f"seed must be an int, got {given['seed']!r}")
    if workers is None or not (workers >= 1 or workers == -1):
        raise ValueError(f"workers must be a positive int (or -1 for every core), got {given['workers']!r}")
    if on_illegal not in ON_ILLEGAL:
        raise ValueError(f"on_illegal must be one of {', '.join(map(repr, ON_ILLEGAL))}, got {on_illegal!r}")
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a joblib backend name such as 'loky', 'threading' or 'dask', "
                        f"got {backend!r}")
    # A probe game checks the players, mode and options before any worker starts.
    probe = game_module(game).new_game(seed=seed, **new_game_kwargs)
    specs = bot_specs(bots, probe.players)
    from ..bots import make_bot

    for s, spec in enumerate(specs):
        if hasattr(spec, "act"):
            _check_copyable(s, spec)
        else:
            make_bot(game, spec, seed=0)  # an unknown name fails here, naming the bots there are
    labels = tuple(bot_label(b) for b in specs)
    options = json.dumps(probe.SPEC.non_defaults(probe.options), sort_keys=True)
    used, note = choose_engine(engine, game, specs, probe)
    parallel = workers != 1 or backend is not None
    if parallel and backend != "threading":
        _check_picklable(specs)

    start = time.perf_counter()
    biggest = MAX_FAST_CHUNK if used == "fast" else MAX_CHUNK
    if parallel:
        workers = _effective_workers(workers, backend)
        chunks = _chunks(n, workers, biggest)
        workers = min(workers, _chunk_count(n, workers, biggest))  # three games start no more than three processes
        parallel = workers > 1 or backend is not None
    else:
        chunks = _chunks(n, 1, biggest)
    player = play_chunk
    kwargs = new_game_kwargs
    if used == "fast":
        from ._fastlane import play_chunk as player  # type: ignore[assignment,no-redef]

        kwargs = {"players": probe.players, "mode": probe.mode, **probe.options}
    bar = _bar(n, f"{game} ({used})") if progress else None
    parts: list[Any] = []  # rows (the reference engine) or LaneRows (the lane: arrays) per chunk
    try:
        if parallel:
            done: Iterator[Any] = _parallel(game, kwargs, specs, seed, chunks, workers, backend, player, on_illegal)
        else:
            done = (player(game, kwargs, specs, seed, c, on_illegal) for c in chunks)
        for part in done:
            parts.append(part)
            if bar is not None:
                bar.update(len(part))
    finally:
        if bar is not None:
            bar.close()
    if used == "fast":
        from ._fastlane import LaneRows

        shared = {"game": game, "players": probe.players, "mode": probe.mode, "options": options, "bots": labels,
                  "engine": used}
        frame = games_frame_columns(shared, LaneRows.merge(parts).columns())
    else:
        rows = sorted((r for part in parts for r in part), key=lambda r: r[0])
        frame = games_frame([(game, r[0], r[1], probe.players, probe.mode, options, labels, *r[2:], used)
                             for r in rows])
    return SimResult(frame, seconds=time.perf_counter() - start, bots=specs, note=note)


def choose_engine(engine: str, game: str, specs: Sequence[Any], probe: Any) -> tuple[str, str | None]:
    """``(engine that plays, note)`` for ``engine=`` (see :func:`simulate`); the note says why
    ``"auto"`` plays on the reference engine (``None``: it did not fall back)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    if engine == "python":
        return "python", None
    from ..fast import not_covered

    problem = not_covered(game, bots=specs, players=probe.players, mode=probe.mode, **probe.options)
    if problem is None:
        return "fast", None
    if engine == "fast":
        raise ValueError(f"engine='fast': {problem}")
    return "python", f"engine='auto' played on the reference engine: {problem}"


def _integer(value: Any) -> int | None:
    """``value`` as an int if it is a whole number (an int, a NumPy integer ...) but not a bool."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _chunk_size(n: int, workers: int, biggest: int = MAX_CHUNK) -> int:
    return max(1, min(biggest, math.ceil(n / (workers * CHUNKS_PER_WORKER))))


def _chunk_count(n: int, workers: int, biggest: int = MAX_CHUNK) -> int:
    return math.ceil(n / _chunk_size(n, workers, biggest))


def _chunks(n: int, workers: int, biggest: int = MAX_CHUNK) -> Iterator[range]:
    # A generator: joblib takes the chunks as it sends them, so a huge n costs no memory up front.
    size = _chunk_size(n, workers, biggest)
    return (range(i, min(n, i + size)) for i in range(0, n, size))


def _effective_workers(workers: int, backend: str | None) -> int:
    """The workers to play on: ``-1`` and any number above the backend's cores are every core
    (more processes than cores play no faster, and thousands of them never start)."""
    import joblib

    with joblib.parallel_config(backend=backend or "loky"):
        cores = max(1, joblib.effective_n_jobs(-1))
    return cores if workers == -1 else min(workers, cores)


def _parallel(game: str, kwargs: dict[str, Any], specs: Sequence[Any], seed: int, chunks: Iterator[range],
              workers: int, backend: str | None, player: Any = play_chunk,
              on_illegal: str = "raise") -> Iterator[list[tuple]]:
    import joblib

    # The backend is given through parallel_config, the way joblib finds external
    # backends such as Dask's. Chunks come back as they finish (the rows are sorted
    # afterwards), so a progress bar moves with the work; one chunk is one task.
    with joblib.parallel_config(backend=backend or "loky", n_jobs=workers):
        par = joblib.Parallel(batch_size=1, return_as="generator_unordered")
        yield from par(joblib.delayed(player)(game, kwargs, specs, seed, list(c), on_illegal) for c in chunks)


def _check_copyable(seat: int, spec: Any) -> None:
    import copy

    try:
        copy.deepcopy(spec)
    except Exception as e:  # copying can fail with any error type
        raise TypeError(f"bots: the bot object of seat {seat} ({type(spec).__name__}) cannot be copied "
                        f"({type(e).__name__}: {e}); every game plays a fresh copy so that no game depends "
                        "on the games before it. A bot that keeps nothing between games can return "
                        "itself from __deepcopy__") from None


def _check_picklable(specs: Sequence[Any]) -> None:
    try:  # what loky and Dask send objects with (joblib needs it)
        import cloudpickle as pickler
    except ImportError:  # pragma: no cover - older joblib vendored it
        import pickle as pickler

    for s, spec in enumerate(specs):
        if isinstance(spec, str):
            continue
        try:
            pickler.dumps(spec)
        except Exception as e:  # pickling can fail with any error type
            raise TypeError(f"bots: the bot object of seat {s} ({type(spec).__name__}) cannot be sent to "
                            f"worker processes ({type(e).__name__}: {e}); use workers=1, "
                            "backend='threading', or a bot name") from None


def _bar(n: int, game: str) -> Any:
    with warnings.catch_warnings():
        # tqdm.auto warns when ipywidgets is missing in a notebook and falls back to text.
        warnings.simplefilter("ignore")
        from tqdm.auto import tqdm
    return tqdm(total=n, desc=game, unit="game")
