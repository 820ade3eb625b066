"""``cardspec lsp`` through pygls's own client over stdio (issue 24, "An editor that knows cardspec"):
a diagnostic, a completion inside an expression, a hover, and a variant with no false error.
"""
import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as t  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from cardspec.authoring.lsp import yaml_path_at  # noqa: E402

VARIANT = "extends: hearts\nname: my-hearts\noptions:\n  deals: {type: int, default: 2, min: 1, max: 9}\n"
BROKEN = VARIANT + "define:\n  moon_total: count(c in deck where c.suit == hearts) + trmp_points\n"


def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def _session(tmp_path, text, then):
    path = tmp_path / "my-hearts.yaml"
    path.write_text(text)
    uri = path.as_uri()
    client = LanguageClient("test-client", "1")
    got = {}
    done = asyncio.Event()

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params):
        got["diags"] = params.diagnostics
        done.set()

    await client.start_io(sys.executable, "-m", "cardspec.cli", "lsp")
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(), root_uri=tmp_path.as_uri()))
    client.initialized(t.InitializedParams())
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await asyncio.wait_for(done.wait(), 60)
    try:
        return got["diags"], await then(client, uri)
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()


def test_a_variant_opens_with_no_false_error(tmp_path):
    """A two-line variant needs no deck/deal/players: the server checks the merged ruleset."""
    async def nothing(client, uri):
        return None
    diags, _ = _run(_session(tmp_path, VARIANT, nothing))
    assert list(diags) == []


def test_an_unknown_name_in_an_expression_is_a_diagnostic_at_its_place(tmp_path):
    async def nothing(client, uri):
        return None
    diags, _ = _run(_session(tmp_path, BROKEN, nothing))
    [d] = [d for d in diags if "trmp_points" in d.message]
    line = BROKEN.splitlines()[d.range.start.line]
    assert "trmp_points" in line and d.range.start.line == 5
    assert line[d.range.start.character:].startswith("trmp_points")


def test_completion_inside_an_expression_offers_zones_definitions_and_builtins(tmp_path):
    async def complete(client, uri):
        # line 5: "  moon_total: count(c in deck where ..."  — the cursor right after "count(c in "
        col = BROKEN.splitlines()[5].index("deck")
        return await client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=5, character=col)))
    _diags, res = _run(_session(tmp_path, BROKEN, complete))
    labels = {i.label: i.detail for i in res.items}
    assert "won" in labels and labels["won"].startswith("zone")           # a zone of the base (black-lady)
    assert "hand" in labels and "score" in labels                            # zone, counter
    assert "count" in labels and "number of items" in labels["count"]       # builtin with its docs row
    assert "trump" in labels and "deals" in labels                           # table value, option


def test_completion_of_keys_follows_the_schema(tmp_path):
    async def complete(client, uri):
        return await client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=3, character=2)))
    _diags, res = _run(_session(tmp_path, VARIANT, complete))
    # line 3 is inside options: -> an option's keys
    labels = {i.label for i in res.items}
    assert {"type", "default", "min", "max"} <= labels


def test_hover_shows_a_builtin_row_and_a_key_description(tmp_path):
    async def hover(client, uri):
        col = BROKEN.splitlines()[5].index("count") + 2
        a = await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=5, character=col)))
        b = await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=0, character=2)))
        return a, b
    _diags, (a, b) = _run(_session(tmp_path, BROKEN, hover))
    assert "count(LIST)" in a.contents.value and "number of items" in a.contents.value
    assert "extends" in b.contents.value


def test_yaml_path_from_indentation():
    text = "deal:\n  - id: play\n    tricks:\n      lead: x\n      key: y\n"
    assert yaml_path_at(text, 4) == ["deal", "tricks"]
    assert yaml_path_at(text, 1) == ["deal"]


async def _client():
    client = LanguageClient("test-client", "1")
    diags = []

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params):
        diags.append(params)

    await client.start_io(sys.executable, "-m", "cardspec.cli", "lsp")
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    client.initialized(t.InitializedParams())
    return client, diags


async def _close(client):
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


async def _until(pred, seconds=60):
    for _ in range(int(seconds * 20)):
        if pred():
            return True
        await asyncio.sleep(0.05)
    return False


def test_an_unsaved_new_document_is_checked():
    """Issue 36 item 6: "An unsaved new document gets 'no ruleset file … named' instead of a check."""
    async def go():
        client, diags = await _client()
        try:
            client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
                uri="untitled:Untitled-1", language_id="yaml", version=1, text=BROKEN)))
            assert await _until(lambda: diags)
            return diags[-1]
        finally:
            await _close(client)
    got = _run(go())
    messages = [d.message for d in got.diagnostics]
    assert got.uri == "untitled:Untitled-1"
    assert any("trmp_points" in m for m in messages), messages
    assert not any("no ruleset file" in m for m in messages), messages


def test_a_burst_of_edits_is_checked_once_and_a_hover_is_answered_meanwhile(tmp_path):
    """Issue 36 item 6: every didChange ran a full check in order (200 quick edits delayed a hover by
    seconds and diagnostics by minutes). Now the edits of a burst supersede each other: 60 edits sent at once
    give at most a few diagnostics, the last of them for the final text, and a hover sent right after the
    burst is answered (requests no longer wait behind the checks)."""
    path = tmp_path / "my-hearts.yaml"
    path.write_text(VARIANT)
    uri = path.as_uri()

    async def go():
        client, diags = await _client()
        try:
            client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=VARIANT)))
            assert await _until(lambda: diags)
            opened = len(diags)
            for k in range(60):
                text = VARIANT + f"define:\n  x{k}: count(deck) + undefined_{k}\n"
                client.text_document_did_change(t.DidChangeTextDocumentParams(
                    text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=k + 2),
                    content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))
            hover = await client.text_document_hover_async(t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=0, character=2)))
            hovered_before = len(diags) - opened
            assert await _until(lambda: any("undefined_59" in d.message for p in diags[opened:] for d in p.diagnostics))
            await asyncio.sleep(1.0)   # (nothing older may arrive after it)
            return hover, hovered_before, diags[opened:]
        finally:
            await _close(client)
    hover, before, after = _run(go())
    assert hover is not None and "extends" in hover.contents.value.lower()
    assert 1 <= len(after) <= 3, len(after)
    assert any("undefined_59" in d.message for d in after[-1].diagnostics)


def test_names_offered_are_the_rulesets_own_with_an_options_help_type_and_default():
    """Issue 35 item 9: hover on an option showed no help, type or default, and completion in Hearts offered
    bid_contract and declarer (table values of an auction Hearts has not). Now an option's detail is its
    type, default and help, and a table value is offered only with its mechanism (Napoleon's auction)."""
    from cardspec.authoring.lsp import name_completions
    from cardspec.rules import rulesets_dir
    def names(game):
        p = Path(rulesets_dir()) / f"{game}.yaml"
        return {n: (k, d) for n, k, d in name_completions(str(p), p.read_text())}
    hearts = names("hearts")
    assert "bid_contract" not in hearts and "declarer" not in hearts and "called_by" not in hearts
    assert {"trick_number", "led_suit", "dealer", "trump"} <= set(hearts)
    kind, detail = hearts["moon"]
    assert kind == "option" and detail.startswith("bool, default True: Shooting the moon")
    napoleon = names("napoleon")
    assert {"bid_contract", "declarer", "called_by"} <= set(napoleon)
