"""An induction player: keeps the library rules consistent with every judged card it has seen.

For rulesets with a ``secret_rule`` step (``cardspec._secret``): one seat sets
a hidden rule, the others learn it from where their cards go. The bot reads
only its view and log (``cardspec.bots.Bot``, ``wants_log``) and the public
ruleset (the library of rules a bot dealer draws from). The ruleset names it
as its default bot and says which action texts and events it works with::

    bots:
      default: {bot: induction, rule_step: secret, line: line, play_zone: play, judged_event: judged,
                starter_event: starter, play: play, success: success, failure: failure, mixed: mixed,
                judge: judge, prophesy: prophet, max_cards: 4}

Decisions:

* choosing the secret rule (every legal action starts with ``rule``): a library rule at random;
* a play: the candidate rules are the library rules that agree with every ``judged_event`` of the
  deal (``{card, ok}``, replayed on a line rebuilt from ``starter_event``). It plays the longest
  sequence (up to ``max_cards``) on which all candidates agree — cards every candidate accepts in
  turn, declared ``success``, or cards every candidate rejects, declared ``failure``; when they agree on
  no card, the single card that splits the candidates most evenly (the most informative), declared
  by the majority;
* ``prophesy``: when exactly one candidate remains;
* a judgement as a prophet: the verdict the candidates' majority gives for the cards in ``play_zone``.

Speed: a decision replays the deal's log (a few hundred events) against at most the library's rules.
"""
from __future__ import annotations

import random

from .base import Bot
from ..engine.steps.secret import _rules


class InductionBot(Bot):
    """The induction player (module doc). ``game``: the rules (for the library); ``config``: the ruleset's
    ``bots: default:`` mapping; ``seed``: for the dealer's draw and ties."""

    name = "induction"
    wants_log = True

    def __init__(self, game, config: dict, seed=None):
        self.game = game
        self.cfg = dict(config)
        self.rng = random.Random(seed)
        step = next((st for st in game.steps if getattr(st, "kind", "") == "secret_rule"
                     and (st.id == self.cfg.get("rule_step") or self.cfg.get("rule_step") is None)), None)
        if step is None:
            raise ValueError(f"{game.name} has no secret_rule step for the induction bot")
        table = _rules(game)
        self.library = [(name, table[rid][3]) for name, rid in step.library]
        self.face = game.deck.face

    # ---- what the log says -----------------------------------------------------
    def observations(self, log) -> list:
        """``[(line_before, card, accepted)]`` of the current deal, faces, in the order judged."""
        c = self.cfg
        obs, line = [], []
        for ev in log:
            t = ev.get("type")
            if t == "deal_start":
                obs, line = [], []
            elif t == c.get("starter_event", "starter"):
                line = [self.face(ev["card"])]
            elif t == c.get("judged_event", "judged"):
                card = self.face(ev["card"])
                obs.append((tuple(line), card, bool(ev["ok"])))
                if ev["ok"]:
                    line.append(card)
        return obs

    def line(self, log) -> list:
        """The current deal's line (faces) rebuilt from the log: the starter, then each accepted card."""
        obs = self.observations(log)
        if obs:
            last_line, card, ok = obs[-1]
            return list(last_line) + ([card] if ok else [])
        c = self.cfg
        starters = [ev for ev in log if ev.get("type") == c.get("starter_event", "starter")]
        return [self.face(starters[-1]["card"])] if starters else []

    def candidates(self, log) -> list:
        """The library rules (``(name, function)``) consistent with every judged card of the deal."""
        obs = self.observations(log)
        out = []
        for name, fn in self.library:
            if all(bool(fn(None, card, line[-1] if line else -1, list(line))) == ok for line, card, ok in obs):
                out.append((name, fn))
        return out

    @staticmethod
    def _accepts(fn, card, line):
        return bool(fn(None, card, line[-1] if line else -1, line))

    # ---- deciding -----------------------------------------------------------------
    def act(self, view, legal):
        text = self.choose(view, legal)
        return text if text in legal else legal[0]

    def choose(self, view, legal=None) -> str:
        """The action text for ``view`` (a seat's view with its ``log``); ``legal`` (optional) tells the
        phase apart when given, else the view's ``step`` / ``turn`` and ``zones`` do."""
        c = self.cfg
        if view.get("step") == c.get("rule_step", "secret") or (legal and all(a.startswith("rule ") for a in legal)):
            names = [a for a in (legal or [])] or [f"rule {n}" for n, _ in self.library]
            return self.rng.choice(names)
        log = view.get("log") or []
        cands = self.candidates(log)
        line = [self.face(x) for x in view["zones"].get(c.get("line", "line"), [])]
        played = [self.face(x) for x in view["zones"].get(c.get("play_zone", "play"), [])]
        seat = view["seat"]
        turn_seat = (view.get("turn") or {}).get("seat", seat)
        prophesy = c.get("prophesy", "prophet")
        if legal is not None:
            phase = "prophesy" if prophesy in legal else "judge" if any(
                a.startswith(c.get("judge", "judge") + " ") for a in legal) else "play"
        else:
            phase = "judge" if turn_seat != seat else "play" if not played and \
                (view.get("turn") or {}).get("phase", 0) == 0 else "prophesy"
        if phase == "prophesy":
            return prophesy if self.settled(cands, line) else "skip"
        if phase == "judge":
            return f"{c.get('judge', 'judge')} {self.verdict(cands or self.library, line, played)}"
        hand = view["zones"]["hand"][str(seat)]
        return self.choose_play([self.face(x) for x in hand], line, cands or self.library)

    def verdict(self, cands, line, played) -> str:
        """The verdict word most candidates give for ``played`` after ``line`` (faces)."""
        c = self.cfg
        votes = {}
        for _, fn in cands:
            ln = list(line)
            acc = 0
            for card in played:
                if self._accepts(fn, card, ln):
                    ln.append(card)
                    acc += 1
            v = c.get("success", "success") if acc == len(played) else \
                c.get("failure", "failure") if acc == 0 else c.get("mixed", "mixed")
            votes[v] = votes.get(v, 0) + 1
        return max(sorted(votes), key=votes.get)

    def settled(self, cands, line) -> bool:
        """True when one candidate remains, or (at most 3 remain and) they judge every card of the deck
        alike after ``line`` and after each one-card extension of it: no play can tell them apart soon."""
        if len(cands) == 1:
            return True
        if not cands or len(cands) > 3:
            return False
        fns = [fn for _, fn in cands]
        code = self.game.deck.code
        deck = sorted({code[c]: c for c in self.game.deck.cards}.values())   # one copy of each card
        for x in deck:
            first = self._accepts(fns[0], x, line)
            if any(self._accepts(fn, x, line) != first for fn in fns[1:]):
                return False
            if first:
                ln = list(line) + [x]
                for y in deck:
                    a = self._accepts(fns[0], y, ln)
                    if any(self._accepts(fn, y, ln) != a for fn in fns[1:]):
                        return False
        return True

    def _splits(self, fns, hand, line) -> bool:
        """True when some card of ``hand`` is accepted by some candidates and rejected by others."""
        for x in hand:
            yes = sum(1 for fn in fns if self._accepts(fn, x, line))
            if 0 < yes < len(fns):
                return True
        return False

    def choose_play(self, hand, line, cands) -> str:
        """The play's text: the longest sequence all candidates agree on, else the most informative card."""
        c = self.cfg
        k = int(c.get("max_cards", 4))
        code = self.game.deck.code
        fns = [fn for _, fn in cands]
        # Cards every candidate accepts, one after another (the line moves the same way for all).
        seq, ln, rest = [], list(line), list(hand)
        while len(seq) < k:
            nxt = next((x for x in rest if all(self._accepts(fn, x, ln) for fn in fns)), None)
            if nxt is None:
                break
            seq.append(nxt)
            ln.append(nxt)
            rest.remove(nxt)
        # Cards every candidate rejects after the current last card (the line does not move).
        fail = [x for x in hand if not any(self._accepts(fn, x, line) for fn in fns)][:k]
        explore = int(c.get("explore", 0))   # below this many agreed cards, test a splitting card instead
        if (seq or fail) and (len(fns) == 1 or max(len(seq), len(fail)) >= explore or not self._splits(fns, hand, line)):
            if len(seq) >= len(fail):
                return " ".join([c.get("play", "play")] + [code[x] for x in seq] + [c.get("success", "success")])
            return " ".join([c.get("play", "play")] + [code[x] for x in fail] + [c.get("failure", "failure")])
        # No agreement: the card that splits the candidates most evenly; declare the majority.
        best, best_key = None, None
        for x in hand:
            yes = sum(1 for fn in fns if self._accepts(fn, x, line))
            key = (abs(2 * yes - len(fns)), self.rng.random())
            if best_key is None or key < best_key:
                best, best_key, best_yes = x, key, yes
        decl = c.get("success", "success") if 2 * best_yes >= len(fns) else c.get("failure", "failure")
        return f"{c.get('play', 'play')} {code[best]} {decl}"


def from_ruleset(game, seed=None):
    """The ruleset's default bot when it is the induction bot (``bots: default: {bot: induction, …}``), else None."""
    spec = ((game.data.get("bots") or {}) if game is not None else {}).get("default")
    if not isinstance(spec, dict) or spec.get("bot") != "induction":
        return None
    return InductionBot(game, spec, seed=seed)


def make(arg: str, seed=None, game=None, policy=None) -> InductionBot:
    """``make_bot``'s ``induction``: for a secret-rule game whose ruleset has ``bots: default: {bot: induction, …}``.

    Raises ``ValueError`` when the ruleset names no induction bot.
    """
    bot = from_ruleset(game, seed)
    if bot is None:
        raise ValueError(f"{getattr(game, 'name', 'this ruleset')} names no induction bot (bots: default: "
                         "{bot: induction, …})")
    return bot
