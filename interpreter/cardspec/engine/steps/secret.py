"""A secret rule chosen by one seat: the ``secret_rule`` step and the ``judge`` builtins.

An induction game (one seat sets a hidden rule, the others discover it by
playing; the induction game's digest in shared/rules/) needs a *value that is an
expression*: a rule about "the card to judge and the line so far" that a
person types in the expression language at run time, or that a bot draws from
a library the ruleset ships. The step::

    deal:
      - secret_rule:
          seat: dealer                  # who chooses (default dealer)
          var: rule                     # an int var that holds the chosen rule's id (hide it: seen_by: dealer)
          library:                      # rules a bot (or a person) may draw, each with its hint
            - {name: colours, rule: "card.color != last.color", hint: Think about colours.}

Actions (text forms): ``rule NAME`` draws a library rule (these are the legal
actions listed); ``write EXPR`` or ``write EXPR hint: TEXT`` types a new one,
compiled at once. A rule is a ``bool`` expression over ``card`` (the card to
judge), ``last`` (the line's last card, ``-1`` when the line is empty) and
``line`` (``list[card]``, the accepted cards in order), using only constants
of the game (suits, ranks, colours, card literals, options, ``players``) —
never the state, so the engine judges and nobody can lie. A rule that does not
compile raises ``IllegalAction`` with the compiler's message and column.

The choice is logged only to the choosing seat (other seats see
``{"type": "secret_rule", "seat": S}``); keep the var hidden with
``vars: {rule: {default: -1, seen_by: dealer}}``.

Builtins for every expression of the ruleset:

- ``judge(RULE, CARD, LINE)`` (bool): whether CARD may follow LINE under rule id RULE (false when
  RULE is -1, no rule chosen);
- ``rule_text(RULE)``, ``rule_hint(RULE)``, ``rule_name(RULE)`` (str): for log lines at the round's end
  and hints (``""`` for -1);
- ``rule_words(RULE)`` (str): the rule in English words (``lang.words.in_words``: "the card has a
  different colour from the last card"), for revealing it to people as well as its text.

The dealer's view lists the library with each rule's ``words`` beside its text and hint, so a person
picks a rule by what it says (issue 35), and the dealer's ``secret_rule`` event carries the words too.

Compiled rules are kept per game (``game.ns['_SR_RULES']``: a list of
``(name, text, hint, function)``, a typed rule appended once per distinct text),
so a state stores only the id and copying a state copies an int.
"""
from __future__ import annotations

import random
import unicodedata

from .base import Step, step_type
from ...lang.types import BOOL, CARD, INT, STR, Binding, Code, DslError, EngineText, Env, list_of
from ...lang.names import py_param
from ...lang.bounds import RULE_BUDGET
from ...lang.builtins import BUILTIN_COST, builtin, _argc
from ...lang.checker import compile_expr

#: the context names of a secret rule and their types
RULE_PARAMS = (("card", CARD), ("last", CARD), ("line", list_of(CARD)))


def _rules(game) -> list:
    rules = game.ns.get("_SR_RULES")
    if rules is None:
        rules = game.ns["_SR_RULES"] = []
        game.ns["_SR_INDEX"] = {}
        game.ns["_sr_judge"] = _judge
        game.ns["_sr_info"] = _info
    return rules


def _judge(s, rule, card, line):
    """True when ``card`` may follow ``line`` (a list of faces) under rule id ``rule``."""
    if rule < 0:
        return False
    fn = s.game.ns["_SR_RULES"][rule][3]
    return bool(fn(s, card, line[-1] if line else -1, line))


def _info(s, rule, k):
    if rule < 0:
        return ""
    if k == 4:
        return rule_words(s.game, rule)
    return s.game.ns["_SR_RULES"][rule][k]


def rule_words(game, rid: int) -> str:
    """Rule ``rid``'s text in English words (``lang.words.in_words``), worked out once per rule."""
    words = game.ns.setdefault("_SR_WORDS", {})
    if rid not in words:
        from ...lang.words import in_words
        words[rid] = in_words(game.ns["_SR_RULES"][rid][1])
    return words[rid]


def rule_env(game) -> Env:
    """The names a secret rule may use: the game's constants only (no zone, counter or var)."""
    env = game.env
    return Env(names={k: b for k, b in env.names.items() if b.const}, deck=env.deck, players=env.players, ns=env.ns)


def rule_code(game, text: str) -> Code:
    """Check a secret rule's text (typed during play, or a library rule) in ``game`` without keeping it:
    its generated ``Code``, whose ``cost`` is the worst-case steps of one judgement. Cheap enough to call
    before accepting text from a client (a server may run it off its event loop as well).

    Raises ``DslError`` when it does not compile, names the state, or costs more than ``RULE_BUDGET``
    steps (docs/dsl.md, "Bounds"; the message gives the estimate).
    """
    env = game.ns.get("_SR_ENV")
    if env is None:
        env = game.ns["_SR_ENV"] = rule_env(game)
    params = {n: Binding(py_param(n), t) for n, t in RULE_PARAMS}
    try:
        code = compile_expr(text, env, params, (BOOL,))
    except DslError as e:
        if game.env.lookup(str(e.message).split("'")[1] if "'" in e.message else "") is not None \
                and "unknown name" in e.message:
            e.hint = "a secret rule may use only card, last, line and constants (suits, ranks, colours, cards)"
        raise
    if code.cost > RULE_BUDGET:
        raise DslError(f"the rule may take about {int(code.cost):,} steps to judge a card; a rule may take at "
                       f"most {RULE_BUDGET:,}", 1, 1, "nest fewer loops over line (each one multiplies the work)")
    return code


#: The longest hint a player may type with ``write EXPR hint: TEXT`` (characters).
MAX_HINT = 200


def compile_rule(game, text: str, name: str = "", hint: str = "") -> int:
    """Compile a secret rule's text in ``game``; returns its id (the same text gives the same id).

    Raises ``DslError`` (message, line, col, hint) when it does not compile or names the state.
    """
    rules = _rules(game)
    index = game.ns["_SR_INDEX"]
    key = (text.strip(), name, hint)
    if key in index:
        return index[key]
    env = game.ns.get("_SR_ENV")
    if env is None:
        env = game.ns["_SR_ENV"] = rule_env(game)
    params = {n: Binding(py_param(n), t) for n, t in RULE_PARAMS}
    code = rule_code(game, text)
    fn = game.comp.function(code.src, RULE_PARAMS)
    rules.append((name, text.strip(), hint, fn))
    index[key] = len(rules) - 1
    return len(rules) - 1


BUILTIN_COST["judge"] = lambda n: RULE_BUDGET   # a judgement runs a rule: at most its budget


@builtin("judge")
def _b_judge(comp, n, args):
    _argc(comp, n, args, 3)
    r = comp.want(args[0], comp.c(args[0]), INT)
    c = comp.want(args[1], comp.c(args[1]), CARD)
    line = comp.want(args[2], comp.c(args[2]), list_of(CARD))
    return Code(f"_sr_judge(s, {r.src}, {c.src}, {line.src})", BOOL)


def _info_builtin(k):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        r = comp.want(args[0], comp.c(args[0]), INT)
        return Code(f"_sr_info(s, {r.src}, {k})", STR)
    return f


builtin("rule_name")(_info_builtin(0))
builtin("rule_text")(_info_builtin(1))
builtin("rule_hint")(_info_builtin(2))
builtin("rule_words")(_info_builtin(4))


@step_type("secret_rule")
class SecretRule(Step):
    """One seat chooses a secret rule (module doc): ``rule NAME`` from the library or ``write EXPR``."""

    decision = True

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        body = body if isinstance(body, dict) else {}
        _rules(game)
        game.ns.setdefault("_sr_judge", _judge)
        game.ns.setdefault("_sr_info", _info)
        self.seat = comp.expr(body.get("seat", EngineText("dealer")), path + ("seat",), (), (INT,))
        vname = str(body.get("var", "rule"))
        var = game.var.get(vname)
        if var is None:
            comp.problem(path + ("var",), f"unknown var '{vname}'", "declare an int var, e.g. "
                         "vars: {rule: {default: -1, seen_by: dealer}}")
            self.var = 0
        else:
            self.var = var.index
        self.library = []   # (name, rule id)
        lib = body.get("library") or []
        if not isinstance(lib, list):
            comp.problem(path + ("library",), "library is a list of {name, rule, hint}")
            lib = []
        seen = set()
        for i, item in enumerate(lib):
            p = path + ("library", i)
            if not isinstance(item, dict) or "rule" not in item or "name" not in item:
                comp.problem(p, "a library rule is {name: NAME, rule: EXPR, hint: TEXT}")
                continue
            name = str(item["name"])
            if not name.replace("_", "").replace("-", "").isalnum() or name in seen:
                comp.problem(p + ("name",), f"'{name}' is not a unique one-word name")
                continue
            seen.add(name)
            try:
                rid = compile_rule(game, str(item["rule"]), name, str(item.get("hint", "")))
            except DslError as e:
                comp.problems.append(comp.locate(p + ("rule",), str(item["rule"]), e))
                continue
            self.library.append((name, rid))
        self.by_name = dict(self.library)

    # ---- decisions ------------------------------------------------------------
    def enter(self, s):
        from ..slots import TO_ACT
        s.v[TO_ACT] = s.game.seated(s, self.seat(s))
        return True

    def legal(self, s):
        return [("rule", rid) for _, rid in self.library]

    def is_legal(self, s, move):
        return isinstance(move, tuple) and len(move) == 2 and move[0] == "rule" and move[1] in self.by_name.values() \
            or isinstance(move, tuple) and move[:1] == ("write",)

    def random_move(self, s, rng):
        return self.legal(s)[int(rng.random() * len(self.library))]

    def parse(self, s, text):
        words = text.strip().split(None, 1)
        if not words:
            raise ValueError("empty action; type 'rule NAME' or 'write EXPRESSION [hint: TEXT]'")
        verb = words[0].lower()
        rest = words[1].strip() if len(words) > 1 else ""
        if verb == "rule":
            if rest not in self.by_name:
                import difflib
                close = difflib.get_close_matches(rest, list(self.by_name), n=1)
                raise ValueError(f"no library rule '{rest}'" + (f"; did you mean '{close[0]}'?" if close else ""))
            return ("rule", self.by_name[rest])
        if verb == "write":
            expr, sep, hint = rest.partition("hint:")
            expr = expr.strip()
            if not expr:
                raise ValueError("write needs a rule, e.g. 'write card.color != last.color'")
            hint = " ".join(hint.split())   # a typed hint is shown to every player: one line of text
            if len(hint) > MAX_HINT or any(unicodedata.category(ch)[0] == "C" for ch in hint):
                raise ValueError(f"a hint is at most {MAX_HINT} characters of text (no control characters)")
            try:
                rid = compile_rule(s.game, expr, "", hint)
            except DslError as e:
                hint_txt = f" ({e.hint})" if e.hint else ""
                raise ValueError(f"the rule '{expr}' does not compile: {e.message} at column {e.col}{hint_txt}") \
                    from None
            return ("write", rid)
        raise ValueError("type 'rule NAME' (a library rule) or 'write EXPRESSION [hint: TEXT]' "
                         "(names: card, last, line)")

    def apply(self, s, move):
        from ..slots import TO_ACT
        seat = s.v[TO_ACT]
        rid = move[1]
        s.v[self.var] = rid
        if s.events is not None:
            name, text, hint, _ = s.game.ns["_SR_RULES"][rid]
            ev = {"type": "secret_rule", "seat": seat, "name": name, "rule": text, "hint": hint,
                  "words": rule_words(s.game, rid)}
            s.emit(ev, to=(seat,))
            ev["_public"] = {"type": "secret_rule", "seat": seat}
        return True

    def text(self, s, move):
        name, text, hint, _ = s.game.ns["_SR_RULES"][move[1]]
        if move[0] == "rule":
            return f"rule {name}"
        return f"write {text}" + (f" hint: {hint}" if hint else "")

    def why_illegal(self, s, move):
        return "not legal: choose a library rule (rule NAME) or write one (write EXPRESSION)"

    def choice_names(self, game):
        """``rule NAME`` per library rule (a written rule, ``write EXPR``, is text only: no id)."""
        return [f"rule {name}" for name, _ in self.library]

    def add_view(self, s, seat, out):
        if seat is not None and seat == s.to_act:
            out["secret_rule"] = {"library": [{"name": n, "rule": s.game.ns["_SR_RULES"][r][1],
                                               "hint": s.game.ns["_SR_RULES"][r][2],
                                               "words": rule_words(s.game, r)} for n, r in self.library]}
