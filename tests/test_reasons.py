"""Reasons people understand (issue 23, item 4; docs/rulesets.md, "Reasons").

A refused action names the reason of the one condition that failed, never the whole expression;
every restriction of the built-in rulesets carries a reason.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardspec
from cardspec.errors import IllegalAction, RulesetError
from cardspec.rules import read_ruleset

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def _refusal(state, text) -> str:
    with pytest.raises(IllegalAction) as e:
        state.parse_action(text)
    return str(e.value)


def _hearts_at(trick, seed=2):
    g = cardspec.load("hearts")
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not (s.view(0)["step"] == "play" and s.view(0)["system"]["trick_number"] == trick and not s.plays):
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_hearts_first_lead_names_the_2_of_clubs_rule_only():
    """black-lady.md "Hearts": the 2 of clubs leads the first trick. The message gives that reason, not
    the hearts-broken rule beside it."""
    s = _hearts_at(1)
    seat = s.to_act
    other = [c for c in s.view(seat)["zones"]["hand"][str(seat)] if c != "2C"][0]
    msg = _refusal(s, other)
    assert "the 2 of clubs leads the first trick" in msg
    assert "broken" not in msg and "trick_number" not in msg


def test_hearts_lead_at_trick_2_names_hearts_broken_not_the_first_trick_rule():
    """Issue 23: at trick 2 the message quoted the whole lead rule starting with "the 2 of clubs leads the
    first trick"; now it is the hearts-broken reason alone (black-lady.md "Hearts")."""
    for seed in range(2, 40):
        s = _hearts_at(2, seed)
        seat = s.to_act
        hand = s.view(seat)["zones"]["hand"][str(seat)]
        hearts = [c for c in hand if c.endswith("H")]
        if hearts and len(hearts) < len(hand) and not s.view(seat)["vars"]["hearts_broken"]:
            msg = _refusal(s, hearts[0])
            assert "hearts are not led until broken" in msg
            assert "2 of clubs" not in msg and "hearts_broken" not in msg
            return
    pytest.fail("no seed gave a trick-2 leader holding hearts and other cards before hearts broke")


def test_lay_off_without_a_meld_number_says_what_comes_first():
    """Issue 23: `lay off 5S` said "'5S' is not a whole number"; it now names the meld number and the form."""
    g = cardspec.load("burraco")
    s = g.new_state(seed=2)
    rng = random.Random(0)
    while "lay off" not in " ".join(s.legal_actions()) and not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    msg = _refusal(s, "lay off 5S")
    assert "is not a whole number" not in msg
    assert "'lay off' needs meld (a whole number) first, not '5S': write lay off MELD CARDS" in msg


VARIANT = """extends: red-dog
name: reasons-test
actions:
  raise:
    legal:
      - rule: spread >= 1
        reason: only with a spread
      - spread < 99
      - rule: max_bet > 1000000
        reason: the bet is too small for this test
"""


def _red_dog_spread(path):
    g = cardspec.load(str(path), players=2)
    for seed in range(50):
        s = g.new_state(seed=seed)
        if any(a.startswith("drop") for a in s.legal_actions()):
            return s
    pytest.fail("no spread in 50 seeds")


def test_an_action_names_the_reason_of_the_part_that_failed(tmp_path):
    """A `legal:` list: the first part that fails gives the message (here the third)."""
    p = tmp_path / "v.yaml"
    p.write_text(VARIANT)
    s = _red_dog_spread(p)
    msg = _refusal(s, "raise 10")
    assert "the bet is too small for this test" in msg
    assert "only with a spread" not in msg and "max_bet" not in msg


def test_a_part_without_a_reason_takes_the_action_reason_else_is_quoted(tmp_path):
    p = tmp_path / "v.yaml"
    p.write_text(VARIANT.replace("      - spread < 99\n", "      - spread < 0\n"))
    s = _red_dog_spread(p)
    assert "'raise' needs spread < 0, which does not hold now" in _refusal(s, "raise 10")
    p.write_text(VARIANT.replace("      - spread < 99\n", "      - spread < 0\n").replace(
        "  raise:\n", "  raise:\n    reason: no raise in this test\n"))
    s = _red_dog_spread(p)
    assert "no raise in this test" in _refusal(s, "raise 10")


def test_a_bid_legal_list_names_the_failing_part(tmp_path):
    """oh-hell.yaml's hook as two parts: a bid refused by the second names its reason."""
    p = tmp_path / "v.yaml"
    p.write_text("extends: oh-hell\nname: v\ndeal:\n  - id: bid\n    bid:\n      legal:\n"
                 "        - rule: bid >= 0\n          reason: never\n"
                 "        - rule: bid == 0\n          reason: only zero in this test\n")
    g = cardspec.load(str(p), players=4)
    s = g.new_state(seed=1)
    while s.view(s.to_act)["step"] != "bid":
        s.apply(s.legal_actions()[0])
    msg = _refusal(s, "bid 1")
    assert "only zero in this test" in msg and "never" not in msg


def test_a_where_reason_names_the_refused_card():
    """svoyi-koziri.md "Beating": a card that does not beat the top card says so in words."""
    g = cardspec.load("svoyi-koziri")
    rng = random.Random(4)
    s = g.new_state(seed=4)
    for _ in range(200):
        beats = [a for a in s.legal_actions() if a.startswith("beat ")]
        if beats:
            seat = s.to_act
            ok = {a.split()[1] for a in beats}
            bad = [c for c in s.view(seat)["zones"]["hand"][str(seat)] if c not in ok]
            if bad:
                msg = _refusal(s, f"beat {bad[0]}")
                assert "it does not beat the top card" in msg and "beats(card, seat)" not in msg
                return
        s.apply(rng.choice(s.legal_actions()))
    pytest.fail("no position with a card that does not beat")


def test_a_condition_item_with_an_unknown_key_is_an_error_at_its_place(tmp_path):
    p = tmp_path / "v.yaml"
    p.write_text("extends: hearts\nname: v\ndeal:\n  - id: play\n    tricks:\n      play:\n"
                 "        - {rule: true, why: x}\n")
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(p), players=4)
    assert "v.yaml:7:" in str(e.value)


def _conditions(data):
    """(where, condition, default reason) for every restriction of a merged ruleset: tricks lead/play,
    bid/auction legal, action legal, card parameters' where."""
    out = []
    for i, step in enumerate(data.get("deal") or []):
        if not isinstance(step, dict):
            continue
        for kind, body in step.items():
            if not isinstance(body, dict):
                continue
            if kind == "tricks":
                for key in ("lead", "play"):
                    if key in body:
                        out.append((f"deal[{i}].tricks.{key}", body[key], body.get(f"{key}_reason")))
            if kind in ("bid", "auction") and "legal" in body:
                out.append((f"deal[{i}].{kind}.legal", body["legal"], body.get("reason")))
            if kind == "turns":
                out += _actions(body.get("actions") or {}, f"deal[{i}].turns")
    return out + _actions(data.get("actions") or {}, "actions")


def _actions(actions, where):
    out = []
    for name, a in actions.items():
        if not isinstance(a, dict):
            continue
        if "legal" in a:
            out.append((f"{where}.{name}.legal", a["legal"], a.get("reason")))
        for pname, p in (a.get("params") or {}).items():
            if isinstance(p, dict) and "where" in p and ("card" in p or "cards" in p):
                out.append((f"{where}.{name}.{pname}.where", p["where"], p.get("reason")))
    return out


@pytest.mark.parametrize("name", BUILTINS)
def test_every_restriction_of_a_builtin_has_a_reason(name):
    """Issue 23 item 4: "the built-in rulesets give each restriction a reason"."""
    data = read_ruleset(name).data
    missing = []
    for where, cond, default in _conditions(data):
        items = cond if isinstance(cond, list) else [cond]
        for it in items:
            if isinstance(it, dict) and "by_option" in it:
                continue
            why = it.get("reason", default) if isinstance(it, dict) and "rule" in it else default
            rule = it.get("rule") if isinstance(it, dict) and "rule" in it else it
            if rule is True or str(rule).strip() in ("true", ""):
                continue
            if not why:
                missing.append(f"{where}: {rule}")
    assert not missing, missing
