"""README "A short tour": the variant with a deliberate mistake and the message `cardspec validate` prints
for it, run as written (issue 20, "Done when": the README tour shows a variant with a deliberate mistake
and its message). The README's YAML block and its message block are read from README.md, so the two
cannot drift apart."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def _blocks():
    text = README.read_text(encoding="utf-8")
    start = text.index("A variant is a few lines over a built-in game.")
    yaml_block = re.search(r"```yaml\n(.*?)```", text[start:], re.S).group(1)
    message = re.search(r"refuses it.*?```\n(.*?)```", text[start:], re.S).group(1)
    return yaml_block, message


def _validate(cwd):
    return subprocess.run([sys.executable, "-m", "cardspec.cli", "validate", "my-variant.yaml"], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "CARDSPEC_DEBUG": ""}, timeout=300)


def test_readme_variant_mistake_gives_the_readme_message(tmp_path):
    yaml_block, message = _blocks()
    assert "- id: scroe" in yaml_block
    (tmp_path / "my-variant.yaml").write_text(yaml_block)
    r = _validate(tmp_path)
    assert r.returncode == 1
    assert r.stderr == message


def test_readme_variant_fixed_is_ok_and_plays(tmp_path):
    yaml_block, _ = _blocks()
    (tmp_path / "my-variant.yaml").write_text(yaml_block.replace("- id: scroe", "- id: score"))
    r = _validate(tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "my-variant.yaml: ok\n", "")
    import cardspec
    g = cardspec.load(str(tmp_path / "my-variant.yaml"), 3, {"deals": 1})
    s = g.new_state(seed=1)
    assert all(len(a.split()) == 3 for a in s.legal_actions())   # two cards passed: "pass X Y"
    s.random_playout()
    won = s.z[g.zone["won"].index]
    # the score step: points taken plus one per trick (count(won) / players)
    assert s.scores() == {str(i): sum(g.deck.points_of[c] for c in won[i]) + len(won[i]) // 3 for i in range(3)}
