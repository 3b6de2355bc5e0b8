"""Every rules option of every game said in words, once, on its game's spec; ``option_form`` is the
form the app's chooser and the static site's both build from it."""

from __future__ import annotations

import json

import pytest

from cardwidgets import rules
from cardwidgets.core.spec import OPTION_GROUPS, option_form
from cardwidgets.games import available_games, game_spec

OPTIONS = [(g, o) for g in available_games() for o in game_spec(g).options]
MODES = [(g, m.name) for g in available_games() for m in game_spec(g).modes]


@pytest.mark.parametrize("game, opt", OPTIONS, ids=[f"{g}-{o.name}" for g, o in OPTIONS])
def test_every_option_has_a_name_help_values_and_a_rule_in_words(game, opt):
    assert opt.label and "_" not in opt.label and opt.label != opt.name
    assert opt.help and "\n" not in opt.help and len(opt.help) <= 120 and opt.help.endswith((".", ")"))
    assert opt.group in OPTION_GROUPS
    rule = rules.lookup(opt.rule, game)  # resolves, in this game's reference or the core's
    assert rules.url(rule.id, game).startswith("rules/")
    for value in opt.allowed or ():
        assert opt.words(value), f"{opt.name}={value!r} has no words"
    if opt.allowed is None and not getattr(opt.check, "seats", None):
        assert opt.accepts, f"{opt.name} does not say what it takes"
    # the default in words: its own words, a seat (named by letter), or a plain number shown as such
    assert opt.words(opt.default) or (type(opt.default) is int and (getattr(opt.check, "bounds", None)
                                                                     or getattr(opt.check, "seats", None)))
    # the words name values the option really takes
    for value, _ in opt.values:
        opt.validate(value)


@pytest.mark.parametrize("game, mode", MODES)
def test_the_form_is_json_in_words_grouped_and_every_choice_is_allowed(game, mode):
    spec = game_spec(game)
    m = spec.mode(mode)
    players = m.players[0]
    form = option_form(game, mode, players)
    assert json.loads(json.dumps(form, allow_nan=False)) == form
    assert [e["name"] for e in form] == sorted((e["name"] for e in form),
                                               key=lambda n: (OPTION_GROUPS.index(spec.option(n).group),
                                                              [o.name for o in spec.options].index(n)))
    assert {e["name"] for e in form} == {o.name for o in spec.options_for(m.name)}
    for e in form:
        assert e["label"] and e["help"] and e["default_label"]
        assert e["rule_url"] == rules.url(e["rule"], game) and e["rule_title"]
        if e["input"] == "choice":
            labels = [c["label"] for c in e["choices"]]
            assert "_" not in "".join(labels) and len(set(labels)) == len(labels)
            assert e["default_label"] in labels
            for c in e["choices"]:  # every value offered builds a game at this player count
                spec.resolve(players, mode, {e["name"]: c["value"]})
        else:
            assert e["accepts"]
        if e["input"] == "number":
            assert e["min"] is not None


def test_a_seat_option_offers_the_seats_of_the_table_by_letter():
    form = {e["name"]: e for e in option_form("cirno_neu", players=2)}
    assert [c["label"] for c in form["first_dealer"]["choices"]] == ["Seat A", "Seat B", "A random seat"]
    form = {e["name"]: e for e in option_form("yadokarick", "standard", players=3)}
    assert [c["value"] for c in form["dealer"]["choices"]] == [0, 1, 2, None]
    assert form["dealer"]["default_label"] == "The last seat, so seat A leads"


def test_the_form_takes_the_rules_site_address():
    entry = option_form("depot", rule_base="https://example.org/cw")[0]
    assert entry["rule_url"] == "https://example.org/cw/rules/depot.html#D2.5"
