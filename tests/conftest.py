"""Shared test plumbing: counts that the attack and conformance suites report at the end."""

from __future__ import annotations

from collections import defaultdict

import pytest

#: suite -> game -> counter -> value; printed in the terminal summary of every run.
COUNTS: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))


@pytest.fixture
def report():
    """``report(suite, game, **counts)`` adds counts to the end-of-run summary."""

    def add(suite: str, game: str, **counts: int) -> None:
        for k, v in counts.items():
            COUNTS[suite][game][k] += v

    return add


def pytest_terminal_summary(terminalreporter) -> None:
    if not COUNTS:
        return
    terminalreporter.section("what the attack and conformance suites checked")
    for suite, games in COUNTS.items():
        for game, counts in games.items():
            terminalreporter.write_line(f"{suite:<24} {game:<13} " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
