"""The language server under a burst of edits (issue 36 item 6): N quick ``didChange`` edits of one ruleset,
then a hover on another open file; prints how long the hover took and how long until the diagnostics of the
last edit arrived, in seconds (wall clock, one run; the machine's load shows in it).

    python benchmarks/lsp_edits.py [--edits 200] [--big]     # --big: the edited file is ~1.9 MB

Baseline of the issue (before the debounced checker): 200 edits of a 300-byte ruleset delayed a hover on
another file 3.4-6.1 s and diagnostics 9.6-17.8 s; 10 edits of a 1.9 MB file delayed diagnostics 114 s.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

VARIANT = "extends: hearts\nname: my-hearts\noptions:\n  deals: {type: int, default: 2, min: 1, max: 9}\n"


async def run(edits: int, big: bool) -> dict:
    folder = Path(tempfile.mkdtemp())
    edited, other = folder / "edited.yaml", folder / "other.yaml"
    filler = "".join(f"# {'x' * 70}\n" for _ in range(26000)) if big else ""
    edited.write_text(VARIANT + filler)
    other.write_text(VARIANT)
    client = LanguageClient("bench", "1")
    diags = []

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params):
        diags.append((time.perf_counter(), params))

    await client.start_io(sys.executable, "-m", "cardspec.cli", "lsp")
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    client.initialized(t.InitializedParams())
    for path in (edited, other):
        client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
            uri=path.as_uri(), language_id="yaml", version=1, text=path.read_text())))
    while len(diags) < 2:
        await asyncio.sleep(0.05)
    start = time.perf_counter()
    for k in range(edits):
        text = VARIANT + filler + f"define:\n  x{k}: count(deck) + undefined_{k}\n"
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=edited.as_uri(), version=k + 2),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))
    sent = time.perf_counter()
    await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=other.as_uri()), position=t.Position(line=0, character=2)))
    hover = time.perf_counter() - sent
    # the last edit's diagnostics: its unknown name, or (a file over the live limit) the note that it is
    # checked when saved
    last = f"undefined_{edits - 1}"

    def answered(p):
        return p.uri == edited.as_uri() and any(last in d.message or "checked when saved" in d.message
                                                for d in p.diagnostics)
    while not any(answered(p) for ts, p in diags if ts >= sent):
        await asyncio.sleep(0.05)
    final = next(ts for ts, p in diags if ts >= sent and answered(p))
    published = sum(1 for ts, p in diags if ts >= start and p.uri == edited.as_uri())
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"edits": edits, "bytes": len(edited.read_text()) , "hover_s": round(hover, 3),
            "last_diagnostics_s": round(final - sent, 3), "diagnostics_published": published}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--big", action="store_true")
    a = ap.parse_args()
    print(asyncio.run(run(a.edits, a.big)))


if __name__ == "__main__":
    main()
