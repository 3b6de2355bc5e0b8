"""The package root: the README's spellings after a bare ``import cardwidgets``, and a light import."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("traitlets", "anywidget", "ipywidgets", "IPython", "pandas", "matplotlib", "numpy", "pettingzoo",
         "pyspiel", "joblib")


def fresh(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it leaves its answer in ``out``, printed as JSON."""
    probe = f"import json, sys\nout = {{}}\n{code}\nprint(json.dumps(out))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_readme_spellings_after_a_bare_import():
    out = fresh(
        "import cardwidgets\n"
        "out['lessons'] = cardwidgets.lessons.available()[:1]\n"
        "out['lookup'] = cardwidgets.rules.lookup('D4.2').id\n"
        "out['url'] = cardwidgets.rules.url('D4.2')\n"
        "out['seed'] = cardwidgets.sim.game_seed(1, 0)\n"
        "out['bot'] = type(cardwidgets.bots.make_bot('depot', 'greedy', seed=1)).__name__\n"
        "out['defaults'] = sorted(cardwidgets.bots.ismcts.DEFAULTS)[:1]\n"
        "out['envs'] = callable(cardwidgets.envs.pettingzoo_env)\n"
        "out['export'] = callable(cardwidgets.export.write_html)\n"
        "out['games'] = cardwidgets.games.depot.SPEC.name\n"
        "out['yadokarick'] = cardwidgets.games.yadokarick.SPEC.name\n"
        "out['core'] = cardwidgets.core.replay.__name__\n"
        "out['heavy'] = [m for m in " + repr(HEAVY) + " if m in sys.modules]\n"
        "out['dir'] = dir(cardwidgets)\n"
        "out['all'] = cardwidgets.__all__\n"
    )
    assert out["lessons"] and out["lookup"] == "D4.2" and out["url"] == "rules/depot.html#D4.2"
    assert isinstance(out["seed"], int) and out["bot"] and out["defaults"] and out["envs"] and out["export"]
    assert out["games"] == "depot" and out["yadokarick"] == "yadokarick"
    assert out["core"] == "cardwidgets.core.replay"
    # naming a subpackage imports it and nothing heavy: the extras load when they are used
    assert out["heavy"] == []
    for name in ("app", "bots", "core", "envs", "export", "games", "lessons", "rules", "sim", "widgets", "Depot"):
        assert name in out["dir"], name
    # ``from cardwidgets import *`` gives the API, not every subpackage (``app`` needs its extra)
    assert "make" in out["all"] and "Depot" in out["all"] and "sim" not in out["all"]


def test_bare_import_is_light_and_dir_is_truthful():
    out = fresh(
        "import cardwidgets\n"
        "out['heavy'] = [m for m in " + repr(HEAVY) + " if m in sys.modules]\n"
        "missing = [n for n in dir(cardwidgets) if not hasattr(cardwidgets, n) and n != 'widgets']\n"
        "out['missing'] = missing\n"
        "out['games_dir'] = [g for g in cardwidgets.games.available_games() if g not in dir(cardwidgets.games)]\n"
        "try:\n"
        "    cardwidgets.no_such_thing\n"
        "except AttributeError as e:\n"
        "    out['error'] = str(e)\n"
    )
    assert out["heavy"] == []
    # every name dir() lists is there (hasattr imports the subpackages: app and widgets load the widget stack)
    assert out["missing"] == []
    assert out["games_dir"] == []
    assert out["error"] == "module 'cardwidgets' has no attribute 'no_such_thing'"
