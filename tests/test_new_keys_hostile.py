"""Hostile and mistaken values of the keys this session added are refused at load with their position, never
passed on and never an internal error: ``zones: public_when:``, ``tricks: played_by:`` and ``windows:``,
the auction's ``calls:``, ``declarer:``, ``say_hold:`` and ``NT``, ``deck: extra_suits:``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import cardspec

HERE = Path(__file__).resolve().parent
DUMMY = HERE / "partnerships" / "double-dummy.yaml"
COINCHE = HERE / "partnerships" / "coinche-auction.yaml"
PAIRS = HERE / "partnerships" / "skat-four-auction.yaml"
WENZ = HERE / "extra_suits" / "wenz.yaml"
JASS = HERE / "windows" / "jass-stoeck.yaml"

CASES = [
    (DUMMY, "public_when: p >= 2", "public_when: __import__('os').system('true')", "public_when"),
    (DUMMY, "public_when: p >= 2", "public_when: '[1, 2]'", "public_when"),
    (DUMMY, "public_when: p >= 2", "public_when: count(deck) > 0 and hand", "public_when"),
    (DUMMY, "played_by: p % 2", "played_by: hand[0]", "played_by"),
    (DUMMY, "played_by: p % 2", "played_by: '\"seat two\"'", "played_by"),
    (DUMMY, "played_by: p % 2", "played_by: [0, 1]", "played_by"),
    (COINCHE, "        coinche:\n", "        pass:\n", "pass"),
    (COINCHE, "      calls:\n", "      calls: double\n      x_calls:\n", "calls"),
    (COINCHE, "legal: last_call == \"bid\" and", "legal: open('/etc/passwd') and", "legal"),
    (COINCHE, "          ends: true", "          ends: '{{7}}'", "ends"),
    (COINCHE, "      all_pass: throw_in", "      all_pass: throw_in\n      declarer: everyone", "declarer"),
    (COINCHE, "suit: [C, D, H, S, NT]", "suit: [C, D, H, S, NT, NT]", "NT"),
    (PAIRS, "      say_hold: true", "      say_hold: 'yes please'", "say_hold"),
    (PAIRS, "      say_hold: true", "      say_hold: true\n      calls: {double: {}}", "say_hold"),
    (WENZ, "extra_suits: [unters]", "extra_suits: [no_suit]", "extra suit"),
    (WENZ, "extra_suits: [unters]", "extra_suits: ['a b']", "extra suit"),
    (WENZ, "extra_suits: [unters]", "extra_suits: [{x: 1}]", "extra_suits"),
    (JASS, "      windows:\n", "      windows: {}\n      x_windows:\n", "windows"),
    (JASS, "when: stoeck_by >= 0, turns: &announce", "when: stoeck_by, turns: &announce", "when"),
    (JASS, "turns: &announce {first: stoeck_by,", "turns: &announce {first: hand,", "first"),
]


@pytest.mark.parametrize("path,old,new,words", CASES, ids=[f"{p.stem}:{w}:{i}" for i, (p, _, _, w) in enumerate(CASES)])
def test_a_hostile_or_mistaken_value_is_refused_at_its_position(tmp_path, path, old, new, words):
    text = path.read_text()
    assert old in text, old
    f = tmp_path / path.name
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(cardspec.RulesetError) as e:
        cardspec.load(str(f))
    msg = str(e.value)
    assert f"{path.name}:" in msg and "bug in cardspec" not in msg and "Traceback" not in msg, msg
    assert words.split()[0].lower() in msg.lower(), msg
