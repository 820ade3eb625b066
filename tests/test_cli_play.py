"""``cardspec play`` from the command line (issue 3, "CLI" and "Done when").

Source: the issue's acceptance ("`cardspec play cancellation-black-lady
--players 8 --seed 1` plays an 8-deal match in a few seconds and names the
loser, and so does the same with `--option widow_8p=8`"), DESIGN.md
("Errors": exit codes 0 ok, 2 bad input; no traceback) and the replay JSON
shape (DESIGN.md, "Scenarios").
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest


def cli(*args, stdin=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "cardspec.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("extra,each,widow", [((), 13, None), (("--option", "widow_8p=8"), 12, 8)])
def test_play_cancellation_8_players(extra, each, widow):
    """Issue 3 "Done when": an 8-deal match that names the loser (also with widow_8p=8). Not timed (house
    rule: no timed tests; speed is measured in benchmarks/): cli()'s timeout only stops a hang."""
    p = cli("play", "cancellation-black-lady", "--players", "8", "--seed", "1", *extra)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert len(re.findall(r"^Deal \d+ \(dealer: seat \d\)", out, re.M)) == 8
    assert re.search(r"^Loser: seat \d", out, re.M)
    assert f"dealt {each} cards to each hand" in out
    if widow:
        m = re.search(r"widow: (\d+) cards, face up: ((?:\S+ ?)+)", out)
        assert m and int(m.group(1)) == widow and len(m.group(2).split()) == 4
    assert re.search(r"trick +\d+: .*-> (seat \d wins|no card wins)", out)


def test_play_json_has_the_replay_shape():
    """DESIGN.md "Scenarios": --json prints {"events", "terminal", "to_act", "legal_actions", "scores"}."""
    p = cli("play", "cancellation-black-lady", "--players", "8", "--seed", "1", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert {"events", "terminal", "to_act", "legal_actions", "scores"} <= set(out)
    assert out["terminal"] is True and out["to_act"] is None and out["legal_actions"] == []
    assert set(out["scores"]) == {str(i) for i in range(8)}
    over = out["events"][-1]
    assert over["type"] == "game_over" and over["loser"] and over["ranking"]
    assert sum(1 for e in out["events"] if e["type"] == "deal_start") == 8
    assert sum(out["scores"].values()) == 8 * 52


def test_play_is_reproducible_by_seed():
    """DESIGN.md "Actions": chance only from the state's RNG, so the same seed gives the same match."""
    a = cli("play", "black-lady", "--players", "4", "--seed", "7", "--json").stdout
    b = cli("play", "black-lady", "--players", "4", "--seed", "7", "--json").stdout
    assert a == b and json.loads(a)["terminal"]


def _human_play(lines, ruleset="black-lady", players="4"):
    return cli("play", ruleset, "--players", players, "--seed", "3", "--human", "0", "--option", "deals=1",
               stdin="".join(x + "\n" for x in lines))


def test_human_bad_entry_asked_again_then_eof_quits_cleanly():
    """Issue 3 "CLI": --human SEAT, a bad entry asked again, never a crash; end of input quits cleanly."""
    p = _human_play(["zz", "AS", "pass ZZ"])
    assert p.returncode == 1 and "abandoned" in p.stderr, p.stderr   # input ended mid-game
    assert "Traceback" not in p.stderr + p.stdout
    assert p.stdout.count("Try again") == 3
    assert "pass 3 cards, e.g. `pass " in p.stdout and "your hand:" in p.stdout


def test_human_plays_a_whole_deal_through_stdin():
    """Issue 3 "CLI": the human types card codes; '?' lists the legal moves; a whole deal can be played."""
    # Answer every prompt with the first legal action the program printed: play it out with a pipe.
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "play", "black-lady", "--players", "4",
                             "--seed", "3", "--human", "0", "--option", "deals=1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=0)
    out = []
    buf = ""
    answered = 0
    first = []
    deadline = time.time() + 60
    while time.time() < deadline:
        ch = proc.stdout.read(1)
        if not ch:
            break
        buf += ch
        if buf.endswith("> "):
            legal = [ln for ln in buf.splitlines() if ln.strip().startswith("legal:") or "e.g. `" in ln]
            assert legal or answered, buf
            if legal:   # "legal: 2C | 3C" or "pass 3 cards, e.g. `pass 2C 3C 4C`"
                last = legal[-1]
                first = last.split("`")[1] if "e.g. `" in last else last.split("legal:")[1].split(" | ")[0]
            action = first
            if answered == 0:
                action = "?"
            proc.stdin.write(action + "\n")
            answered += 1
            out.append(buf)
            buf = ""
    proc.stdin.close()
    rest = proc.stdout.read()
    proc.wait(timeout=30)
    text = "".join(out) + buf + rest
    assert proc.returncode == 0, proc.stderr.read()
    assert "Game over" in text and "Loser:" in text
    assert answered >= 14, "a pass and 13 plays answered"


@pytest.mark.parametrize("args,msg", [
    (("play", "no-such-game", "--players", "4"), "no ruleset"),
    (("play", "cancellation-black-lady", "--players", "8", "--option", "widow_8p=7"), "widow_8p"),
    (("play", "cancellation-black-lady", "--players", "8", "--option", "bogus=1"), "unknown option"),
    (("play", "cancellation-black-lady", "--players", "8", "--option", "widow_8p"), "NAME=VALUE"),
    (("play", "cancellation-black-lady", "--players", "5"), "6 to 11"),
    (("play", "black-lady", "--players", "4", "--human", "9"), "seat"),
])
def test_bad_input_exits_2_without_traceback(args, msg):
    """DESIGN.md "Errors": exit 2 for bad input (unknown ruleset, bad option), a clear message, no traceback."""
    p = cli(*args)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert msg in p.stderr + p.stdout
    assert "Traceback" not in p.stderr + p.stdout


def test_human_passes_three_cards_in_one_line_in_hearts():
    """Issue 21 ("Done when"): a person passes three cards in one line in `cardspec play hearts --human 0`
    (hearts lists its pass one card at a time, like OpenSpiel's); then plays on."""
    p = cli("play", "hearts", "--seed", "3", "--human", "0", "--option", "deals=1", stdin="")
    hand_line = next(ln for ln in p.stdout.splitlines() if "your hand:" in ln)
    hint = next(ln for ln in p.stdout.splitlines() if "in one line" in ln)
    three = hint.split("`")[1]   # "pass C1 C2 C3"
    assert three.startswith("pass ") and len(three.split()) == 4
    assert all(c in hand_line for c in three.split()[1:])
    p = cli("play", "hearts", "--seed", "3", "--human", "0", "--option", "deals=1", stdin=three + "\n")
    assert "Try again" not in p.stdout, p.stdout[-2000:]
    assert p.returncode == 1 and "abandoned" in p.stderr   # the input ended at the first card to play
    assert f"seat 0 passes {three[5:]} to seat" in p.stdout   # one action, logged whole


def test_hearts_pass_typed_whole_is_the_same_as_card_by_card():
    """Issue 21: ``pass 2C 3C 4C`` with ``one_at_a_time`` (hearts) = three one-card passes; the history keeps
    the whole text (replays as typed), a fourth card or a card not held is refused."""
    import cardspec
    g = cardspec.load("hearts")
    a, b = g.new_state(seed=9), g.new_state(seed=9)
    seat = a.to_act
    hand = a.view(seat)["zones"]["hand"][str(seat)]
    a.apply("pass " + " ".join(hand[:3]))
    for c in hand[:3]:
        b.apply("pass " + c)
    assert a.position_key() == b.position_key()
    assert a.history == ["pass " + " ".join(hand[:3])]
    c = g.new_state(seed=9)
    for bad in ("pass " + " ".join(hand[:4]), "pass " + hand[0] + " " + hand[0]):
        with pytest.raises(cardspec.IllegalAction):
            c.apply(bad)
    c.apply("pass " + hand[0])
    with pytest.raises(cardspec.IllegalAction) as e:
        c.apply("pass " + " ".join(hand[1:4]))
    assert "up to the 2 left" in str(e.value)
