"""The browser table end to end (issue 10): headless Chromium (Debian's package) driven by Playwright.

`cardspec serve --http 127.0.0.1:0` runs as a subprocess; the page creates a Hearts table
(one deal) with 3 bots, the test plays the whole deal by clicking highlighted cards and
action buttons only, and then reads the final scores on the page.

Needs /usr/bin/chromium (`apt-get install -y chromium`; no browser is downloaded — never
`playwright install`). Without it the test is skipped with that reason.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

CHROMIUM = os.environ.get("CARDSPEC_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")


@pytest.fixture(scope="module")
def base_url():
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store", "none"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("cardspec: serving "), line + proc.stderr.read()
    yield line.split()[-1]
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def test_play_a_whole_hearts_deal_by_clicking(base_url, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(base_url)
    page.select_option("#ruleset", "hearts")
    assert page.eval_on_selector_all("#players option", "os => os.map(o => o.value)") == ["4"]
    # the deals option is a number field rendered from the ruleset's options
    page.fill("#options [data-option=deals]", "1")
    page.select_option("#bot-delay", "0")
    page.click("#create")
    page.wait_for_selector("body[data-turn=mine], body[data-turn=over]", timeout=20000)
    assert page.inner_text("#title").startswith("Hearts")
    assert len(page.query_selector_all("#hand .card")) == 13
    clicks = 0
    kinds = set()
    for _ in range(60):
        page.wait_for_selector("body[data-turn=mine], body[data-turn=over]", timeout=20000)
        if page.get_attribute("body", "data-turn") == "over":
            break
        version = page.get_attribute("body", "data-version")
        legal = page.evaluate("S.view.legal_actions")
        cards = page.query_selector_all("#hand .card.legal")
        # every legal card is highlighted, and only those
        codes = sorted(c.get_attribute("data-code") for c in cards)
        assert codes == sorted(a.split()[-1] for a in legal), (codes, legal)
        target = cards[0] if cards else page.query_selector("#actions button.action")
        kinds.add(legal[0].split()[0] if " " in legal[0] else "card")
        target.click()
        clicks += 1
        page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=20000)
    assert page.get_attribute("body", "data-turn") == "over"
    assert clicks == 16 and kinds == {"pass", "card"}          # 3 passes, 13 tricks
    result = page.inner_text("#result")
    assert result.startswith("Game over.")
    scores = page.eval_on_selector_all("#scores tr", "rows => rows.map(r => r.innerText)")
    assert len(scores) == 4 and scores[0].startswith("You")
    points = [int(re.split(r"\s+", s.strip())[-1]) for s in scores]
    assert sum(points) in (26, 78)                              # every heart and the Q♠, or a shot moon
    log = page.inner_text("#log")
    assert log.count("Trick ") == 13 and "Game over" in log
    assert not problems, problems
    page.close()


def test_cancellation_black_lady_with_seven_bots(base_url, browser):
    """The issue's done-when: a person plays Cancellation Black Lady with 7 bots. Its first pass is
    two cards at once: two clicks select them, then the highlighted confirm button sends the pass."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(base_url)
    page.select_option("#ruleset", "cancellation-black-lady")
    page.select_option("#players", "8")
    page.fill("#options [data-option=deals]", "1")
    page.select_option("#bot-delay", "0")
    page.click("#create")
    confirmed = []
    for _ in range(80):
        page.wait_for_selector("body[data-turn=mine], body[data-turn=over]", timeout=20000)
        if page.get_attribute("body", "data-turn") == "over":
            break
        version = page.get_attribute("body", "data-version")
        selected = len(page.query_selector_all("#hand .card.selected"))
        confirm = page.query_selector("#actions button.confirm")
        if confirm:
            confirmed.append(confirm.get_attribute("data-action"))
            confirm.click()
        else:
            (page.query_selector("#hand .card.legal") or page.query_selector("#actions button.action")).click()
        page.wait_for_function(f"document.body.dataset.version !== '{version}' || "
                               f"document.querySelectorAll('#hand .card.selected').length !== {selected}",
                               timeout=20000)
    assert page.get_attribute("body", "data-turn") == "over"
    assert confirmed and confirmed[0].startswith("pass ") and len(confirmed[0].split()) == 3
    assert page.inner_text("#result").startswith("Game over.")
    assert len(page.query_selector_all("#scores tr")) == 8
    assert not problems, problems
    page.close()
