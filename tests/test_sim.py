"""Simulation at scale: the same rows for a seed on any number of workers, the tables,
the summary, saving, comparing variants, and the plots."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import threading
import types

import pytest

import kit

pd = pytest.importorskip("pandas")

from cardwidgets import Timeline, make  # noqa: E402
from cardwidgets.bots import RandomBot  # noqa: E402
from cardwidgets.games import available_games, game_spec  # noqa: E402
from cardwidgets.sim import Comparison, SimResult, compare, game_seed, load, simulate  # noqa: E402
from cardwidgets.sim._result import games_frame  # noqa: E402


def _configs() -> list[tuple[str, dict]]:
    """One configuration per mode of every game, at the mode's smallest player count
    (fast games; the greedy bots of every game run)."""
    out = []
    for game in available_games():
        spec = game_spec(game)
        for mode in spec.modes:
            cfg = {"players": mode.players[0]}
            if len(spec.modes) > 1:
                cfg["mode"] = mode.name
            out.append((game, cfg))
    return out


CONFIGS = _configs()


# --------------------------------------------------------------------------- the same rows everywhere
@pytest.mark.parametrize("game, cfg", CONFIGS, ids=[f"{g}-{cfg.get('mode', '')}{cfg['players']}" for g, cfg in CONFIGS])
def test_rows_are_the_same_on_one_worker_and_on_two_processes(game, cfg, report):
    """Worker processes have their own hash seeds and import everything afresh: any
    game or bot whose play depended on either would show up as different rows."""
    one = simulate(game, 10, bots="greedy", seed=5, **cfg)
    two = simulate(game, 10, bots="greedy", seed=5, workers=2, **cfg)
    pd.testing.assert_frame_equal(one.games, two.games)
    pd.testing.assert_frame_equal(one.seats, two.seats)
    report("sim workers", game, games_compared=len(one))


def test_threads_and_chunk_sizes_do_not_change_the_rows(monkeypatch):
    base = simulate("cirno_neu", 30, bots=["greedy", "random", "survivor"], seed=9, players=3)
    threads = simulate("cirno_neu", 30, bots=["greedy", "random", "survivor"], seed=9, players=3, workers=2,
                       backend="threading")
    pd.testing.assert_frame_equal(base.games, threads.games)
    import cardwidgets.sim._run as run

    monkeypatch.setattr(run, "MAX_CHUNK", 1)  # one game per chunk: 30 tasks
    tiny = simulate("cirno_neu", 30, bots=["greedy", "random", "survivor"], seed=9, players=3, workers=2)
    pd.testing.assert_frame_equal(base.games, tiny.games)


def test_a_longer_run_starts_with_the_shorter_one_and_other_seeds_share_no_game():
    short = simulate("depot", 20, bots="greedy", seed=3, players=3)
    long = simulate("depot", 50, bots="greedy", seed=3, players=3, workers=2)
    pd.testing.assert_frame_equal(short.games, long.games.iloc[:20])
    assert list(short.games["seed"]) == [game_seed(3, i) for i in range(20)]
    # With `seed + i` the runs seeded 3 and 4 shared 49 of their 50 games.
    other = simulate("depot", 50, bots="greedy", seed=4, players=3)
    assert not set(other.games["seed"]) & set(long.games["seed"])
    assert long.games["seed"].is_unique


def test_a_row_replays_as_the_game_it_records():
    res = simulate("crypto_trick", 6, bots=["greedy", "random", "greedy"], seed=2, players=3)
    for row in res.games.itertuples():
        tl = Timeline.from_replay(res.replay(row.game_index))
        st = tl.state
        assert st.is_terminal and st.seed == row.seed and st.move_count == row.length
        assert st.outcome().winners == row.winners and st.outcome().scores == row.scores
        first = make("crypto_trick", players=3, seed=row.seed)
        assert first.current_player == row.starter
    with pytest.raises(IndexError):
        res.replay(99)


# --------------------------------------------------------------------------- bots
def test_bots_as_one_name_a_list_or_a_mapping():
    as_list = simulate("depot", 8, bots=["greedy", "random", "random"], seed=1, players=3)
    as_map = simulate("depot", 8, bots={0: "greedy"}, seed=1, players=3)  # left-out seats play random
    pd.testing.assert_frame_equal(as_list.games, as_map.games)
    assert as_list.bots == ("greedy", "random", "random")
    assert simulate("depot", 3, bots="greedy", seed=1, players=4).bots == ("greedy",) * 4


class Lockstep:
    """A bot object that can neither be copied nor pickled (it holds a lock)."""

    name = "lockstep"

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def act(self, view, legal):
        return legal[0]


class SharedLockstep(Lockstep):
    """It keeps nothing between games, so it says that a copy of it is itself."""

    def __deepcopy__(self, memo):
        return self


def test_bot_objects_are_copied_per_game_and_must_pickle_for_processes():
    bot = RandomBot(5)
    before = bot.rng.getstate()
    one = simulate("depot", 12, bots=[bot, "greedy", "random"], seed=4, players=3)
    two = simulate("depot", 12, bots=[bot, "greedy", "random"], seed=4, players=3, workers=2)
    pd.testing.assert_frame_equal(one.games, two.games)
    assert bot.rng.getstate() == before, "the caller's object is never played with"
    assert one.bots == ("random", "greedy", "random")

    with pytest.raises(TypeError, match="seat 1 .Lockstep. cannot be copied.*__deepcopy__"):
        simulate("depot", 4, bots=["random", Lockstep(), "random"], seed=1, players=3)
    with pytest.raises(TypeError, match="seat 1 .SharedLockstep. cannot be sent to worker processes"):
        simulate("depot", 4, bots=["random", SharedLockstep(), "random"], seed=1, players=3, workers=2)
    alone = simulate("depot", 4, bots=["random", SharedLockstep(), "random"], seed=1, players=3)
    threads = simulate("depot", 4, bots=["random", SharedLockstep(), "random"], seed=1, players=3, workers=2,
                       backend="threading")
    pd.testing.assert_frame_equal(alone.games, threads.games)
    assert alone.bots[1] == "lockstep"


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(n=0), ValueError, "n must be a positive"),
    (dict(seed="1"), ValueError, "seed must be an int"),
    (dict(workers=0), ValueError, "workers must be"),
    (dict(bots="oracle"), ValueError, "unknown bot 'oracle'.*greedy"),
    (dict(bots=["greedy", "random"]), ValueError, "expected 3 entries"),
    (dict(bots={5: "greedy"}), ValueError, "no seat 5"),
    (dict(bots=7), TypeError, "bots must be"),
    (dict(colour="red"), TypeError, "colour"),
    (dict(players=9), ValueError, "players"),
    (dict(n=True), ValueError, "n must be a positive"),
    (dict(workers=-2), ValueError, "workers must be"),
    (dict(backend=5), TypeError, "backend must be a joblib backend name"),
])
def test_bad_arguments_fail_before_any_game(kwargs, error, match):
    args = dict(n=5, bots="random", seed=1, players=3) | kwargs
    n = args.pop("n")
    with pytest.raises(error, match=match):
        simulate("depot", n, **args)


def test_numpy_integers_and_a_bot_with_parameters_for_every_seat():
    np = pytest.importorskip("numpy")
    base = simulate("depot", 2, bots="random", seed=1, players=3)
    pd.testing.assert_frame_equal(simulate("depot", np.int64(2), bots="random", seed=np.int64(1), players=3,
                                           workers=np.int32(1)).games, base.games)
    # a mapping with a "name" is one bot with its parameters (as make_bot reads it), not seats
    searched = simulate("depot", 2, bots={"name": "ismcts", "iterations": 5}, seed=1, players=3)
    assert searched.bots == ("ismcts",) * 3
    listed = simulate("depot", 2, bots=[{"name": "ismcts", "iterations": 5}] * 3, seed=1, players=3)
    pd.testing.assert_frame_equal(searched.games, listed.games)


def test_workers_are_capped_at_the_cores_and_the_chunks(monkeypatch):
    """Three games start at most three processes, and a huge worker count neither hangs nor
    starts more processes than there are cores."""
    import joblib

    import cardwidgets.sim._run as run

    started = []
    real = run._parallel

    def spy(game, kwargs, specs, seed, chunks, workers, backend, *rest):
        started.append(workers)
        return real(game, kwargs, specs, seed, chunks, workers, backend, *rest)

    monkeypatch.setattr(run, "_parallel", spy)
    base = simulate("depot", 3, bots="random", seed=1, players=3)
    for workers in (200, 100_000, -1):
        res = simulate("depot", 3, bots="random", seed=1, players=3, workers=workers)
        pd.testing.assert_frame_equal(res.games, base.games)
    assert all(w <= min(3, joblib.cpu_count()) for w in started), started
    started.clear()
    simulate("depot", 3, bots="random", seed=1, players=3, workers=3, backend="threading")
    assert started and all(w <= 3 for w in started)


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_chunks_are_made_as_they_are_played(monkeypatch, engine):
    """A huge run costs no memory up front, and Ctrl+C stops it at once (on either engine)."""
    import cardwidgets.sim._fastlane as lane
    import cardwidgets.sim._run as run
    from cardwidgets import fast

    if engine == "fast" and fast.not_covered("depot", bots="random", players=3) is not None:
        pytest.skip("the fast lane does not play this here")

    # checked on a small run first: a list of chunks here would fill the memory below
    chunks = run._chunks(10 ** 6, 4)
    assert isinstance(chunks, types.GeneratorType) and next(chunks) == range(0, run.MAX_CHUNK)
    played = []

    def interrupted(game, kwargs, specs, seed, indexes, *rest):
        played.append(indexes)
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "play_chunk", interrupted)
    monkeypatch.setattr(lane, "play_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        simulate("depot", 10 ** 12, bots="random", seed=1, players=3, engine=engine)
    assert len(played) == 1


def test_bad_game():
    with pytest.raises(ValueError, match="chess"):
        simulate("chess", 5, bots="random", seed=1)


# --------------------------------------------------------------------------- the tables and the summary
def test_games_and_seats_tables():
    res = simulate("cirno_neu", 40, bots=["greedy", "random", "survivor", "random"], seed=2, players=4,
                   life_system=True)
    g = res.games
    assert list(g.columns) == ["game", "game_index", "seed", "players", "mode", "options", "bots", "starter",
                               "winners", "scores", "length", "termination", "reason", "engine"]
    assert list(g["game_index"]) == list(range(40))
    assert set(g["game"]) == {"cirno_neu"} and set(g["mode"]) == {"standard"} and set(g["players"]) == {4}
    assert json.loads(g["options"].iat[0]) == {"life_system": True} == res.options
    assert all(isinstance(w, tuple) and isinstance(s, tuple) and len(s) == 4 for w, s in zip(g["winners"], g["scores"]))
    assert (g["length"] > 0).all() and set(g["termination"]) == {"normal"}
    assert all("rule" in r for r in g["reason"])

    seats = res.seats
    assert list(seats.columns) == ["game_index", "seat", "bot", "score", "won", "share", "started"]
    assert len(seats) == 160
    per_game = seats.groupby("game_index")
    assert (per_game["share"].sum().round(9) == 1).all(), "every normal game hands out one win"
    assert (per_game["started"].sum() == 1).all()
    row = seats[(seats.game_index == 3) & (seats.seat == 2)].iloc[0]
    assert row.bot == "survivor" and row.score == g["scores"].iat[3][2] and row.won == (2 in g["winners"].iat[3])


def test_summary_figures_and_text():
    res = simulate("depot", 60, bots=["greedy", "random", "random", "random"], seed=1, players=4)
    s = res.summary()
    t = s.table
    assert list(t["seat"]) == [0, 1, 2, 3] and list(t["bot"]) == ["greedy", "random", "random", "random"]
    shares = res.seats.groupby("seat")["share"].mean()
    assert list(t["win_rate"]) == pytest.approx(list(shares))
    assert abs(t["win_rate"].sum() - 1) < 1e-9
    assert (t["win_low"] <= t["win_rate"]).all() and (t["win_rate"] <= t["win_high"]).all()
    assert (t["score_low"] <= t["mean_score"]).all() and (t["mean_score"] <= t["score_high"]).all()
    assert s.games == 60 and s.aborted == 0 and s.mean_length == pytest.approx(res.games["length"].mean())
    text = repr(s)
    assert text.startswith("Depot: 60 games, 4 players")
    assert "greedy" in text and "95% interval" in text and "aborted: 0 of 60" in text
    assert "<table" in s._repr_html_()


def test_aborted_games_count_as_won_by_nobody():
    rows = [("depot", 0, 11, 3, "standard", "{}", ("greedy",) * 3, 0, (0,), (0, 5, 7), 20, "normal", "A won", "python"),
            ("depot", 1, 12, 3, "standard", "{}", ("greedy",) * 3, 1, (), (3, 5, 7), 900, "aborted", "cap", "python"),
            ("depot", 2, 13, 3, "standard", "{}", ("greedy",) * 3, 2, (1, 2), (4, 0, 0), 30, "normal", "shared", "python")]
    res = SimResult(games_frame(rows))
    s = res.summary()
    assert s.aborted == 1 and s.shared == 1
    assert list(s.table["win_rate"]) == pytest.approx([1 / 3, 1 / 6, 1 / 6])
    c = Comparison("depot", {"x": res}, "aborted")
    assert c.table["value"].iat[0] == pytest.approx(1 / 3)
    assert c.measure("first_player_win_rate")["value"].iat[0] == pytest.approx((1 + 0 + 0.5) / 3)


def test_a_result_holds_one_configuration():
    a = simulate("depot", 3, bots="greedy", seed=1, players=3).games
    b = simulate("depot", 3, bots="greedy", seed=1, players=4).games
    with pytest.raises(ValueError, match="one configuration"):
        SimResult(pd.concat([a, b], ignore_index=True))
    with pytest.raises(ValueError, match="no column 'reason'"):
        SimResult(a.drop(columns="reason"))


# --------------------------------------------------------------------------- files
@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_save_and_load_give_the_same_result(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    res = simulate("yadokarick", 6, bots=["greedy", "random"], seed=3, players=2, mode="duo", duo_roofs=False)
    path = tmp_path / f"runs{suffix}"
    res.save(path)
    back = load(path)
    pd.testing.assert_frame_equal(back.games, res.games)
    pd.testing.assert_frame_equal(back.seats, res.seats)
    pd.testing.assert_frame_equal(back.summary().table, res.summary().table)
    assert back.options == {"duo_roofs": False} and back.mode == "duo"
    # The game plays again from the file alone (its bots are names).
    assert Timeline.from_replay(back.replay(4)).state.move_count == res.games["length"].iat[4]


def test_bad_files(tmp_path):
    res = simulate("depot", 3, bots="greedy", seed=1, players=3)
    with pytest.raises(ValueError, match=r"runs\.json: save a result as \.parquet or \.csv"):
        res.save(tmp_path / "runs.json")
    path = tmp_path / "runs.csv"
    res.save(path)
    good = pd.read_csv(path, dtype=str, keep_default_na=False)

    def refused(row: int, col: str, value: str, said: str) -> None:
        df = good.copy()
        df.loc[row, col] = value
        df.to_csv(path, index=False)
        with pytest.raises(ValueError, match=rf"runs\.csv, line {row + 2}, column '{col}': {said}"):
            load(path)

    for col, value, said in [("winners", "oops", "expected a list, got 'oops'"),
                             ("length", "12.5", "expected a whole number, got '12.5'"),
                             ("seed", "", "expected a whole number, got ''")]:
        refused(2, col, value, said)
    parquet = tmp_path / "runs.parquet"
    res.save(parquet)
    df = pd.read_parquet(parquet)
    df["length"] = df["length"].astype(float) + 0.5
    df.to_parquet(parquet)
    with pytest.raises(ValueError, match=r"runs\.parquet, row 0, column 'length': expected a whole number"):
        load(parquet)
    # cells that read, but disagree with the game's number of players or what a column holds
    for col, value, said in [("scores", "[1]", "expected 3 entries .one per seat., got 1"),
                             ("bots", '["greedy"]', "expected 3 entries"),
                             ("winners", "[9]", r"expected distinct seats from 0 to 2, got \[9\]"),
                             ("winners", "[1, 1]", "expected distinct seats"),
                             ("starter", "5", "expected a seat from 0 to 2, got 5"),
                             ("length", "-5", r"expected a whole number from 0 to 2\*\*63 - 1, got '-5'"),
                             ("seed", "1" * 30, "expected a whole number from 0 to 2"),
                             ("players", "0", "expected a whole number from 1 to")]:
        refused(1, col, value, said)
    path.write_text("")
    with pytest.raises(ValueError, match=r"runs\.csv: the file is empty"):
        load(path)
    pd.DataFrame({"game": ["depot"]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"runs\.csv: not a saved simulation \(no column 'game_index'"):
        load(path)


# --------------------------------------------------------------------------- progress, backends, imports
def test_progress_bar(capsys):
    simulate("depot", 25, bots="random", seed=1, players=3, progress=True)
    err = capsys.readouterr().err
    assert "depot" in err and "25/25" in err


def test_dask_cluster_gives_the_same_rows():
    distributed = pytest.importorskip("distributed")
    base = simulate("crypto_trick", 16, bots="greedy", seed=8, players=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        on_dask = simulate("crypto_trick", 16, bots="greedy", seed=8, players=3, workers=2, backend="dask")
    pd.testing.assert_frame_equal(base.games, on_dask.games)
    with pytest.raises(ValueError, match="Dask Client"):
        simulate("crypto_trick", 4, bots="greedy", seed=8, players=3, workers=2, backend="dask")


def test_engines_and_workers_never_import_pandas():
    code = ("import cardwidgets, cardwidgets.games.depot, cardwidgets.sim, cardwidgets.sim._play; "
            "cardwidgets.make('yadokarick', players=2, mode='duo', seed=1); "
            "cardwidgets.sim._play.play_chunk('depot', {'players': 3}, ['greedy'] * 3, 1, [0])")
    assert kit.modules_loaded(code, ("pandas", "joblib", "tqdm", "numpy")) == []


def test_without_pandas_the_error_names_the_extra():
    for name in ("simulate", "compare", "load"):
        code = f"import sys; sys.modules['pandas'] = None\nfrom cardwidgets.sim import {name}"
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode == 1
        assert "pip install 'cardwidgets[explore]'" in run.stderr.splitlines()[-1]


def test_results_pickle():
    res = simulate("depot", 4, bots="greedy", seed=1, players=3)
    back = pickle.loads(pickle.dumps(res))
    pd.testing.assert_frame_equal(back.games, res.games)


# --------------------------------------------------------------------------- compare
def test_compare_per_seat_metric_and_shared_seeds():
    c = compare("crypto_trick", {"equal": {}, "white high": {"trump_ranking": "white_high"}}, 12,
                metric="mean_score", bots=["greedy", "random", "random"], seed=4, players=3)
    t = c.table
    assert list(t.columns) == ["variant", "metric", "seat", "bot", "value", "low", "high", "n"]
    assert list(t["variant"]) == ["equal"] * 3 + ["white high"] * 3
    assert list(t["seat"]) == [0, 1, 2] * 2 and list(t["bot"]) == ["greedy", "random", "random"] * 2
    assert set(t["n"]) == {12} and set(t["metric"]) == {"mean_score"}
    assert (t["low"] <= t["value"]).all() and (t["value"] <= t["high"]).all()
    scores = c.results["white high"].seats.groupby("seat")["score"].mean()
    assert list(t["value"].iloc[3:]) == pytest.approx(list(scores))
    # Common random numbers: every variant plays the same game seeds.
    assert list(c.results["equal"].games["seed"]) == list(c.results["white high"].games["seed"])
    assert json.loads(c.results["white high"].games["options"].iat[0]) == {"trump_ranking": "white_high"}
    both = c.games
    assert list(both["variant"].unique()) == ["equal", "white high"] and len(both) == 24


def test_compare_players_bots_and_per_game_metrics():
    c = compare("depot", {"3 players": {}, "5 players": {"players": 5, "bots": ["greedy"] + ["random"] * 4}},
                10, metric="first_player_win_rate", bots="greedy", seed=2, players=3)
    t = c.table
    assert list(t["variant"]) == ["3 players", "5 players"] and t["seat"].isna().all()
    g = c.results["5 players"].games
    expected = sum(1 / len(w) if s in w else 0 for s, w in zip(g["starter"], g["winners"])) / len(g)
    assert t["value"].iat[1] == pytest.approx(expected)
    assert c.results["5 players"].bots == ("greedy",) + ("random",) * 4
    length = c.measure("length")
    assert length["value"].iat[0] == pytest.approx(c.results["3 players"].games["length"].mean())
    assert (c.measure("aborted")["value"] == 0).all()


def test_compare_with_a_function_of_the_games_table():
    def long_game(games):
        return games["length"] > 25

    c = compare("depot", {"3": {"players": 3}, "4": {"players": 4}}, 30, metric=long_game, bots="greedy", seed=1)
    assert set(c.table["metric"]) == {"long_game"}
    expected = (c.results["4"].games["length"] > 25).mean()
    assert c.table["value"].iat[1] == pytest.approx(expected)
    assert 0 <= c.table["low"].iat[1] <= expected <= c.table["high"].iat[1] <= 1  # Wilson: a rate
    mean = c.measure(lambda games: games["length"] * 2)
    assert mean["metric"].iat[0] == "custom"
    assert mean["value"].iat[0] == pytest.approx(2 * c.results["3"].games["length"].mean())
    with pytest.raises(ValueError, match="one value per game"):
        c.measure(lambda games: games["length"].mean())


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(metric="speed"), ValueError, "unknown metric 'speed'"),
    (dict(variants={}), ValueError, "at least one"),
    (dict(variants={"x": {"seed": 3}}), TypeError, "same seeds"),
    (dict(variants={"x": 3}), TypeError, "variant 'x'"),
    (dict(variants={"x": {"players": 4}}, bots=["greedy"] * 3), ValueError, "expected 4 entries"),
    (dict(variants={1: {}, "1": {"players": 3}}), ValueError, "variants 1 and '1' have the same label"),
])
def test_compare_bad_arguments(kwargs, error, match):
    args = dict(variants={"a": {"players": 3}}, n=3, bots="greedy", seed=1) | kwargs
    with pytest.raises(error, match=match):
        compare("depot", **args)


# --------------------------------------------------------------------------- plots
@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_the_plot_has_readable_labels_and_the_games_title(plt):
    """At 6 players the seat labels used to overlap, and the title said `cirno_neu`."""
    res = simulate("cirno_neu", 20, bots=["greedy"] + ["random"] * 5, players=6, seed=1)
    left, right = res.plot()
    fig = left.figure
    fig.canvas.draw()
    assert left.get_title() == "cirno+neu: 20 games" and right.get_title() == "game length"
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in left.get_xticklabels()]
    assert len(boxes) == 6
    for a, b in zip(boxes, boxes[1:]):
        assert a.x1 <= b.x0, "seat labels overlap"


def test_the_comparison_plot_shows_each_interval(plt):
    c = compare("depot", {"3 players": {"players": 3}, "4 players": {"players": 4}}, 15, bots="greedy", seed=3)
    ax = c.plot()
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3 players", "4 players"]
    assert ax.get_title() == "Depot: win rate\n15 games per variant, 95% intervals"
    # One error-bar series per seat (seats 0-3), each with one point per variant that has the seat.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A", "B", "C", "D"]
    points = [len(bars.lines[0].get_xdata()) for bars in ax.containers]
    assert points == [2, 2, 2, 1]
    per_game = compare("depot", {"a": {"players": 3}}, 5, metric="length", bots="greedy", seed=3).plot()
    assert per_game.get_legend() is None and per_game.get_ylabel() == "actions per game"


def test_wilson_bounds_are_exact_at_rates_of_0_and_1():
    from cardwidgets.sim._stats import wilson

    assert wilson(0.0, 6)[0] == 0.0 and wilson(1.0, 6)[1] == 1.0
    low, high = wilson(0.0, 6)
    assert high == pytest.approx(1.959964 ** 2 / (6 + 1.959964 ** 2), rel=1e-6)  # z^2 / (n + z^2)
    assert wilson(1.0, 6) == pytest.approx((1 - high, 1.0))


def test_a_lane_chunk_comes_back_as_arrays_and_makes_the_table_its_rows_made():
    """A worker sends a lane chunk as its batch's arrays (100,000 cirno+neu games as row tuples
    were 10.9 MB that the parent took 1.1 s to unpickle); the parent builds the games table from
    the whole run's arrays, the same table as from the rows."""
    np = pytest.importorskip("numpy")
    from cardwidgets import fast
    from cardwidgets.sim._fastlane import LaneRows, play_chunk

    cfg = dict(players=3, life_system=True)
    if fast.not_covered("cirno_neu", bots="greedy", **cfg) is not None:
        pytest.skip("the fast lane does not play this here")
    mode, players, options = fast.resolve("cirno_neu", 3, None, {"life_system": True})
    kwargs = {"players": players, "mode": mode, **options}
    specs = ["greedy", "random", "random"]
    parts = [play_chunk("cirno_neu", kwargs, specs, 5, range(k, k + 100)) for k in (200, 0, 100)]  # as they finish
    for p in parts:  # a few arrays and each distinct outcome text once: no Python object per game
        assert isinstance(p, LaneRows) and len(p) == 100 and len(p.reasons) < 100
        assert all(isinstance(a, np.ndarray) for a in (p.index, p.seeds, p.winners, p.scores, p.reason))
        assert pickle.loads(pickle.dumps(p)).index.tolist() == p.index.tolist()

    res = simulate("cirno_neu", 300, bots=specs, seed=5, engine="fast", **cfg)
    every = fast.play("cirno_neu", [game_seed(5, i) for i in range(300)], bots=specs, **cfg).rows(range(300))
    labels = tuple(specs)
    old = games_frame([("cirno_neu", r[0], r[1], 3, mode, res.games["options"].iat[0], labels, *r[2:], "fast")
                       for r in every])
    pd.testing.assert_frame_equal(res.games, old)
    merged = LaneRows.merge(parts)
    assert merged.index.tolist() == list(range(300)) and merged.reasons  # texts kept once per run
    assert {"aborted", "normal"} >= set(res.games["termination"]) and res.games["winners"].map(len).min() >= 1


def test_distinct_score_rows_by_key_or_by_sort():
    np = pytest.importorskip("numpy")
    from cardwidgets.sim._fastlane import _unique_rows

    rng = np.random.default_rng(1)
    few = rng.integers(-3, 4, size=(500, 4)).astype(float)
    few[7, 2] = np.nan
    wide = rng.random((300, 30))  # 300 distinct values in 30 columns: past one int64 key, sorted as rows
    for a in (few, wide):
        rows, inverse = _unique_rows(a)
        np.testing.assert_array_equal(rows[inverse], a)
        assert len({tuple(r) for r in rows.tolist()}) == len(rows)
