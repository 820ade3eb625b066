"""trick_number is the trick in progress, from the moment its lead is chosen (docs/dsl.md).

Regression from a new user's house rule: "no hearts led to the first trick"
written as ``lead: trick_number != 1 or card.suit != hearts`` must restrict the
first lead and no later one (black-lady.md, "Known faults to avoid": a
first-trick restriction applied on a later trick).
"""
import cardspec

VARIANT = """
extends: black-lady
name: no-hearts-first-lead
options:
  pass_count: {default: 0}
deal:
  - id: play
    tricks:
      lead: trick_number != 1 or card.suit != hearts or all(c in hand where c.suit == hearts)
"""


def test_first_lead_restricted_and_second_lead_free(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT)
    game = cardspec.load(str(path), 4)
    for seed in range(30):
        s = game.new_state(seed=seed)
        assert s.v[3] == 1                         # trick 1 is in progress at the first lead
        hand = s.view(s.to_act)["zones"]["hand"][str(s.to_act)]
        legal = s.legal_actions()
        if any(c[-1] != "H" for c in hand):
            assert all(a[-1] != "H" for a in legal), (seed, legal)
        for _ in range(4):                         # play the first trick
            s.apply(s.legal_actions()[0])
        assert s.v[3] == 2                         # trick 2 is in progress at its lead
        hand = s.view(s.to_act)["zones"]["hand"][str(s.to_act)]
        assert sorted(s.legal_actions()) == sorted(set(hand))   # any card may be led now


def test_trick_event_numbers_count_from_one():
    s = cardspec.load("black-lady", 4).new_state(seed=3)
    while not s.terminal:
        s.apply(s.legal_actions()[0])
    numbers = [e["number"] for e in s.log_all() if e["type"] == "trick"]
    assert numbers[:13] == list(range(1, 14))
