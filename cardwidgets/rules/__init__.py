"""The rules reference shipped with cardwidgets.

Every game's rules are written out in a Markdown file in this package
(``depot.md``, ``cirno_neu.md``, ``crypto_trick.md``, ``yadokarick.md``), plus
``core.md`` for the rules every game shares (``G1`` the game is over,
``G2`` the action does not exist in this step, ``G3`` not this seat's turn,
``G4`` the engine's safety cap on a game's length, ``G5`` a line dealt again for one
player is for that player alone).
Each rule has a stable ID, the same ID that refusals, events and narration
lines cite, so a table can show the rule behind any message.

>>> from cardwidgets import rules
>>> rule = rules.lookup("D4.7")
>>> rule.game, rule.title
('depot', 'Beating the standing play')
>>> rules.lookup("g3").title
'Not your turn'
>>> rules.cited("Illegal: rule N4.3 — 10 would make the sum 105 (> 99).")
['N4.3']
>>> [str(rules.lookup(i)).split(":")[0] for i in rules.cited("Round over (D7.1, D7.2).")]
['D7.1 — Everyone else passed', 'D7.2 — Round-end steps']

File format
-----------
A rule starts at a heading ``## <ID> — <Title>`` or ``### <ID> — <Title>``
(an em dash with a space on each side) and its text runs to the next ``##``
or ``###`` heading. IDs look like ``D4`` / ``D4.2`` / ``Y14.10`` or like
``DA-7`` / ``YA-3``. Headings without an ID (``## Action notation``) hold
free text that belongs to no rule. The files are read with
:mod:`importlib.resources`, parsed once on first use and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["Rule", "lookup", "rules", "games", "as_json", "cited", "url"]

#: The pseudo-game holding the rules every game shares.
CORE = "core"

#: Games listed first, in this order; any further reference file follows alphabetically.
_PREFERRED_ORDER = ("depot", "cirno_neu", "crypto_trick", "yadokarick")

_ID_PATTERN = r"[A-Z]+[0-9]+(?:\.[0-9]+)*|[A-Z]+-[0-9]+"
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_RULE_HEADING_RE = re.compile(rf"^(?P<id>{_ID_PATTERN})\s+—\s+(?P<title>\S.*)$")
# A heading whose first word looks like a rule ID but lacks " — Title" is a typo that
# would silently drop a rule, so the parser refuses it.
_ID_FIRST_RE = re.compile(rf"^(?:{_ID_PATTERN})(?:\s|$|[-:.–])")


@dataclass(frozen=True)
class Rule:
    """One entry of the rules reference.

    Attributes
    ----------
    id:
        The rule ID, e.g. ``"D4.2"``, ``"DA-7"`` or ``"G1"``.
    game:
        The game that defines it (``"depot"``, ...), or ``"core"`` for G1–G5.
    title:
        A short title, e.g. ``"Sets and runs"``.
    text:
        The rule in plain words (Markdown: may hold lists and tables).

    Examples
    --------
    >>> r = Rule("X1.1", "demo", "An example", "Some text.")
    >>> str(r)
    'X1.1 — An example: Some text.'
    """

    id: str
    game: str
    title: str
    text: str

    def __str__(self) -> str:
        return f"{self.id} — {self.title}: {self.text}"


def _parse(game: str, source: str) -> dict[str, Rule]:
    """Parse one reference file into its rules, in file order.

    Parameters
    ----------
    game:
        The game name the rules belong to (used for ``Rule.game`` and errors).
    source:
        The Markdown text.

    Returns
    -------
    dict[str, Rule]
        The rules keyed by ID, in file order.

    Raises
    ------
    ValueError
        On a duplicate ID, a malformed rule heading, or a rule with no text.

    Examples
    --------
    >>> text = "# Demo\\n\\nIntro.\\n\\n## X1 — Part\\nSummary.\\n\\n### X1.1 — Detail\\nBody.\\n"
    >>> [str(r) for r in _parse("demo", text).values()]
    ['X1 — Part: Summary.', 'X1.1 — Detail: Body.']
    """
    found: dict[str, Rule] = {}
    current: tuple[str, str] | None = None  # (id, title) of the rule being read
    body: list[str] = []
    in_fence = False

    def close() -> None:
        if current is None:
            return
        rid, title = current
        text = "\n".join(body).strip("\n").strip()
        if not text:
            raise ValueError(f"{game}: rule {rid} has no text")
        found[rid] = Rule(rid, game, title, text)

    for lineno, raw in enumerate(source.splitlines(), start=1):
        line = raw.rstrip()
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING_RE.match(line)
        if heading is None or len(heading.group(1)) not in (1, 2, 3):
            if current is not None:
                body.append(line)
            continue
        close()
        current, body = None, []
        if len(heading.group(1)) == 1:  # the document title
            continue
        content = heading.group(2)
        match = _RULE_HEADING_RE.match(content)
        if match is None:
            if _ID_FIRST_RE.match(content):
                raise ValueError(
                    f"{game}, line {lineno}: rule heading {content!r} must read '<ID> — <Title>'"
                )
            continue  # a heading without an ID: free text, not a rule
        rid, title = match.group("id"), match.group("title").strip()
        if rid in found:
            raise ValueError(f"{game}, line {lineno}: duplicate rule ID {rid}")
        current = (rid, title)
    close()
    return found


def _reference_files() -> dict[str, str]:
    """Map every reference name (games and ``core``) to its file name."""
    names = {
        entry.name[: -len(".md")]: entry.name
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".md")
    }
    return names


@cache
def _games() -> tuple[str, ...]:
    names = set(_reference_files()) - {CORE}
    first = [g for g in _PREFERRED_ORDER if g in names]
    return tuple(first + sorted(names - set(first)))


@cache
def _load(name: str) -> dict[str, Rule]:
    """Parse and cache one reference (a game or ``core``)."""
    file = _reference_files()[name]
    source = resources.files(__name__).joinpath(file).read_text(encoding="utf-8")
    return _parse(name, source)


def _check_game(game: str) -> str:
    if not isinstance(game, str) or (game != CORE and game not in _games()):
        raise ValueError(
            f"unknown game {game!r}; the rules reference covers "
            f"{', '.join(_games())} (and {CORE!r} for the shared rules)"
        )
    return game


def _words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def games() -> list[str]:
    """List the games that have a rules reference.

    Returns
    -------
    list[str]
        Game names in a fixed order; ``"core"`` is not included.

    Examples
    --------
    >>> games()
    ['depot', 'cirno_neu', 'crypto_trick', 'yadokarick']
    """
    return list(_games())


def rules(game: str) -> dict[str, Rule]:
    """Return every rule of one game, in the order of its reference file.

    Parameters
    ----------
    game:
        A name from :func:`games` (or ``"core"`` for G1–G5). Core rules are
        not included in a game's rules; :func:`lookup` falls back to them.

    Returns
    -------
    dict[str, Rule]
        A new dictionary keyed by rule ID.

    Raises
    ------
    ValueError
        If the game has no reference; the message lists the games.

    Examples
    --------
    >>> depot = rules("depot")
    >>> list(depot)[:3]
    ['D1', 'D1.1', 'D1.2']
    >>> "G1" in depot, list(rules("core"))
    (False, ['G1', 'G2', 'G3', 'G4', 'G5'])
    """
    return dict(_load(_check_game(game)))


def lookup(rule_id: str, game: str | None = None) -> Rule:
    """Find a rule by its ID.

    Parameters
    ----------
    rule_id:
        The ID, e.g. ``"D4.2"``, ``"DA-7"``, ``"D6"`` or ``"G3"``. Case and
        surrounding whitespace do not matter (``" d4.2 "`` works).
    game:
        Search this game's rules, then the core rules. Without it every game
        and the core rules are searched; an ID that more than one game defines
        then needs ``game=``.

    Returns
    -------
    Rule
        The matching entry.

    Raises
    ------
    LookupError
        If no rule has this ID (the message names the ID, and the game when
        one was given), or if several games define it without ``game=``.
    ValueError
        If ``game`` has no reference.
    TypeError
        If ``rule_id`` is not a string.

    Examples
    --------
    >>> lookup("d4.2").title
    'Sets and runs'
    >>> lookup("G1", game="depot").game
    'core'
    >>> lookup("CA-8", game="crypto_trick").title
    'How declaring works'
    >>> lookup("D4.2", game="cirno_neu")
    Traceback (most recent call last):
    ...
    LookupError: D4.2 is not a rule of cirno_neu or a core rule (depot defines it)
    """
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule ID is a string, not {type(rule_id).__name__}")
    rid = rule_id.strip().upper()
    if game is not None:
        _check_game(game)
        for name in (game, CORE):
            found = _load(name).get(rid)
            if found is not None:
                return found
        elsewhere = [g for g in _games() if g != game and rid in _load(g)]
        # Only name other games when there are some (_words of nothing has no first item).
        hint = f" ({_words(elsewhere)} {'defines' if len(elsewhere) == 1 else 'define'} it)" if elsewhere else ""
        where = "the core rules" if game == CORE else f"{game} or a core rule"
        raise LookupError(f"{rid or repr(rule_id)} is not a rule of {where}{hint}")
    owners = [name for name in (*_games(), CORE) if rid in _load(name)]
    if not owners:
        raise LookupError(
            f"{rid or repr(rule_id)} is not a rule of any game ({', '.join(_games())}) "
            f"or a core rule"
        )
    if len(owners) > 1:
        raise LookupError(f"{rid} is defined by {_words(owners)}; pass game=")
    return _load(owners[0])[rid]


def as_json(game: str) -> dict[str, dict[str, str]]:
    """Return a game's rules and the core rules as plain JSON for the front end.

    Parameters
    ----------
    game:
        A name from :func:`games` (``"core"`` gives the core rules alone).

    Returns
    -------
    dict[str, dict[str, str]]
        ``{id: {"title": ..., "text": ...}}``: the game's rules in file order,
        then G1–G5.

    Raises
    ------
    ValueError
        If the game has no reference.

    Examples
    --------
    >>> data = as_json("cirno_neu")
    >>> data["N4.3"]["title"], "G3" in data
    ('No busting on purpose', True)
    """
    merged = {**_load(_check_game(game)), **_load(CORE)}
    return {rid: {"title": r.title, "text": r.text} for rid, r in merged.items()}


def url(rule_id: str, game: str | None = None, *, base: str = "") -> str:
    """The address of a rule in the documentation site: ``rules/<game>.html#<ID>``.

    Every rule of the site's rules reference has an anchor named by its ID, so
    the address is stable; the core rules G1-G5 are on ``rules/core.html``.

    Parameters
    ----------
    rule_id:
        The ID, as :func:`lookup` takes it (case and spaces do not matter).
    game:
        As for :func:`lookup`: needed only for an ID that several games define.
    base:
        The address of the site's root; without it the address is relative to the
        root. A missing ``/`` between the two is added.

    Returns
    -------
    str
        The rule's address, with the ID written as the reference writes it.

    Raises
    ------
    LookupError
        If no rule has this ID (as :func:`lookup`).

    Examples
    --------
    >>> url("d4.2")
    'rules/depot.html#D4.2'
    >>> url("G3", game="yadokarick")
    'rules/core.html#G3'
    >>> url("N4.3", base="https://example.org/cardwidgets")
    'https://example.org/cardwidgets/rules/cirno_neu.html#N4.3'
    """
    rule = lookup(rule_id, game)
    if base and not base.endswith("/"):
        base += "/"
    return f"{base}rules/{rule.game}.html#{rule.id}"


# --- finding the IDs a line cites -------------------------------------------------------------

_BARE = r"[A-Z]{1,3}\d+"
_ANY_ID = r"[A-Z]{1,3}\d+(?:\.\d+)*|[A-Z]{1,3}-\d+"
# Dotted (D4.2) and hyphenated (DA-7) IDs cannot be mistaken for card names, so they
# count wherever they stand.
_SHAPED_RE = re.compile(r"(?<![\w.\-])([A-Z]{1,3}\d+(?:\.\d+)+|[A-Z]{1,3}-\d+)(?![\w\-]|\.\d)")
_TOKEN_RE = re.compile(rf"(?<![\w.\-])(?:{_ANY_ID})(?![\w\-]|\.\d)")
_SEP = r"\s*(?:,|/|&|;|–|\band\b|\bor\b)\s*"
_LIST = rf"(?:{_ANY_ID})(?:{_SEP}(?:{_ANY_ID}))*"
# A bare ID such as D6 or G3 could also be a card (G3 is a green 3 in Crypto Trick and
# Yadokarick), so it only counts after "rule"/"rules", as a whole line, or in parentheses
# that hold nothing but rule IDs and name a real section (never G1-G5 there: "(G3)" in a
# trick narration is far more likely a card).
_AFTER_RULE_RE = re.compile(rf"\b(?i:rules?)\s+({_LIST})(?![\w\-]|\.\d)")
_PAREN_RE = re.compile(rf"\(\s*({_LIST})\s*\)")
_WHOLE_RE = re.compile(rf"^\s*({_LIST})\s*[.!]?\s*$")


def _ids_in(span: str, offset: int) -> list[tuple[int, str]]:
    return [(offset + m.start(), m.group(0)) for m in _TOKEN_RE.finditer(span)]


def cited(text: str, *, game: str | None = None) -> list[str]:
    """List the rule IDs a narration or refusal line cites, in order, each once.

    Dotted IDs (``D4.2``) and hyphenated ones (``DA-7``) count
    wherever they appear. A bare ID such as ``D6`` or ``G3`` could also be a
    card name (``G3`` is a green 3 in two of the games), so it counts only
    after the word "rule"/"rules" (``rules N2.3, N6``), when it is the whole
    line, or inside parentheses that hold only rule IDs and name a section of
    a game's reference (``(D6)``, ``(D6.5, D9)``); the core rules G1-G5 are
    recognised bare only in the first two forms. The IDs are not required to
    exist: use :func:`lookup` to resolve them.

    Parameters
    ----------
    text:
        The line to scan.
    game:
        Optionally, the game the line comes from; bare IDs in parentheses then
        count only if they name one of that game's sections.

    Returns
    -------
    list[str]
        The IDs in order of first appearance, without repeats.

    Examples
    --------
    >>> cited("A leads [2] (single; limits: set 1, run 3) — rule D4.8.")
    ['D4.8']
    >>> cited("Round 2: A leads (rules N2.3, N6.6). See also (D6.5, D9).")
    ['N2.3', 'N6.6', 'D6.5', 'D9']
    >>> cited("C passes (D6): takes both 5s.")
    ['D6']
    >>> cited("S0:Y1  S1:W6  S2:B5  → S1 wins with G3 (C7.2)")
    ['C7.2']
    >>> cited("G3"), cited("rule G3"), cited("S1 wins with a trump (G3)")
    (['G3'], ['G3'], [])
    """
    found: list[tuple[int, str]] = [(m.start(), m.group(1)) for m in _SHAPED_RE.finditer(text)]
    for m in _AFTER_RULE_RE.finditer(text):
        found += _ids_in(m.group(1), m.start(1))
    whole = _WHOLE_RE.match(text)
    if whole:
        found += _ids_in(whole.group(1), whole.start(1))
    known = _bare_ids(game)
    for m in _PAREN_RE.finditer(text):
        for pos, rid in _ids_in(m.group(1), m.start(1)):
            if re.fullmatch(_BARE, rid) is None or rid in known:
                found.append((pos, rid))
    out: list[str] = []
    for _, rid in sorted(found):
        if rid not in out:
            out.append(rid)
    return out


@cache
def _bare_ids(game: str | None) -> frozenset[str]:
    """Section IDs (no dot, no hyphen): the bare IDs worth citing from parentheses."""
    names = _games() if game is None else (_check_game(game),)
    return frozenset(
        rid for name in names for rid in _load(name) if re.fullmatch(_BARE, rid)
    )
