"""Shared data and typed text stay data (hostile-input review of 2026-12-02).

A ruleset's ``extends:`` and a scenario's ``ruleset:`` may name a ruleset, never any file the reader can
see (``extends: /etc/shadow`` printed the file's first line in the error, ``extends: /proc/self/environ``
the whole environment, and ``extends: /proc/kmsg`` blocked for ever): a name is a built-in ruleset or a
``*.yaml``/``*.yml`` file outside ``/proc``, ``/sys`` and ``/dev``, and a YAML file that is not shaped as a
ruleset is refused at the naming line, quoting nothing of it. Text a player types stays one short line
in messages and in what other players see.
"""
from __future__ import annotations

import pytest

import cardspec
import cardspec.errors
import cardspec.rules.loader
from cardspec.errors import RulesetError
from cardspec.rules import read_ruleset
from cardspec.authoring.scenario import ScenarioError, replay

SECRET = "gho_s3cr3t_t0ken"


def _refused(tmp_path, base: str, files: dict | None = None) -> str:
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text)
    v = tmp_path / "variant.yaml"
    v.write_text(f"extends: {base}\nname: v\n")
    with pytest.raises(RulesetError) as e:
        read_ruleset(str(v))
    first = e.value.first
    assert (first.file.endswith("variant.yaml"), first.line, first.col) == (True, 1, 10)
    return str(e.value)


@pytest.mark.parametrize("base", ["/etc/passwd", "/etc/hostname", "../../../../../../etc/passwd",
                                  "/proc/self/environ", "/proc/self/cmdline", "/proc/kmsg"])
def test_extends_naming_a_system_file_is_refused_at_its_line_and_quotes_nothing(tmp_path, base):
    text = _refused(tmp_path, base)
    assert "is not a ruleset file" in text and "root:" not in text and "PATH=" not in text


def test_extends_naming_a_yaml_file_that_is_not_a_ruleset_quotes_nothing_of_it(tmp_path):
    text = _refused(tmp_path, "hosts.yml", {"hosts.yml": f"github.com:\n  oauth_token: {SECRET}\n"})
    assert "not a ruleset file" in text and SECRET not in text and "github.com" not in text


def test_extends_naming_a_broken_yaml_file_says_where_without_quoting_it(tmp_path):
    text = _refused(tmp_path, "notes.yaml", {"notes.yaml": f"token: [{SECRET}\n"})
    assert "notes.yaml:2:1" in text and SECRET not in text


def test_extends_naming_a_ruleset_file_by_a_relative_path_still_works(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "base.yml").write_text(
        (cardspec.rules.loader.rulesets_dir() / "red-dog.yaml").read_text())
    (tmp_path / "variants").mkdir()
    v = tmp_path / "variants" / "v.yaml"
    v.write_text("extends: ../rules/base.yml\nname: my-red-dog\n")
    assert read_ruleset(str(v)).name == "my-red-dog"


def test_a_scenario_naming_a_system_file_as_its_ruleset_is_refused_and_quotes_nothing(tmp_path):
    sc = tmp_path / "s.yaml"
    sc.write_text("ruleset: /etc/passwd\nplayers: 4\nseed: 1\nactions: []\n")
    with pytest.raises((RulesetError, ScenarioError)) as e:
        replay(str(sc))
    assert "not a ruleset file" in str(e.value) and "root:" not in str(e.value)


def test_an_illegal_action_message_stays_a_line_however_long_the_text():
    """Hostile-input review of 2026-12-02: a 10 MB action gave a 20 MB message (the text twice)."""
    s = cardspec.load("hearts").new_state(seed=1)
    before = list(s.history)
    with pytest.raises(cardspec.errors.IllegalAction) as e:
        s.apply("A" * 10_000_000)
    assert len(str(e.value)) < 2_000 and "10,000,000 characters" in str(e.value)
    assert len(e.value.action) == 10_000_000 and s.history == before


@pytest.mark.parametrize("hint", ["x" * 1_000_000, "\x1b[2J\x1b[31mEVIL", "a\x00b"])
def test_a_typed_secret_rule_hint_is_one_short_line_of_text(hint):
    """Hostile-input review of 2026-12-02: ``write true hint: …`` stored a 1 MB hint, and terminal escape
    codes, shown to every player in the log and the terminal table. Refused, the state unchanged."""
    s = cardspec.load("eleusis-prophets", players=4).new_state(seed=1)
    before = (list(s.history), s.view(0))
    with pytest.raises(cardspec.errors.IllegalAction, match="a hint is at most"):
        s.apply(f"write true hint: {hint}")
    assert (list(s.history), s.view(0)) == before
    s.apply("write true hint: Think about colours.")   # an ordinary hint is still fine


@pytest.mark.parametrize("amount", ["١٠", "1_0", "+10", "１０"])
def test_a_typed_number_is_ascii_digits(amount):
    """Hostile-input review of 2026-12-02: red-dog took ``raise ١٠`` (Arabic-Indic digits), ``raise 1_0`` and
    ``raise +10`` as ``raise 10`` (Python's int() reads them). A number is digits 0-9, perhaps after -."""
    s = cardspec.load("red-dog").new_state(seed=1)
    assert "raise 10" in s.legal_actions()
    with pytest.raises(cardspec.errors.IllegalAction, match="a whole number"):
        s.apply(f"raise {amount}")
    s.apply("raise 10")
