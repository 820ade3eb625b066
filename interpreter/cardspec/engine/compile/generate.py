"""Pass 9 of compiling (``engine/compile``): the generated code is compiled, and the State's tables and class made.

Reads: everything the earlier passes added. ``comp.finish()`` raises one ``RulesetError`` with every problem
the passes found (each at file:line:col); otherwise the expressions' generated module is compiled once.
Adds the run-time tables the ``State`` reads (``n_v``: slots of ``s.v``; ``var_resets``; ``deal_counters``;
``per_seat``; ``key_mode``: how ``State.position_key`` keys each zone; ``pos_key``: ``position_key`` written out
for the game's zones, ``position_key_fn``) and ``_state_class``: ``State``, or a
subclass whose ``legal_actions``/``apply`` are generated for the game (``text_state_class``). The integer
action space and its generated id methods are made on first use (``action_codec``, from ``Game.actions``).

This is the one place where the compiled game meets the run-time ``State`` class: ``game.py`` and
``state.py`` do not import each other.
"""
from __future__ import annotations

from ..choices import ActionCodec
from ..slots import SYSTEM_VARS, TURN
from ..state import State
from ..steps.tricks import CHOICE
from ..steps.turns import TURNS
from ...errors import CardspecError

ADDS = ("n_v", "var_resets", "deal_counters", "per_seat", "key_mode", "pos_key", "_specialised", "_state_class")


def run(g):
    if g.comp.problems:   # the warnings too: a hidden engine name is often why an expression fails
        g.comp.problems.extend(g.warnings)
    g.comp.finish()
    g.n_v = len(SYSTEM_VARS) + len(g.vars)
    # State._start_deal: (slot, default) of the vars set again each deal, and of every var (the first
    # deal); (index, initial) of the per-deal counters.
    g.var_resets = (tuple((x.index, x.default) for x in g.vars if x.per == "deal"),
                    tuple((x.index, x.default) for x in g.vars))
    g.deal_counters = tuple((c.index, c.initial) for c in g.counters if c.per == "deal")
    g.per_seat = tuple(z.per_seat for z in g.zones)
    # how State.position_key keys each zone: 0 in order, 1 per seat as multisets, 2 top card + multiset
    g.key_mode = tuple(1 if z.per_seat else 2 if z.order == "top_only" else 0 for z in g.zones)
    g.pos_key = position_key_fn(g)
    g._specialised = {}   # (api, step index) -> True: the steps the generated API methods answer (specialisation)
    g._state_class = text_state_class(g) or State   # generated legal_actions/apply at trick steps
    return g


def position_key_fn(game):
    """``key(state) -> tuple``: ``State.position_key`` written out for ``game``'s zones (how many, which are
    per seat, how each is keyed: ``game.key_mode``) and its seat count, without the general method's
    ``zip``, per-zone tests and ``map`` calls: an equal tuple (same nesting, same values, same types) for
    every state of the game, so two positions are the same under it exactly when they are under
    ``position_key`` (tests/test_position_key.py compares the two over seeded positions). About a quarter
    fewer instructions than the general method (the sorting and hashing stay). Made once per game, at load
    (one function: no table). ``State`` instances only; raises what ``position_key`` raises."""
    nc = len(game.counters)
    zones = []
    for i, mode in enumerate(game.key_mode):
        if mode == 1:   # per seat: each hand as a sorted multiset (a state has game.n hands per such zone)
            zones.append(f"(({''.join(f'tuple(sorted(z{i}[{j}])), ' for j in range(game.n))}) "
                         f"if len(z{i} := z[{i}]) == {game.n} else tuple(map(tuple, map(sorted, z{i}))))")
        elif mode == 2:   # top_only: (top card, sorted rest); an empty zone as ()
            zones.append(f"((z{i}[-1], tuple(sorted(z{i}[:-1]))) if (z{i} := z[{i}]) else ())")
        else:
            zones.append(f"tuple(z[{i}])")
    src = ["def pos_key(s):",
           "    z = s.z",
           "    v = s.v",
           "    ts = s.ts",
           "    fl = s.flight",
           "    c = s.c",   # (one list per counter; the general form for any other length)
           f"    return (s.pc, s.terminal, ({''.join(z + ', ' for z in zones)}), "
           f"({''.join(f'tuple(c[{i}]), ' for i in range(nc))}) if len(c) == {nc} else tuple(map(tuple, c)), "
           f"tuple(v[:{TURN}]), tuple(v[{TURN + 1}:]), "
           f"(*ts[:{TURNS}], *ts[{TURNS + 1}:]) if ts is not None else None, tuple(s.face_up), "
           "tuple(s.plays), tuple([tuple(f) if f is not None else None for f in fl]) if fl is not None else None, "
           "tuple(s.queue), tuple(s.carried))"]
    ns = {}
    exec(compile("\n".join(src) + "\n", "<position_key_fn>", "exec"), ns)   # noqa: S102 - only ints written in
    fn = ns["pos_key"]
    fn.__doc__ = State.position_key.__doc__
    return fn


def action_codec(game):
    """``(codec, state class)``: the game's ``ActionCodec`` (engine/choices.py, docs/actions.md) and the class
    of the States it makes from then on (``fused_state_class``'s, or the one it had). Raises
    ``ActionSpaceError`` when a step's small choices are not known at load time."""
    codec = ActionCodec(game)
    return codec, fused_state_class(game, codec) or game._state_class


def _guarded_play(play: list, indent: str) -> list:
    """Statements of the generated API methods (``text_state_class``, ``fused_state_class``) that run a
    step's ``play`` statements (which set ``done``) as ``State._commit`` runs ``step.apply``: the flow goes
    on when the step is over, a coded error passes, any other failure of the rules is ``s._failed``'s
    error; then ``return s``. ``indent``: the block's indentation."""
    return [indent + ln for ln in ["try:"] + ["    " + x for x in play] + [
        "    if done:",
        "        s._finish_step()",
        "except _CardspecError:",
        "    raise",
        "except Exception as e:",
        "    raise s._failed(e) from None",
        "return s"]]


def text_state_class(game):
    """A subclass of ``State`` for ``game`` whose ``legal_actions`` and ``apply`` are generated: at a
    step with text statements (``Step.text_fused``: a trick step without ``choose:``/``auto:``) the
    step's listing (``legal_texts``' statements) and its play of one card run inside the API method
    itself — one Python frame per call instead of two — with the cache and history written as
    ``State``'s methods write them. Any other position (another step, a ``seat`` given, an action not
    in the listing, another spelling, the rules failing while listing) goes to ``State``'s own methods,
    which answer as before. None when no step has such statements. Made once, at load; ``Game.new_state``
    makes states of it (``fused_state_class`` builds on it; ``clone`` keeps the class)."""
    comp = getattr(game, "comp", None)
    if comp is None:
        return None
    legal, apply = [], []
    made = game.__dict__.setdefault("_specialised", {})   # (api, pc) -> True (read by ``specialisation``)
    # Later steps first: the play of a deal comes after its passes and bids, and makes most decisions.
    for pc, step in reversed(list(enumerate(game.steps))):
        if not step.decision or step.compound:
            continue
        spec = step.text_fused()
        if spec is None:
            continue
        made[("text", pc)] = True
        listing, play = spec
        chooses = getattr(step, "choose", None) is not None   # (moves from CHOICE on: State's own apply)
        legal += [f"{'if' if not legal else 'elif'} s.pc == {pc}:",
                  "    try:"] + ["        " + ln for ln in listing] + [
                  "    except Exception:",      # the general method says why
                  "        return _State_legal_actions(s)",
                  "    if _r:",                 # (none: the general method raises the rules' fault)
                  "        _t = list(map(_CODE_OF, _r))",
                  "        s._cache = (_t, _r)",
                  "        return _t[:]"]
        apply += [f"{'if' if not apply else 'elif'} s.pc == {pc}:",
                  "    try:",   # the listed text (anything else: the general method parses and checks it)
                  "        p_card = _c[1][_c[0].index(_action)]",
                  "    except (TypeError, ValueError, AttributeError):",
                  "        return _State_apply(s, _action, seat)"] + (
                  [f"    if p_card >= {CHOICE}:", "        return _State_apply(s, _action, seat)"]
                  if chooses else []) + [
                  "    s._cache = None",
                  "    s.partial = ()",
                  "    s._chpos = None",
                  "    s.history.append(_action)"] + _guarded_play(play, "    ")
    if not legal:
        return None
    game.ns.update({"_State_legal_actions": State.legal_actions, "_State_apply": State.apply,
                    "_CardspecError": CardspecError})
    f_legal = comp.function("", statements=[
        "if s._cache is None and not s.terminal:"] + ["    " + ln for ln in legal] + [
        "return _State_legal_actions(s)"], args="s")
    f_apply = comp.function("", statements=[
        "_c = s._cache",
        "if _c is not None and seat is None:"] + ["    " + ln for ln in apply] + [
        "return _State_apply(s, _action, seat)"], args="s, _action, seat=None")
    f_legal.__doc__, f_apply.__doc__ = State.legal_actions.__doc__, State.apply.__doc__
    f_legal.__name__, f_apply.__name__ = "legal_actions", "apply"
    return type("State", (State,), {"__slots__": (), "__module__": State.__module__,
                                    "legal_actions": f_legal, "apply": f_apply})


def fused_state_class(game, codec):
    """A subclass of ``State`` for ``game`` whose ``legal_action_ids`` and ``apply_id`` are generated:
    at a step whose id hot path has statements (``Step.id_fused``), the step's legal cards and play
    run inside the API method itself — one Python frame per call instead of two (or three), and the
    key → id look-ups, cache and history written once, not through the step's tuple. Any other
    position (another step, a cached listing, a ``seat`` given, an id that is not legal, the rules
    failing while listing) goes to ``State``'s own methods, which answer as before. None when no step
    has such statements. Made once, when the game's ``ActionCodec`` is built; ``Game.new_state``
    then makes states of it (``clone`` keeps the class). The hot path's cache is the 4-tuple ``(None,
    keys, None, id_fast)`` as ``State.legal_action_ids`` makes it; ``apply_id`` knows it by its last
    item (every other cache ends with a list or the codec's names, never a step's ``id_fast``)."""
    comp = getattr(game, "comp", None)
    if comp is None:
        return None
    legal, apply = [], []
    names = {"_State_legal_action_ids": State.legal_action_ids, "_State_apply_id": State.apply_id,
             "_CardspecError": CardspecError, "_ID_NAMES": codec._names}
    # Later steps first: the play of a deal comes after its passes and bids, and makes most decisions.
    for pc, step in reversed(list(enumerate(game.steps))):
        f = step.id_fast
        if f is None or not step.decision or step.compound:
            continue
        spec = step.id_fused(codec)
        if spec is None:
            continue
        game.__dict__.setdefault("_specialised", {})[("ids", pc)] = True
        keys, play, more = spec
        k = f"_{pc}"
        names.update(more)
        names[f"_id_fast{k}"], names[f"_id_of{k}"], names[f"_key_of{k}"] = f, f[0], f[6].get
        mode = f[3]
        ids = f"sorted(map(_id_of{k}, c1))" if not mode else \
            f"list(map(_id_of{k}, c1))" if mode == 2 else f"sorted(set(map(_id_of{k}, c1)))"
        legal += [f"{'if' if not legal else 'elif'} s.pc == {pc}:",
                  "    try:"] + ["        " + ln for ln in keys] + [
                  "    except Exception:",      # the general method says why (state unchanged)
                  "        return _State_legal_action_ids(s)",
                  "    if c1:",
                  f"        s._cache = (None, c1, None, _id_fast{k})",
                  f"        return {ids}"]
        apply += [f"{'if' if not apply else 'elif'} _hot is _id_fast{k}:",
                  "    try:",   # (an id of any type: a look-up that fails leaves it to the general method)
                  f"        p_card = _key_of{k}(_aid)",
                  "    except TypeError:",
                  "        p_card = None",
                  "    if p_card is not None and p_card in _c[1]:",
                  "        s.history.append(_ID_NAMES[_aid])",   # (first: an _aid no index leaves all as it was)
                  "        s._cache = None"] + _guarded_play(play, "        ")
    if not legal:
        return None
    game.ns.update(names)
    f_legal = comp.function("", statements=[
        "if s._cache is None and not s.terminal:"] + ["    " + ln for ln in legal] + [
        "return _State_legal_action_ids(s)"], args="s")
    f_apply = comp.function("", statements=[
        "_c = s._cache",
        "if _c is not None and seat is None:",
        "    _hot = _c[-1]"] + ["    " + ln for ln in apply] + [
        "return _State_apply_id(s, _aid, seat)"], args="s, _aid, seat=None")
    f_legal.__doc__, f_apply.__doc__ = State.legal_action_ids.__doc__, State.apply_id.__doc__
    f_legal.__name__, f_apply.__name__ = "legal_action_ids", "apply_id"
    base = game._state_class   # (State, or text_state_class's: the text API's generated methods kept)
    return type("State", (base,), {"__slots__": (), "__module__": State.__module__,
                                   "legal_action_ids": f_legal, "apply_id": f_apply})


def specialisation(game) -> list:
    """Which steps of ``game`` run generated code specialised for the ruleset, and why not the others
    (issue 37: the generic path is the fallback). One dict per step, in deal order: ``step`` (its
    id or kind), ``kind``, ``text`` and ``ids``: ``"generated"`` when the text API
    (``legal_actions``/``apply``) or the id API (``legal_action_ids``/``apply_id``) lists and plays
    that step inside the state's generated methods, else the reason it takes the generic methods.
    Builds the game's ``ActionCodec`` if it was not built; a game with no integer action space has
    ``ids`` ``"no action space: ..."`` everywhere. Never raises for a compiled game."""
    from ..choices import ActionSpaceError
    try:
        codec = game.actions
    except ActionSpaceError as e:
        codec, no_ids = None, f"no action space: {e}"
    made = game.__dict__.get("_specialised", {})
    out = []
    for pc, step in enumerate(game.steps):
        row = {"step": getattr(step, "name", None) or step.kind, "kind": step.kind}
        if not step.decision:
            why = "no decision: run by the generic flow (State._advance_steps)"
            row["text"] = row["ids"] = why
            out.append(row)
            continue
        if step.compound:
            why = "compound actions (several small choices): the generic methods"
            row["text"] = row["ids"] = why
            out.append(row)
            continue
        row["text"] = "generated" if made.get(("text", pc)) else \
            f"no generated statements for a '{step.kind}' step here (choose:, auto:, windows: or the kind)"
        if codec is None:
            row["ids"] = no_ids
        elif made.get(("ids", pc)):
            row["ids"] = "generated"
        elif step.id_fast is None:
            row["ids"] = "no id per move by table look-up: ids from the legal texts (generic)"
        else:
            row["ids"] = f"id hot path by calls (choosing.py id_fast): no generated statements for a '{step.kind}' step here"
        out.append(row)
    return out
