"""The load-time tables of the auction and bid steps (engine/steps/folded.py, auction.py, bidding.py):
an auction's ``beats:`` that folds to the default order, a ``may_pass:`` that folds to true, ``legal:``/
``ends:`` conditions that read the bid alone, and a bid step's ``legal:`` folded to true are answered
from tables made at load. Each table is held here to the expressions it stands for, over the positions
of seeded random matches, and the tables are checked to be in use (a test that fails when the fast path
is switched off)."""
import random

import pytest

import cardspec

GAMES = [("auction-pitch", None, {}), ("auction-pitch", None, {"modern_auction": True}),
         ("euchre", None, {}), ("euchre", None, {"pass_out": "stick_the_dealer"}), ("sheepshead", None, {}),
         ("sheepshead", None, {"no_pick": "forced_pick"}), ("briscola-bugiarda", None, {}),
         ("briscola-chiamata", None, {}), ("napoleon", None, {}), ("bridge", None, {})]


def _auctions(g):
    return [st for st in g.steps if st.kind == "auction"]


def _reference_beating(step, s, seat):
    """``_bids_beating`` as it was before the tables: every bid asked of ``beats`` and ``legal:``."""
    high = s.v[step_level_slot()]
    out = []
    for lvl, b in enumerate(step.bids):
        f = (b[0], b[1], b[2], b[4], lvl)
        if high >= 0 and not step.beats(s, seat, *f):
            continue
        if step.restrict is not None and not step.restrict(s, seat, *f):
            continue
        out.append(lvl)
    return out


def step_level_slot():
    from cardspec.engine.slots import BID_LEVEL
    return BID_LEVEL


@pytest.mark.parametrize("name,players,options", GAMES)
def test_tables_give_what_the_expressions_give(name, players, options):
    g = cardspec.load(name, players, options) if players else cardspec.load(name, options=options)
    from cardspec.engine.slots import TO_ACT
    rng = random.Random(11)
    seen = 0
    for m in range(6):
        s = g.new_state(seed=m)
        while not s.terminal:
            step = s.current_step()
            legal = s.legal_actions()
            if step.kind == "auction" and not step.say_hold:
                seat = s.v[TO_ACT]
                assert step._bids_beating(s, seat) == _reference_beating(step, s, seat)
                mp = step.may_pass
                ref_mp = step._may_pass_expr
                out = _reference_beating(step, s, seat)
                assert (mp is None or not out or mp(s, seat)) == (ref_mp is None or not out or ref_mp(s, seat))
                for lvl, f in enumerate(step._fields_of):
                    if step._ends_at is not None:
                        assert step._ends_at[lvl] == bool(step.ends(s, seat, *f))
                    if step._allowed is not None:
                        assert (lvl in step._allowed) == bool(step.restrict(s, seat, *f))
                    b = step.bids[lvl]
                    assert f == (b[0], b[1], b[2], b[4], lvl)
                seen += 1
            s.apply(legal[int(rng.random() * len(legal))])
    assert seen > 0


def test_the_tables_are_in_use():
    """The folded ``beats:``/``may_pass:`` and the per-bid tables are made where the rulesets allow them."""
    pitch = _auctions(cardspec.load("auction-pitch"))[0]
    assert pitch._climbs and pitch.may_pass is None and pitch._ends_at == [False, False, False, True]
    modern = _auctions(cardspec.load("auction-pitch", options={"modern_auction": True}))[0]
    assert not modern._climbs and modern.may_pass is not None
    one, two = _auctions(cardspec.load("euchre"))
    assert one._allowed == [0] and one._ends_at == [True, True] and one.may_pass is None
    assert two._allowed is None   # legal: reads a var (the turned-down suit)
    assert _auctions(cardspec.load("euchre", options={"pass_out": "stick_the_dealer"}))[1].may_pass is not None
    pick = _auctions(cardspec.load("sheepshead"))[0]
    assert pick._allowed == [0] and pick._ends_at == [True, False]


def test_a_condition_reading_the_state_or_the_seat_gets_no_table():
    from cardspec.engine.steps.auction import _per_bid
    fields = [(1, -1, 0, "", 0), (2, -1, 0, "", 1)]

    def reads_state(s, p_seat, p_number, p_suit, p_rank, p_contract, p_level):
        return p_level > s.v[15]

    def reads_seat(s, p_seat, p_number, p_suit, p_rank, p_contract, p_level):
        return p_seat == 0

    def reads_state_inside(s, p_seat, p_number, p_suit, p_rank, p_contract, p_level):
        return any(x == p_number for x in s.v)

    def bid_alone(s, p_seat, p_number, p_suit, p_rank, p_contract, p_level):
        return p_number == 2

    def fails(s, p_seat, p_number, p_suit, p_rank, p_contract, p_level):
        return 1 // (p_number - 2) > 0

    for f in (reads_state, reads_seat, reads_state_inside, fails):
        assert _per_bid(f, fields) is None, f.__name__
    assert _per_bid(bid_alone, fields) == [False, True]


@pytest.mark.parametrize("name,options", [("wizard", {}), ("wizard", {"hook": True}), ("oh-hell", {})])
def test_a_bid_step_legal_folded_to_true_is_not_asked(name, options):
    """A bid step's ``legal:`` that folds to true (wizard without the hook) lists every bid without a
    call per bid; the listing and its texts are those of the condition asked for every bid."""
    g = cardspec.load(name, options=options)
    from cardspec.engine.slots import TO_ACT
    step = next(st for st in g.steps if st.kind == "bid")
    assert step._always == (name == "wizard" and not options.get("hook"))
    rng = random.Random(5)
    seen = 0
    for m in range(4):
        s = g.new_state(seed=m)
        while not s.terminal:
            legal = s.legal_actions()
            if s.current_step() is step:
                seat = s.v[TO_ACT]
                every = list(range(step.lo(s), step.hi(s) + 1))
                ref = [b for b in every if step.restrict(s, seat, b)] or every
                assert step.legal(s) == ref
                assert legal == [f"bid {b}" for b in ref] == [step.text(s, b) for b in ref]
                seen += 1
            s.apply(legal[int(rng.random() * len(legal))])
    assert seen > 0
