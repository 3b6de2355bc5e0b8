"""Sphinx extension of the cardwidgets site: generated pages, rule anchors, rule links.

* Before Sphinx reads anything (``config-inited``), the generators of
  :mod:`cwdocs.generate` write the rules reference, the lessons, the notebook copies
  and the replays into the source folder.
* Every rule heading of ``rules/<game>`` gets the rule ID itself as its HTML id, so
  ``rules/depot.html#D4.2`` is a stable link (what ``cardwidgets.rules.url`` returns).
  A rule that ends up without its anchor is a build warning (an error with ``-W``).
* Rule IDs cited in the text of the rules and lessons pages become links to their
  rule, and the ``{rule}`` role links one by hand: ``{rule}`D4.2``` or, for an ID
  several games define, ``{rule}`depot:D4.2```. An ID that does not resolve is a
  warning.
* The API reference: a cross-reference resolves to the object Python finds from where
  it is written (``:class:`~cardwidgets.Timeline``` is documented as
  ``cardwidgets.core.timeline.Timeline``; ``:meth:`to_dict``` in a game's state is the
  base class's); private base classes are shown as their public bases; attributes'
  docstrings are read as prose (see :func:`_attribute_prose`).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.ext.napoleon.docstring import NumpyDocstring
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import make_refnode

from . import generate

logger = logging.getLogger(__name__)

# A rule ID as a whole word: D4.2, D6, DA-7, G1 (the shapes cardwidgets.rules knows).
_TOKEN = re.compile(r"(?<![\w.\-])([A-Z]{1,3}\d+(?:\.\d+)*|[A-Z]{1,3}-\d+)(?![\w\-]|\.\d)")
# Nodes whose text stays as it is: code, headings, links, raw HTML.
_NO_LINKS = (nodes.literal, nodes.literal_block, nodes.title, nodes.reference, nodes.raw,
             nodes.comment, nodes.target, nodes.FixedTextElement)


def _game_of(docname: str) -> str | None:
    """The game (or ``"core"``) a rules or lessons page belongs to, from its name."""
    from cardwidgets import rules

    folder, _, name = docname.partition("/")
    if folder in ("rules", "lessons") and (name in rules.games() or name == rules.CORE):
        return name
    return None


def _rule_node(rule: Any) -> nodes.reference:
    """A link to a rule's anchor; the URI is filled in once the page is written."""
    node = nodes.reference("", rule.id, internal=True, classes=["cw-rule"], reftitle=rule.title)
    node["cw_rule"] = f"rules/{rule.game}#{rule.id}"
    return node


# --------------------------------------------------------------------------- generating
def _library_hash(root: Path) -> str:
    """A digest of the library's sources: the notebooks' cache is kept per version of it."""
    digest = hashlib.sha256()
    package = root / "cardwidgets"
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in {".py", ".json", ".md"}:
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _generate(app: Sphinx, config: Any) -> None:
    src = Path(app.srcdir)
    root = src.parent
    cache = src / "_build" / ".jupyter_cache"
    key = _library_hash(root)
    if cache.is_dir():  # caches of older versions of the library are of no further use
        for old in cache.iterdir():
            if old.name != key and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
    config.nb_execution_cache_path = str(cache / key)

    (src / "_generated" / "extra").mkdir(parents=True, exist_ok=True)  # html_extra_path
    generate.live_site(src)  # before the pages that embed its tables
    generate.rules_pages(src)
    generate.notebook_copies(src, root / "notebooks")
    for section, make in (("lessons", generate.lessons_pages), ("export", generate.replay_pages)):
        for note in make(src).notes:
            logger.info(f"[cwdocs] {section}: {note}")


# --------------------------------------------------------------------------- anchors and links
class RuleAnchors(SphinxTransform):
    """On ``rules/<game>``: each rule's section takes the rule ID as its first HTML id.
    On rules and lessons pages: rule IDs cited in the text become links."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        game = _game_of(self.env.docname)
        if game is None:
            return
        if self.env.docname.startswith("rules/"):
            self._anchor(game)
        self._link(game)

    def _anchor(self, game: str) -> None:
        from cardwidgets import rules

        ids = set(rules.rules(game))
        found = set()
        for section in self.document.findall(nodes.section):
            # A rule's heading reads "<ID> — <Title>" (the reference's own format).
            rid = section[0].astext().split(" — ", 1)[0].strip() if section.children else None
            if rid not in ids:
                continue
            if rid in self.document.ids:
                logger.warning(f"rule anchor {rid} is already used on this page", location=section)
                continue
            section["ids"].insert(0, rid)
            self.document.ids[rid] = section
            found.add(rid)
        _anchors(self.env)[self.env.docname] = found

    def _link(self, game: str) -> None:
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or any(isinstance(a, _NO_LINKS) for a in _ancestors(text)):
                continue
            pieces = _split(str(text), game)
            if pieces is not None:
                parent.replace(text, pieces)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def _split(text: str, game: str) -> list[nodes.Node] | None:
    """``text`` as text and rule links, or ``None`` when it cites no rule of ``game``."""
    from cardwidgets import rules

    cited = set(rules.cited(text, game=game))
    if not cited:
        return None
    sections = {rid for rid in rules.rules(game) if re.fullmatch(r"[A-Z]+\d+", rid)}
    out: list[nodes.Node] = []
    last = 0
    for m in _TOKEN.finditer(text):
        rid = m.group(1)
        shaped = "." in rid or "-" in rid
        # A bare ID (D6, G3) may also be a card's name: link only this game's sections.
        if rid not in cited or not (shaped or rid in sections):
            continue
        try:
            rule = rules.lookup(rid, game=game)
        except LookupError:
            continue
        out += [nodes.Text(text[last:m.start()]), _rule_node(rule)]
        last = m.end()
    if not out:
        return None
    out.append(nodes.Text(text[last:]))
    return [n for n in out if not (isinstance(n, nodes.Text) and not str(n))]


class RuleRole(SphinxRole):
    """``{rule}`D4.2``` or ``{rule}`depot:D4.2```: a link to the rule, its title on hover."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        from cardwidgets import rules

        game, _, rid = self.text.rpartition(":")
        game = game.strip() or _game_of(self.env.docname)
        try:
            rule = rules.lookup(rid, game=game or None)
        except (LookupError, ValueError) as e:
            msg = self.inliner.reporter.warning(f"rule {self.text!r}: {e}", line=self.lineno)
            prb = self.inliner.problematic(self.rawtext, self.rawtext, msg)
            return [prb], [msg]
        return [_rule_node(rule)], []


def _resolve_rule_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in doctree.findall(nodes.reference):
        target = node.get("cw_rule")
        if not target:
            continue
        page, anchor = target.split("#", 1)
        uri = "" if page == docname else app.builder.get_relative_uri(docname, page)
        node["refuri"] = f"{uri}#{anchor}"


# --------------------------------------------------------------------------- the API reference
_PROSE = "cw_attribute_prose"


def _attribute_prose(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Read the docstring of an attribute, property or constant as plain numpy prose.

    napoleon takes the first line of such a docstring as ``type: description`` (a
    Google-style form), so "The position at the cursor (do not mutate it: ...)" would
    become a type named "The position at the cursor (do not mutate it". The types
    come from the annotations; this runs after napoleon, on the docstring as written.
    """
    original = app.env.temp_data.get(_PROSE, {}).pop(name, None)
    if original is not None:
        lines[:] = NumpyDocstring(original, app.config, app, "function", "", obj, options).lines()


def _keep_original(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    if what in ("attribute", "property", "data"):
        app.env.temp_data.setdefault(_PROSE, {})[name] = list(lines)
    elif what == "module":  # its members come next (see _skip_reexports)
        app.env.temp_data["cw_module"] = name


def _skip_reexports(app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool | None:
    """Document a name once, where it is defined: a module's ``__all__`` may list names it
    imports from elsewhere (the errors in every game module). Names from the module's own
    package stay (a package shows the classes of its private submodules)."""
    module = app.env.temp_data.get("cw_module")
    home = getattr(obj, "__module__", None)
    if what == "module" and module and isinstance(home, str) and not (home + ".").startswith(module + "."):
        return True
    return None


def _factory_defaults(app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None,
                      return_annotation: str | None) -> tuple[str | None, str | None] | None:
    """A dataclass field with a ``default_factory`` shows as ``= <factory>``, which is not
    Python: Sphinx could not read the signature and would split it at every comma."""
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), return_annotation
    return None


#: The rooms of a game package whose classes are mixins of its State.
ROOMS = ("worlds", "position")


def _public_bases(app: Sphinx, name: str, obj: Any, options: Any, bases: list[type]) -> None:
    """Show a private base class (``_TrickTable``), or a game room's mixin (what a seat sees,
    position text: its methods are documented on the game's State), as the public classes it
    derives from."""
    out: list[type] = []
    todo = list(bases)
    while todo:
        base = todo.pop(0)
        room = base.__module__.startswith("cardwidgets.games.") and base.__module__.rsplit(".", 1)[-1] in ROOMS
        if base.__name__.startswith("_") or room:
            todo[:0] = [b for b in base.__bases__ if b is not object]
        elif base not in out:
            out.append(base)
    bases[:] = out or [object]


def _python_object(path: str, module: str | None, cls: str | None) -> str | None:
    """The canonical dotted name of what ``path`` names from ``module`` (inside ``cls``)."""
    first, _, rest = path.partition(".")
    scope: Any = None
    if module:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            return None
        owner = mod
        for part in (cls or "").split(".") if cls else ():
            owner = getattr(owner, part, None)
        # Where the name is written: the class (and its bases), the module that shows
        # it, and the module that defines the class (a package re-exports its classes).
        home = importlib.import_module(owner.__module__) if inspect.isclass(owner) else mod
        if inspect.isclass(owner) and any(first in vars(k) for k in owner.__mro__):
            scope = _member(owner, first)
        elif hasattr(mod, first):
            scope = getattr(mod, first)
        elif hasattr(home, first):
            scope = getattr(home, first)
    if scope is None:  # a dotted path from the top: cardwidgets.Timeline, cardwidgets.rules.lookup
        parts = path.split(".")
        for i in range(len(parts) - 1, 0, -1):
            try:
                scope = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            rest = ".".join(parts[i:])
            break
        else:
            return None
    for part in rest.split(".") if rest else ():
        if not inspect.isclass(scope) and not inspect.ismodule(scope):
            return None
        if inspect.ismodule(scope):
            if not hasattr(scope, part):
                return None
            scope = getattr(scope, part)
        else:
            if not any(part in vars(k) for k in scope.__mro__):
                return None
            scope = _member(scope, part)
    return _dotted(scope)


class _Member:
    """A class attribute as found in the class that defines it."""

    def __init__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name


def _member(cls: type, name: str) -> Any:
    owner = next(k for k in cls.__mro__ if name in vars(k))
    value = vars(owner)[name]
    return value if inspect.isclass(value) else _Member(owner, name)


def _dotted(obj: Any) -> str | None:
    if isinstance(obj, _Member):
        return f"{obj.owner.__module__}.{obj.owner.__qualname__}.{obj.name}"
    if inspect.ismodule(obj):
        return obj.__name__
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else None


def _resolve_python(app: Sphinx, env: Any, node: Any, contnode: nodes.Node) -> nodes.Node | None:
    """Resolve a Python cross-reference to the object Python finds from where it is written."""
    if node.get("refdomain") != "py":
        return None
    name = _python_object(node["reftarget"].lstrip("~."), node.get("py:module"), node.get("py:class"))
    if name is None:
        return None
    found = env.get_domain("py").objects.get(name)
    if found is None:
        return None
    return make_refnode(app.builder, node["refdoc"], found.docname, found.node_id, contnode, name)


# --------------------------------------------------------------------------- consistency
def _anchors(env: Any) -> dict[str, set[str]]:
    """The rule anchors each rules page has: docname -> IDs (kept in the environment)."""
    if not hasattr(env, "cw_rule_anchors"):
        env.cw_rule_anchors = {}
    return env.cw_rule_anchors


def _purge(app: Sphinx, env: Any, docname: str) -> None:
    _anchors(env).pop(docname, None)


def _merge(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    _anchors(env).update({d: a for d, a in _anchors(other).items() if d in docnames})


def _check(app: Sphinx, env: Any) -> None:
    """Every rule of every reference has its anchor."""
    from cardwidgets import rules

    anchors = _anchors(env)
    for name in [*rules.games(), rules.CORE]:
        doc = f"rules/{name}"
        missing = [rid for rid in rules.rules(name) if rid not in anchors.get(doc, set())]
        if missing:
            logger.warning(f"{doc}: no anchor for rule(s) {', '.join(missing[:10])}"
                           + (" ..." if len(missing) > 10 else ""), location=doc)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", _generate, priority=400)
    app.add_transform(RuleAnchors)
    app.add_role("rule", RuleRole())
    app.connect("doctree-resolved", _resolve_rule_links)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check)
    app.setup_extension("sphinx.ext.napoleon")
    app.connect("autodoc-process-docstring", _keep_original, priority=400)  # before napoleon
    app.connect("autodoc-process-docstring", _attribute_prose, priority=600)  # after napoleon
    app.connect("autodoc-process-bases", _public_bases)
    app.connect("autodoc-skip-member", _skip_reexports)
    app.connect("autodoc-process-signature", _factory_defaults)
    app.connect("missing-reference", _resolve_python)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
