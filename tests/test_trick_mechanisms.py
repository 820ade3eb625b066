"""The trick mechanisms of docs/tricks.md on small rulesets: rank order as listed (card.strength,
strength(R)), the effective suit (deck suit_of, tricks exempt / led_suit), the current trick in
expressions (trick, trick_seats, led_card) and a choice inside a trick (tricks choose).

Sources: issue 18 ("Deliver" 1) and the digests that need each mechanism:
../shared/rules/briscola-chiamata.md ("Cards": A 3 K Q J 7 6 5 4 2), sheepshead.md ("Trumps", "Play":
the 14 trumps form one suit for following), napoleon.md ("Play": よろめき and the same two; "Options":
joker), goninkan.md ("Play": a player who leads the joker names a suit).
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec import IllegalAction

ITALIAN = """
name: toy-italian
players: {min: 4, max: 4}
deck:
  ranks: [2, 4, 5, 6, 7, J, Q, K, 3, A]
  suits: [S, H, D, C]
  points: {A: 11, 3: 10, K: 4, Q: 3, J: 2}
zones:
  hand: {owner: seat, visibility: owner}
  won: {owner: seat, visibility: owner}
counters:
  score: {per: match}
define:
  bid_beats(a, b): strength(a) < strength(b)
deal:
  - shuffle
  - deal: {to: hand, each: 10}
  - tricks:
      follow: suit
      key: card.strength
  - score: {counter: score, value: "sum(c.points for c in won[seat])"}
"""

SHEEP = """
name: toy-sheep
players: {min: 4, max: 4}
deck:
  ranks: [7, 8, 9, K, T, A, J, Q]
  suits: [C, S, H, D]
  suit_of: if card.rank == Q or card.rank == J then diamonds else card.suit
  points: {A: 11, T: 10, K: 4, Q: 3, J: 2}
zones:
  hand: {owner: seat, visibility: owner}
  won: {owner: seat, visibility: owner}
counters:
  score: {per: match}
define:
  "order(c: card)": >
    if c.printed_suit == clubs then 3 else if c.printed_suit == spades then 2
    else if c.printed_suit == hearts then 1 else 0
deal:
  - shuffle
  - deal: {to: hand, each: 8}
  - trump: diamonds
  - tricks:
      follow: suit
      key: card.strength * 4 + order(card) + (if card.suit == trump then 100 else 0)
  - score: {counter: score, value: "sum(c.points for c in won[seat])"}
"""

JOKER = """
name: toy-joker
players: {min: 3, max: 3}
options:
  joker_lead: {type: choice, values: [trump, named], default: trump}
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
  suits: [S, H]
  jokers: 1
zones:
  hand: {owner: seat, visibility: owner}
  won: {owner: seat, visibility: owner}
  rest: {visibility: none}
counters:
  score: {per: match}
deal:
  - shuffle
  - deal: {to: hand, each: 9}
  - trump: hearts
  - tricks:
      follow: suit
      exempt: card == JK
      led_suit: if card == JK and joker_lead == "trump" then trump else card.suit
      wins: card == JK or card.suit == led_suit or card.suit == trump
      key: if card == JK then 1000 else card.rank + (if card.suit == trump then 100 else 0)
      choose:
        when: joker_lead == "named" and card == JK and count(trick) == 1
        word: name
        led_suit: choice
  - score: {counter: score, value: "count(won[seat]) / players"}
"""

MIGHTY = """
name: toy-mighty
players: {min: 4, max: 4}
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
  suits: [S, H, D, C]
zones:
  hand: {owner: seat, visibility: owner}
  won: {owner: seat, visibility: owner}
counters:
  score: {per: match}
vars:
  first_seen: {type: int, default: -1}
define:
  yoromeki: AS in trick and QH in trick
  same_two: trick_number > 1 and count(c in trick where c.suit == led_suit) == players
deal:
  - shuffle
  - deal: {to: hand, each: 13}
  - tricks:
      follow: suit
      wins: card.suit == led_suit or card == AS or card == QH
      key: >
        if yoromeki and card == QH then 1000 else if card == AS then 900
        else if same_two and card.rank == 2 then 800
        else if card == QH then 0 else card.rank
      play: count(trick) == 0 or card.suit != led_card.suit or trick_seats[0] != 0 or card.rank > led_card.rank
      after_trick:
        - if: first_seen < 0
          set: {first_seen: "trick_seats[count(trick_seats) - 1]"}
  - score: {counter: score, value: "count(won[seat]) / players"}
"""


@pytest.fixture(scope="module")
def rulesets(tmp_path_factory):
    d = tmp_path_factory.mktemp("rulesets")
    out = {}
    for name, text in (("italian", ITALIAN), ("sheep", SHEEP), ("joker", JOKER), ("mighty", MIGHTY)):
        p = d / f"{name}.yaml"
        p.write_text(text)
        out[name] = str(p)
    return out


def load(rulesets, name, **options):
    return cardspec.load(rulesets[name], options=options)


def dealt(g, hands, seed=0, dealer=None):
    """A state whose first deal gives ``hands`` (seat -> codes); the leader is the dealer's left."""
    d = g.deck
    over = {(g.zone["hand"].index, s): [d.face(c) for c in cs.split()] for s, cs in hands.items()}
    return g.new_state(seed=seed, deal=over, dealer=g.n - 1 if dealer is None else dealer)


def play(s, *cards):
    for c in cards:
        s.apply(c)
    return s


def last_trick(s):
    return [e for e in s.log_all() if e["type"] == "trick"][-1]


# ---- rank order as listed -------------------------------------------------------------------

def test_italian_strength_follows_the_listed_order(rulesets):
    """briscola-chiamata.md, "Cards": rank A 3 K Q J 7 6 5 4 2; points A 11, 3 10, K 4, Q 3, J 2 (120 in all).
    card.rank stays the printed value; card.strength is the place in `ranks:`."""
    g = load(rulesets, "italian")
    d = g.deck
    spades = sorted((c for c in d.code if c.endswith("S")), key=lambda c: -d.strength[d.face(c)])
    assert spades == ["AS", "3S", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "2S"]
    assert [d.rank[d.face(c)] for c in ("AS", "3S", "2S")] == [14, 3, 2]
    assert [d.strength[d.face(c)] for c in ("AS", "3S", "2S")] == [10, 9, 1]
    assert sum(d.points_of[f] for f in d.cards) == 120


def test_italian_display_order_and_trick(rulesets):
    """briscola-chiamata.md, worked example: ♣Q led, ♣3, ♣7, ♣K, ♣A -> ♣A (A > 3 > K > Q);
    3 + 10 + 0 + 4 + 11 = 28 (four players here). Hands are shown strongest first in the listed order."""
    g = load(rulesets, "italian")
    s = dealt(g, {0: "QC 2S 4S 5S 6S 7S JS QS KS 3S", 1: "3C 2H 4H 5H 6H 7H JH QH KH 3H",
                  2: "7C 2D 4D 5D 6D 7D JD QD KD 3D", 3: "KC AC AS AH AD 2C 4C 5C 6C JC"})
    assert s.legal_actions() == ["3S", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "2S", "QC"]
    play(s, "QC", "3C", "7C")
    assert s.legal_actions() == ["AC", "KC", "JC", "6C", "5C", "4C", "2C"]
    play(s, "KC")
    ev = last_trick(s)
    assert ev["winner"] == 1                      # the 3 beats the king
    s = dealt(g, {0: "QC 2S 4S 5S 6S 7S JS QS KS 3S", 1: "3C 2H 4H 5H 6H 7H JH QH KH 3H",
                  2: "7C 2D 4D 5D 6D 7D JD QD KD 3D", 3: "KC AC AS AH AD 2C 4C 5C 6C JC"})
    play(s, "QC", "3C", "7C", "AC")
    ev = last_trick(s)
    assert ev["winner"] == 3
    assert sum(g.deck.points_of[g.deck.face(c)] for _, c in ev["cards"]) == 3 + 10 + 0 + 11


def test_strength_of_a_rank_value(rulesets):
    """strength(R) orders bids that name a rank: each later bid names a lower rank in
    A 3 K Q J 7 6 5 4 2 (briscola-chiamata.md, "Bidding")."""
    g = load(rulesets, "italian")
    beats = g.ns["_d_bid_beats"]
    assert beats(None, 13, 3)          # K is lower than 3
    assert beats(None, 3, 14)          # 3 is lower than A
    assert not beats(None, 3, 2)       # 3 is not lower than 2
    assert not beats(None, 14, 14)
    assert g.deck.rank_strength[8] == 0   # the deck has no 8


def test_listed_order_keeps_existing_decks_as_they_were():
    """A deck listed 2 … A keeps its display order; ace: low (Red Dog) keeps the ace lowest."""
    d = cardspec.load("black-lady", 4).deck
    assert d.sorted([d.face(c) for c in ("2S", "AS", "TS", "KH")]) == [d.face(c) for c in ("AS", "TS", "2S", "KH")]
    assert [d.strength[d.face(c)] for c in ("2S", "AS")] == [1, 13]
    rd = cardspec.load("red-dog", 2).deck
    assert rd.sorted([rd.face(c) for c in ("AS", "2S", "KS")]) == [rd.face(c) for c in ("KS", "2S", "AS")]
    assert rd.strength[rd.face("AS")] == 1


# ---- effective suit --------------------------------------------------------------------------

def test_queens_and_jacks_follow_as_trumps(rulesets):
    """sheepshead.md, "Play": the 14 trumps form one suit for following. Worked example: ♥A led, ♥10,
    Q♥ (a player with no fail hearts), ♥K, … -> Q♥ (a trump)."""
    g = load(rulesets, "sheep")
    s = dealt(g, {0: "AH 7C 8C 9S KS 7S 8S 9C", 1: "TH 9H 8H 7H AC TC KC TS",
                  2: "QH QS JC JS AD TD KD 9D", 3: "KH 7D QD JH JD AS QC 8D"})
    s.apply("AH")
    assert s.legal_actions() == ["TH", "9H", "8H", "7H"]
    s.apply("TH")
    assert len(s.legal_actions()) == 8          # void in (fail) hearts: any card, Q♥ among them
    s.apply("QH")
    assert s.legal_actions() == ["KH"]          # J♥ is a trump, not a heart
    s.apply("KH")
    assert last_trick(s)["winner"] == 2


def test_trump_lead_queens_beat_jacks(rulesets):
    """sheepshead.md, worked example: 7♦ led, J♣, Q♦, A♦ -> Q♦ (any queen beats any jack); a queen or
    jack follows a trump lead, a fail card may not."""
    g = load(rulesets, "sheep")
    s = dealt(g, {0: "7D AC TC KC 9C 8C 7C AS", 1: "JC AH TH KH 9H 8H 7H TS",
                  2: "QD KS 9S 8S 7S QH QC QS", 3: "AD 8D JD JH JS TD KD 9D"})
    s.apply("7D")
    assert s.legal_actions() == ["JC"]
    s.apply("JC")
    assert sorted(s.legal_actions()) == ["QC", "QD", "QH", "QS"]
    s.apply("QD")
    s.apply("AD")
    assert last_trick(s)["winner"] == 2
    assert last_trick(s)["cards"][2] == [2, "QD"]


def test_fail_lead_discard_cannot_win(rulesets):
    """sheepshead.md, worked example: ♣10 led, ♣K, ♣A, ♠A (void) -> ♣A; the discarded ♠A cannot win."""
    g = load(rulesets, "sheep")
    s = dealt(g, {0: "TC QD QH QS QC JD JH JS", 1: "KC AD TD KD 9D 8D 7D JC",
                  2: "AC 9C 8C 7C AH TH KH 9H", 3: "AS TS KS 9S 8S 7S 8H 7H"})
    play(s, "TC", "KC", "AC", "AS")
    assert last_trick(s)["winner"] == 2


def test_effective_suit_in_expressions_and_messages(rulesets):
    """With suit_of, card.suit is the effective suit and card.printed_suit the printed one; refusing a
    fail heart on a trump lead names the effective suit and the legal cards."""
    g = load(rulesets, "sheep")
    d = g.deck
    assert g.ns["SUIT"][d.face("QH")] == d.suit_index("D") and g.ns["PSUIT"][d.face("QH")] == d.suit_index("H")
    assert d.suit[d.face("QH")] == d.suit_index("H")
    s = dealt(g, {0: "7D AC TC KC 9C 8C 7C AS", 1: "JC AH TH KH 9H 8H 7H TS",
                  2: "QD KS 9S 8S 7S QH QC QS", 3: "AD 8D JD JH JS TD KD 9D"})
    s.apply("7D")
    with pytest.raises(IllegalAction) as e:
        s.apply("AH")
    assert "follow suit (D)" in str(e.value) and "JC" in str(e.value)
    assert s.legal_actions() == ["JC"]


def test_suit_of_may_not_read_the_state(tmp_path):
    """suit_of may read the card, options, the trump and the ruleset's vars (a table per value of those:
    tests/test_deal_suits.py); another value of the state (here the dealer) is a ruleset error at its line."""
    p = tmp_path / "bad.yaml"
    p.write_text(SHEEP.replace("suit_of: if card.rank == Q", "suit_of: if dealer == 0 and card.rank == Q"))
    with pytest.raises(cardspec.RulesetError) as e:
        cardspec.load(str(p))
    assert "bad.yaml:7:" in str(e.value) and "suit_of may read the card, options, the trump" in str(e.value)


def test_exempt_joker_may_be_played_when_able_to_follow(rulesets):
    """napoleon.md, "Options" (joker): the joker may be played at any time, even when able to follow;
    a seat that can follow may play only the led suit or the joker."""
    g = load(rulesets, "joker")
    s = dealt(g, {0: "2S 3S 4S 5S 6S 7S 8S 9S TS", 1: "JK JS QS KS AS 2H 3H 4H 5H",
                  2: "6H 7H 8H 9H TH JH QH KH AH"})
    s.apply("2S")
    assert s.legal_actions() == ["AS", "KS", "QS", "JS", "JK"]
    with pytest.raises(IllegalAction) as e:
        s.apply("2H")
    assert "follow suit (S)" in str(e.value)
    s.apply("JK")
    s.apply("6H")                         # void in spades: any card
    assert last_trick(s)["winner"] == 1   # the joker wins (its key)


def test_led_joker_makes_the_others_play_trumps(rulesets):
    """napoleon.md, "Options" (joker): when the joker is led every other player must play a trump if
    able (`led_suit: if card == JK then trump else card.suit`)."""
    g = load(rulesets, "joker")
    s = dealt(g, {0: "JK 2S 3S 4S 5S 6S 7S 8S 9S", 1: "TS JS QS KS AS 2H 3H 4H 5H",
                  2: "6H 7H 8H 9H TH JH QH KH AH"})
    s.apply("JK")
    assert s.legal_actions() == ["5H", "4H", "3H", "2H"]
    s.apply("2H")
    s.apply("AH")
    ev = last_trick(s)
    assert ev["winner"] == 0 and ev["led_suit"] == "H"


def test_joker_led_with_nothing_named_the_next_card_sets_the_led_suit(tmp_path):
    """goninkan.md, "Play": a joker led to the last trick names nothing; the second card counts as led."""
    p = tmp_path / "j.yaml"
    p.write_text(JOKER.replace('      led_suit: if card == JK and joker_lead == "trump" then trump else card.suit\n', ""))
    g = cardspec.load(str(p))
    s = dealt(g, {0: "JK 2S 3S 4S 5S 6S 7S 8S 9S", 1: "TS JS QS KS AS 2H 3H 4H 5H",
                  2: "6H 7H 8H 9H TH JH QH KH AH"})
    s.apply("JK")
    assert len(s.legal_actions()) == 9    # no led suit yet: any card
    s.apply("TS")
    assert s.legal_actions() == ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"]   # void in spades
    s.apply("6H")
    assert last_trick(s)["led_suit"] == "S"


# ---- the current trick ------------------------------------------------------------------------

MIGHTY_HANDS = {0: "5S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
                1: "AS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
                2: "QH 2H 3H 4H 5H 6H 7H 8H 9H TH JH KH AH",
                3: "KS 2S 3S 4S 6S 7S 8S 9S TS JS QS AC AD"}


def test_queen_of_hearts_beats_the_mighty_only_when_both_are_in_the_trick(rulesets):
    """napoleon.md, worked example: ♠5 led, ♠A, ♥Q (void in spades), ♠K -> ♥Q (よろめき); without ♥Q, ♠A."""
    g = load(rulesets, "mighty")
    s = dealt(g, MIGHTY_HANDS)
    play(s, "5S", "AS", "QH", "KS")
    assert last_trick(s)["winner"] == 2
    s = dealt(g, MIGHTY_HANDS)
    play(s, "5S", "AS", "2H", "KS")
    assert last_trick(s)["winner"] == 1


def test_same_two_reads_the_whole_trick(rulesets):
    """napoleon.md, worked example: trick 4: ♦9 led, ♦4, ♦K, ♦2, ♦A -> ♦2 (same two); on trick 1 -> ♦A.
    (Four players here: the whole trick is of the led suit and holds its 2.)"""
    g = load(rulesets, "mighty")
    hands = {0: "2C 2D 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", 1: "AC 9D 3C 4C 5C 6C 7C 8C 9C TC JC 2H 3H",
             2: "KC 4D 3D 4H 5H 6H 7H 8H 9H TH JH KH AH", 3: "QC AD 5D 6D 7D 8D TD JD QD KD QH AS 2S"}
    s = dealt(g, hands, dealer=0)                       # seat 1 leads
    play(s, "AC", "KC", "QC", "2C")
    assert last_trick(s)["winner"] == 1
    play(s, "9D", "4D", "AD", "2D")
    assert last_trick(s)["winner"] == 0                 # trick 2: the same two
    s = dealt(g, hands, dealer=0)
    play(s, "9D", "4D", "AD", "2D")
    assert last_trick(s)["winner"] == 3                 # trick 1: no same two


def test_play_reads_the_led_card_and_its_seat(rulesets):
    """`play:` may read led_card and trick_seats: here whoever follows seat 0's lead must beat the led card
    if able; after_trick effects read the completed trick."""
    g = load(rulesets, "mighty")
    s = dealt(g, MIGHTY_HANDS)          # seat 0 leads
    s.apply("5S")
    assert s.legal_actions() == ["AS"]                # seat 1 follows spades with ... only AS
    s.apply("AS")
    s.apply("2H")
    assert s.legal_actions() == ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"]   # above the 5
    s.apply("6S")
    assert s.v[g.var["first_seen"].index] == 3      # trick_seats[-1] after the trick


def test_trick_readers_play_out_in_every_loop(rulesets):
    """Rulesets that read the trick, an exempt card, a led-suit rule or a choice play whole matches by the
    public API, the recorded loop and the quiet loop, with every card played exactly once per deal."""
    for name, opts in (("mighty", {}), ("joker", {}), ("joker", {"joker_lead": "named"}), ("sheep", {})):
        g = load(rulesets, name, **opts)
        for seed in range(8):
            s = g.new_state(seed=seed)
            rng = random.Random(seed)
            while not s.terminal:
                s.apply(rng.choice(s.legal_actions()))
            played = [c for e in s.log_all() if e["type"] == "trick" for _, c in e["cards"]]
            assert sorted(played) == sorted(c for c in played)   # (one deal)
            assert len(played) == len(set(played)) == g.n * len([e for e in s.log_all() if e["type"] == "trick"])
            for record in (True, False):
                t = g.new_state(seed=seed, record=record).random_playout()
                assert t.terminal


# ---- a choice inside a trick --------------------------------------------------------------------

JOKER_HANDS = {0: "JK 2S 3S 4S 5S 6S 7S 8S 9S", 1: "TS JS QS KS AS 2H 3H 4H 5H",
               2: "6H 7H 8H 9H TH JH QH KH AH"}


def test_leader_of_the_joker_names_the_suit(rulesets):
    """goninkan.md, "Play": a player who leads the joker names a suit, which the others must follow.
    Worked example (three players here): joker led naming ♠; ♠4, ♣9 … -> joker."""
    g = load(rulesets, "joker", joker_lead="named")
    s = dealt(g, JOKER_HANDS)
    s.apply("JK")
    assert s.to_act == 0
    assert s.legal_actions() == ["name spades", "name hearts"]
    s.apply("name ♠")
    assert s.to_act == 1 and s.legal_actions() == ["AS", "KS", "QS", "JS", "TS"]
    s.apply("TS")
    s.apply("AH")
    events = [e for e in s.log_all() if e["type"] in ("choose", "trick")]
    assert events[0] == {"type": "choose", "seat": 0, "word": "name", "choice": "spades"}
    assert events[1]["winner"] == 0 and events[1]["led_suit"] == "S"


def test_a_choice_that_changes_nothing_is_a_warning(tmp_path, rulesets):
    """goninkan.md, "Play": "A player who leads it names a suit, which the others must follow." A choose:
    with neither led_suit: nor effects: is made, logged and read by nothing: Goninkan's named suit was
    followed by nobody (issue 32 item 5). `cardspec validate` warns at the choose: key, naming the fix;
    a choice that sets the led suit or runs effects is not warned."""
    from cardspec.authoring.validate import validate_ruleset
    p = tmp_path / "j.yaml"
    p.write_text(JOKER.replace("        led_suit: choice\n", ""))
    problems, status = validate_ruleset(str(p), play=False)
    ws = [w for w in problems if w.code == "choose/changes-nothing"]
    assert status == 0 and len(ws) == 1 and ws[0].severity == "warning"
    assert ws[0].line == JOKER.splitlines().index("      choose:") + 1 and "led_suit: choice" in ws[0].hint
    p.write_text(JOKER.replace("        led_suit: choice\n", "        effects: [{set: {named: choice}}]\n")
                 .replace("counters:", "vars:\n  named: {type: suit, default: no_suit}\ncounters:"))
    assert [w for w in validate_ruleset(str(p), play=False)[0] if w.code == "choose/changes-nothing"] == []
    assert cardspec.load(rulesets["joker"]).warnings == []


def test_a_pending_choice_refuses_cards_and_leaves_the_state(rulesets):
    """An illegal action names the legal ones and leaves the state unchanged (DESIGN.md, "Errors")."""
    g = load(rulesets, "joker", joker_lead="named")
    s = dealt(g, JOKER_HANDS)
    s.apply("JK")
    before = s.position_key()
    for bad in ("2S", "name clubs", "name"):
        with pytest.raises(IllegalAction) as e:
            s.apply(bad)
        assert "name spades" in str(e.value)
    assert s.position_key() == before
    s.apply("name hearts")
    with pytest.raises(IllegalAction) as e:
        s.apply("name spades")
    assert "nothing to choose" in str(e.value)


def test_bots_and_determinizer_handle_choices_and_effective_suits(rulesets):
    """ISMCTS (views only, determinized) and the random bot play matches with choices, exempt cards and
    effective suits; a position rebuilt from a view has the same legal actions."""
    from cardspec.engine.determinize import Determinizer
    from cardspec.players import make_bot
    for name, opts in (("joker", {"joker_lead": "named"}), ("sheep", {})):
        g = load(rulesets, name, **opts)
        s = g.new_state(seed=5)
        bots = [make_bot("ismcts:30", seed=i, game=g) for i in range(g.n)]
        while not s.terminal:
            view = s.view(s.to_act, log=True)
            assert Determinizer(g, view).sample(random.Random(3)).legal_actions() == s.legal_actions()
            s.apply(bots[s.to_act].act(view, s.legal_actions()))
        assert s.terminal
        assert sum(b.fallbacks for b in bots) == 0     # never fell back to a random move
