"""Compiling one action kind of a turns step: ``_Action``, ``compile_action`` (engine/steps/turns/).

An action (docs/turns.md, ``actions:``) has a text, parameters of four kinds (``KINDS``: card.py,
cards.py, number.py, choice.py), a ``legal:`` condition and effects. Each action's legal moves and its
legality check are generated as Python functions at load time, from the loops and checks its
parameters compile to; the check (``is_legal``) never lists every move, so a typed ``meld 7H 8H 9H`` is
checked directly even when thousands of melds are possible. core.py compiles the step's actions with
``compile_action`` and ``distinct_text``; search.py searches their parameters one small choice at a time.
"""
from __future__ import annotations

import ast
import re
from itertools import repeat

from ...compiler import lazy_invariants
from ...effects import effects_source
from ...information import face_down_params
from ....lang import ANY, BOOL, INT, Binding, DslError, compile_expr, name_problem, py_param
from ..base import MAX_LISTED, _listing_too_large, _sub_multiset
from .card import Card
from .cards import Cards, _candidates, _combos, _perms, _sum_combos
from .choice import Choice, _choose, _distinct_values
from .lazy import lazy_domains
from .number import Number, _range

#: The kinds of a parameter, by their YAML key (an action's ``params: {NAME: {KEY: …}}``).
#: A listing's one loop ``for p_NAME in EXPR:`` (its parameter, the values' source).
_PLAIN_LOOP = re.compile(r"for (p_\w+) in (.+):")

KINDS = {"card": Card, "cards": Cards, "number": Number, "choice": Choice}
PARAM_KINDS = tuple(KINDS)
#: Whether a capture by sum lists only the sets of its sum (``_sum_pruned``); False: every set, each
#: checked (the tests compare both on seeded positions).
SUM_PRUNED = True


class _Action:
    __slots__ = ("name", "text", "words", "params", "legal_fn", "moves_fn", "check_fn", "fx", "help", "index",
                 "secret", "legal_text", "never", "why_parts", "write", "path", "pre", "hoisted", "face_down",
                 "digits_free", "zipped", "shared", "lazy")


def distinct_text(actions, done_text, skip_text, comp, a, spec, path) -> bool:
    """Whether action ``a``'s text can be told apart from the step's other ``actions`` and its done/skip
    words: two actions written alike would list one and apply the other (fuzz seed 20261201, mutant
    23712: an action `prophesy` given `text: play` listed 'play' and then refused it as the play of cards
    that 'needs declare'). A problem at the action's text (or the action) for the second."""
    if not a.words:
        comp.problem(path + ("text",) if isinstance(spec, dict) and "text" in spec else path,
                     f"action '{a.name}' has an empty text: a player could not write it")
        return False
    words = " ".join(a.words)
    clash = next((b.name for b in actions if b.words == a.words), None)
    what = (f"the text of action '{clash}'" if clash is not None else
            "the word that ends a phase (done:)" if words == done_text.lower() else
            "the word that passes a phase (pass:)" if words == skip_text.lower() else None)
    if what is None:
        return True
    at = path + ("text",) if isinstance(spec, dict) and "text" in spec else path
    comp.problem(at, f"action '{a.name}' is written '{words}', {what}: a player's text could not say which",
                 "give each action of a step a text of its own (text: …)")
    return False


def compile_action(game, comp, name, spec, path):
    """The ``_Action`` of action kind ``name`` (``spec``: its YAML at ``path``), or None after a problem."""
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        comp.problem(path, "an action is a mapping {text, params, legal, effects}")
        return None
    a = _Action()
    a.path = tuple(path)   # (for the listing bound, engine/listing.py)
    a.pre = None           # legal: when it names no parameter: checked before any search (_feasible)
    a.zipped = False       # listed by zips in C (one unconditioned parameter: core.py's LISTED_IN_C)
    a.hoisted = False
    a.shared = None        # (loop variable, values, condition, memo): a listing that may share its values
    a.name = str(name)
    a.text = str(spec.get("text", a.name.replace("_", " ")))
    a.words = tuple(a.text.lower().split())
    a.help = spec.get("help", "")
    a.secret = bool(spec.get("secret", False))   # its action event is shown to the actor only
    ctx = [("seat", INT)]
    a.params = []
    params = spec.get("params") or {}
    if not isinstance(params, dict):
        comp.problem(path + ("params",), "params is a mapping NAME: {card|cards|number|choice: …}")
        params = {}
    loops = []     # legal generation: nested loops
    checks = []    # direct check of given args
    for pname, pspec in params.items():
        pp = path + ("params", pname)
        why = name_problem(pname) or ("it names the acting seat" if pname in ("seat", "s") else None)
        if why is not None:
            comp.problem(pp, f"a parameter's name: {why}", "e.g. params: {cards: {cards: hand}}")
            continue
        kinds = [k for k in (pspec or {}) if k in PARAM_KINDS] if isinstance(pspec, dict) else []
        if len(kinds) != 1:
            comp.problem(pp, f"a parameter has one of {', '.join(PARAM_KINDS)}")
            continue
        P = KINDS[kinds[0]](pname, pspec)
        loop = P.compile(game, comp, pspec, pp, tuple(ctx), checks)
        if loop is None:
            continue
        loops.append((loop, []))
        a.params.append(P)
        ctx.append((pname, P.type))
    ctx = tuple(ctx)
    # legal: an expression, {rule: EXPR, reason: TEXT} or a list of them (all must hold); the action's
    # reason: is the default reason. A refused action names the reason of the part that failed.
    why = spec.get("reason")
    parts = comp.condition_parts(spec.get("legal", True), path + ("legal",),
                                 " ".join(str(why).split()) if why is not None else None)
    codes = [(comp.code(text, p, ctx, (BOOL,)), r, " ".join(str(text).split())) for text, r, p in parts]
    if not codes or any(c is None for c, _, _ in codes):
        lsrc = "False"
    else:
        lsrc = codes[0][0].src if len(codes) == 1 else " and ".join(f"({c.src})" for c, _, _ in codes)
    a.legal_text = " and ".join(x for _, _, x in codes) if len(codes) != 1 else codes[0][2]
    unpack = ["(" + "".join(py_param(P.name) + ", " for P in a.params) + ") = p_args"] if a.params else []
    a.why_parts = [(comp.function("", (("seat", INT), ("args", ANY)), statements=unpack + [f"return bool({c.src})"])
                    if len(codes) > 1 else None,
                    r or f"'{a.text}' needs {x}, which does not hold now", x)
                   for c, r, x in codes if c is not None]
    args = "(" + "".join(py_param(P.name) + ", " for P in a.params) + ")"
    lines = ["out = []"]
    a.never = lsrc == "False"   # never legal (e.g. an option's test): _moves does not call its lister
    check_src = lsrc   # a typed action is checked against the whole condition, hoisted or not
    if a.params and lsrc != "True" and _param_free(game, " and ".join(f"({t})" for t, _, _ in parts)):
        lines.append(f"if not ({lsrc}): return out")   # the same for every value: checked once
        a.pre = comp.function(lsrc, (("seat", INT),))
        a.hoisted = True
        lsrc = "True"
    # One number spelled in digits whose legality names no parameter: every value of its range is legal
    # when ``pre`` holds (its check is the range's and ``pre``), so search.py reads a ``DigitTable``.
    a.digits_free = len(a.params) == 1 and a.params[0].digits and lsrc == "True"
    # A last card-set parameter whose legal: begins with a sum of a card table over it equal to a value
    # not reading it (a capture by sum): only the sets of that sum are made (cards._sum_combos).
    summed = _sum_pruned(comp, a, loops, codes) if lsrc != "True" and SUM_PRUNED else None
    if summed is not None:
        var, call = loops[-1][0][len("for "):-len("SORT_KEY.__getitem__):")].split(" in _t_combos(", 1)
        call = f"_t_sumc({call}SORT_KEY.__getitem__, {summed}, " + \
            (f"{MAX_LISTED})" if len(loops) == 1 else f"{MAX_LISTED} - _n)")
        loops[-1] = (f"for {var} in {call}[0]:" if len(loops) == 1 else f"for {var} in _sc[0]:", [])
    ind = ""
    for k, (head, _) in enumerate(loops):
        if summed is not None and k == len(loops) - 1 and len(loops) > 1:
            # the sets not made are counted at once (the listing's count is the same as before)
            lines += [ind + f"_sc = {call}", ind + "_n += _sc[1]"]
        lines.append(ind + head)
        ind += "    "
    # its moves as a product of its parameters' values, indexed without listing them (lazy.py), or None
    a.lazy = lazy_domains(comp, loops, a.params, lsrc, f"the action {a.name} (its parameters together)")
    if len(loops) > 1:   # each loop is bounded; their product is counted (MAX_LISTED)
        lines.insert(1, "_n = 0")
        what = f"the action {a.name} (its parameters together)"
        lines += [ind + ("_n += _sc[2]" if summed is not None else "_n += 1"),
                  ind + f"if _n > {MAX_LISTED}: _t_over({what!r})"]
    lines.append(ind + (f"if {lsrc}: out.append({args})" if lsrc != "True" else f"out.append({args})"))
    lines.append("return out")
    # the same loops making the internal moves (action index, args) at once (_moves)
    mlines = lines[:-2] + [lines[-2].replace(f"out.append({args})", f"out.append((p_index, {args}))"), "return out"]
    if len(loops) == 1 and loops[0][0].startswith("for ") and loops[0][0].endswith(":"):
        # one loop: a list comprehension (the same list, less work per value)
        i = lines.index(loops[0][0])
        # the condition's parts that do not read the value (a deadwood of the whole hand), computed once a
        # listing, where first needed, not once per value (compiler.lazy_invariants)
        lazy = lazy_invariants(lsrc, [py_param(P.name) for P in a.params], "_lz", comp.ns) \
            if lsrc != "True" else lsrc
        memo = ["_lz = {}"] if lazy != lsrc else []
        clause = loops[0][0][:-1] + (f" if ({lazy})" if lsrc != "True" else "")
        head = loops[0][0][:-1]
        if lines[:i] == ["out = []"] and head.startswith("for ") and " in sorted(" in head:
            var, values = head[len("for "):].split(" in ", 1)   # (values: a new sorted list; core.py)
            a.shared = (var, values, f" if ({lazy})" if lsrc != "True" else "", bool(memo), args)
        lines = lines[:i] + memo + [f"return [{args} {clause}]"]
        mlines = mlines[:i] + memo + [f"return [(p_index, {args}) {clause}]"]
        m = _PLAIN_LOOP.fullmatch(loops[0][0])
        if lsrc == "True" and m is not None and args == f"({m.group(1)}, )":
            # every value of one parameter, unconditioned (lead any card of the hand): the same tuples made
            # in C, (index, (value,)) by zips, with no Python step per value
            a.zipped = True
            lines = lines[:i] + [f"return list(zip({m.group(2)}))"]
            mlines = mlines[:i] + [f"return list(zip(_t_repeat(p_index), zip({m.group(2)})))"]
    comp.ns.update(_t_combos=_combos, _t_perms=_perms, _t_sub=_sub_multiset, _t_range=_range,
                   _t_cands=_candidates, _t_sumc=_sum_combos, _t_distinct=_distinct_values, _t_over=_listing_too_large,
                   _t_choose=_choose, _t_repeat=repeat)
    a.legal_fn = comp.function("", (("seat", INT),), statements=lines)
    a.moves_fn = comp.function("", (("seat", INT), ("index", INT)), statements=mlines)
    clines = []
    if a.params:
        clines.append("(" + "".join(py_param(P.name) + ", " for P in a.params) + ") = p_args")
    clines += checks + [f"return bool({check_src})"]
    a.check_fn = comp.function("", (("seat", INT), ("args", ANY)), statements=clines)
    src = effects_source(game, comp, spec.get("effects"), path + ("effects",), ctx)
    a.fx = comp.function("", ctx, statements=src) if src else None
    a.write = _writer(a, game.deck)
    # The card parameters whose cards go (or stay) face down: the other seats' logs count them, not name
    # them (engine/information.py; issue 32: a discard face down was told to every seat).
    a.face_down = face_down_params(game, [(P.name, P.kind, getattr(P, "zone", None)) for P in a.params],
                                   spec.get("effects"), ctx)
    return a


def _sum_pruned(comp, a, loops, codes):
    """``"TABLE, lambda: EXPR"`` when action ``a``'s last parameter is a set of cards listed by ``_combos``
    (unordered, no ``candidates:``) and its ``legal:`` begins with ``sum(c.T for c in PARAM) == EXPR``:
    ``T`` a card table of ints >= 0 and ``EXPR`` not reading the parameter. Else None. Each part is
    compiled code (a table's name, an expression the checker built), never author text."""
    if not a.params or not codes or codes[0][0] is None:
        return None
    P = a.params[-1]
    head = loops[-1][0]
    var = py_param(P.name)
    if not (P.kind == "cards" and not P.ordered and P.cands is None and P.search is None
            and head.startswith(f"for {var} in _t_combos(") and head.endswith(", SORT_KEY.__getitem__):")):
        return None
    src = codes[0][0].src
    try:
        tree = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)):
        return None
    left = tree.left
    ok = (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "sum"
          and len(left.args) == 1 and not left.keywords and isinstance(left.args[0], ast.Call))
    inner = left.args[0] if ok else None
    if not (ok and isinstance(inner.func, ast.Name) and inner.func.id == "map" and len(inner.args) == 2
            and not inner.keywords and isinstance(inner.args[0], ast.Attribute)
            and inner.args[0].attr == "__getitem__" and isinstance(inner.args[0].value, ast.Name)
            and isinstance(inner.args[1], ast.Name) and inner.args[1].id == var):
        return None
    name = inner.args[0].value.id
    table = comp.ns.get(name)
    if not isinstance(table, tuple) or not table or not all(v.__class__ is int and v >= 0 for v in table):
        return None
    rhs = tree.comparators[0]
    if any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(rhs)):
        return None
    return f"{name}, lambda: ({ast.get_source_segment(src, rhs)})"


def _param_free(game, text):
    """True when ``legal:`` compiles with ``seat`` alone (it names no parameter): hoisted out of the loops."""
    try:
        compile_expr(text, game.env, {"seat": Binding("p_seat", INT)}, (BOOL,))
        return True
    except DslError:
        return False


def _writer(a, deck):
    """The function giving the text of action ``a``'s move from its values (``Turns.text``): its text, then
    the words of each parameter's value (the kind's ``writer``). One list of cards or cards only
    (``discard 2C 3C``, ``call AS``), the most frequent, is written without a call per parameter."""
    codes = deck.code
    kinds = [P.kind for P in a.params]
    t = a.text
    if kinds == ["cards"]:
        return lambda args: " ".join([t] + [codes[c] for c in args[0]])
    if kinds and all(k == "card" for k in kinds):
        return lambda args: " ".join([t] + [codes[c] for c in args])
    writers = [P.writer(deck) for P in a.params]
    return lambda args: " ".join([t] + [w for write, v in zip(writers, args) for w in write(v)])
