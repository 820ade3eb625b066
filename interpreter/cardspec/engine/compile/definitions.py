"""Pass 6 of compiling (``engine/compile``): the ruleset's definitions, then what reads them.

Reads: ``data`` (``define:``), ``comp``, ``env``, ``ns``, ``_pending_vis``, ``_pending_zone_vis``, ``sides``. Adds nothing new: it
binds each definition in ``env`` (a function ``_d_NAME`` in ``ns``, or a folded constant), then compiles
the vars' ``seen_by``/``public_when``/``guess`` expressions, the zones' ``public_when`` and the ``sides:`` expressions, which may use
the definitions. Definitions are compiled in dependency order; a cycle is a problem (evaluation stays
bounded). A definition that reads only its arguments and costs enough keeps its values by argument
(``_memoized``).
"""
from __future__ import annotations

import re

from ..compiler import Compiler
from ...lang import ANY, BOOL, CARD, INT, SUIT, Binding, DslError, inline_body, list_of, name_problem, parse, py_param
from .caps import shown as _shown

ADDS = ()


def run(g):
    comp = g.comp
    _defines(g, comp, g.data.get("define") or {})
    for v, spec in g._pending_vis:
        for key in ("seen_by", "public_when", "guess"):
            if key in spec:
                want = {"seen_by": (INT,), "public_when": (BOOL,)}.get(key, ())
                setattr(v, key, comp.expr(spec[key], ("vars", v.name, key), (), want))
    for z, spec in g._pending_zone_vis:   # zones: public_when: (p: the pile's owner; a shared zone: -1)
        z.public_when = comp.expr(spec, ("zones", z.name, "public_when"), (("p", INT),), (BOOL,))
        if z.melds or z.visibility in ("all",):
            comp.problem(("zones", z.name, "public_when"), f"zone '{z.name}' is always seen by every seat "
                         f"({'melds' if z.melds else 'visibility: all'}): public_when changes nothing",
                         "public_when shows a hidden zone (visibility: owner, none, top, all_but_owner)")
    if g.sides is not None:
        g.sides.compile(g, comp)
    return g


def _defines(g, comp: Compiler, defines: dict):
    """Compile ``define:`` entries in dependency order; a cycle is an error (evaluation stays bounded)."""
    sigs = {}
    for key in defines:
        name, params = _signature(key)
        if name is not None:
            sigs[name] = (key, {p for p, _ in params})
    deps = {}
    for name, (key, params) in sigs.items():
        try:
            tree = parse(str(defines[key]))
            used = {str(t) for t in tree.scan_values(lambda v: getattr(v, "type", None) == "NAME")}
        except DslError:
            used = set()
        deps[name] = sorted((used & set(sigs)) - params - {name}) + ([name] if name in used - params else [])
    order, state, cyclic = [], {}, set()

    def visit(name, chain):
        if state.get(name) == 2:
            return
        if state.get(name) == 1 or name in deps[name]:
            cyc = chain[chain.index(name):] + [name] if name in chain else [name, name]
            comp.problem(("define", sigs[name][0]), "definitions refer to each other in a cycle: "
                         + " -> ".join(cyc), "a definition may not use itself, directly or indirectly")
            cyclic.update(cyc)
            state[name] = 2
            return
        state[name] = 1
        for d in deps[name]:
            if d != name:
                visit(d, chain + [name])
        state[name] = 2
        order.append(sigs[name][0])

    for name in sigs:
        visit(name, [])
    ordered = order + [k for k in defines if k not in order]
    for name in cyclic:   # reported above; a placeholder keeps other uses from being reported again
        g.env.names[name] = Binding(f"_d_{name}", ANY, kind="define", params=tuple(
            p for p, _ in _signature(sigs[name][0])[1]), param_types=(ANY,) * len(_signature(sigs[name][0])[1]))
        g.ns[f"_d_{name}"] = lambda *a: 0
    pure = set()   # the definitions that read nothing but their arguments (``_pure``)
    for key in ordered:
        text = defines[key]
        name, params = _signature(key)
        if name in cyclic:
            continue
        if name is None:
            comp.problem(("define", key), f"'{_shown(key)}' is not a definition name (NAME or NAME(a, b), "
                         "each a name of letters, digits and _, not a word of the language, parameters distinct)")
            continue
        ptypes = []
        for p, t in params:
            ptypes.append({"card": CARD, "suit": SUIT, "int": INT, "seat": INT, "": INT,
                           "cards": list_of(CARD)}.get(t, INT))
        g.env.owner = name   # the names it reads count only if something uses the definition
        try:
            code = comp.code(text, ("define", key), tuple(zip([p for p, _ in params], ptypes)))
        finally:
            g.env.owner = None
        fname = f"_d_{name}"
        if code is None:
            g.env.names[name] = Binding(fname, ANY, kind="define", params=tuple(p for p, _ in params),
                                           param_types=tuple(ptypes))
            g.ns[fname] = lambda *a: 0
            continue
        if not params and code.const:   # folded at load time: a constant of this game
            g.env.names[name] = Binding(code.src, code.type, const=True)
            continue
        comp.function(code.src, tuple(zip([p for p, _ in params], ptypes)), name=fname)
        if params and _pure(code.src, pure):   # reads only its arguments (no state): memoized when worth it
            pure.add(fname)
            if code.type in (INT, BOOL) and code.cost >= _MEMO_COST:
                g.ns[fname] = _memoized(g.ns[fname])
        # Definitions that read the trick in progress (docs/tricks.md): the tricks step keeps the list of
        # plays in its random playouts for the rulesets that call them.
        # Every definition's parameters and generated body: the score step specialises the one it calls
        # (steps/score.py).
        g.env.__dict__.setdefault("def_src", {})[fname] = (
            tuple(py_param(p) for p, _ in params), code.src)
        readers = g.env.__dict__.setdefault("trick_readers", set())
        if "s.plays" in code.src or any(re.search(rf"\b{r}\(", code.src) for r in readers):
            readers.add(fname)
        g.env.names[name] = Binding(fname, code.type, kind="define", params=tuple(p for p, _ in params),
                                       param_types=tuple(ptypes), body=inline_body(code.src),
                                       values=code.values, cost=code.cost, size=code.size, mag=code.mag)


#: A definition with parameters whose value is a number or a truth value, reads no state and costs at
#: least this much (the load-time cost bound, docs/dsl.md "Bounds") keeps its values by argument
#: (``_memoized``): a meld's stand-ins are asked at every small choice of a lay-off.
_MEMO_COST = 500

#: The most argument tuples a memoized definition keeps (then it starts again).
_MEMO_SIZE = 4096


def _pure(src: str, pure: set) -> bool:
    """Whether the generated body ``src`` reads nothing but its parameters: no ``s`` (the state) but as
    the first argument of definitions in ``pure``."""
    for fname in pure:
        if fname in src:
            src = re.sub(rf"\b{fname}\(s\b,?", f"{fname}(", src)
    return re.search(r"\bs\b", src) is None


def _memoized(fn):
    """``fn(s, *args)`` of a definition that reads only ``args``, with its values kept by ``args`` (at
    most ``_MEMO_SIZE``; arguments that cannot be hashed, such as lists, are computed each time). The
    same values: a definition is pure (expressions have no effects)."""
    memo = {}

    def memo_fn(s, *args):
        try:
            return memo[args]
        except KeyError:
            pass
        except TypeError:
            return fn(s, *args)
        r = fn(s, *args)
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[args] = r
        return r
    memo_fn.__wrapped__ = fn
    return memo_fn


def _signature(key):
    """``(name, [(param, type), …])`` of a ``define:`` key ``NAME`` or ``NAME(a, c: card)`` (spaces around the
    parts allowed); ``(None, [])`` unless the name and every parameter pass ``lang.names.name_problem`` (the
    grammar's NAME, no keyword) and the parameters are distinct."""
    if not isinstance(key, str):
        return None, []
    key = key.strip(' ')
    if "(" not in key:
        return (key, []) if name_problem(key) is None else (None, [])
    name, rest = key.split("(", 1)
    if not rest.endswith(")") or name_problem(name.strip(' ')) is not None:
        return None, []
    params = []
    for p in rest[:-1].split(","):
        p = p.strip(' ')
        if not p:
            continue
        pname, _, ptype = p.partition(":")
        if name_problem(pname.strip(' ')) is not None or pname.strip(' ') in [q for q, _ in params]:
            return None, []
        params.append((pname.strip(' '), ptype.strip(' ')))
    return name.strip(' '), params
