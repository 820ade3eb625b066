"""``cardspec serve --stdio``: the table protocol as line-delimited JSON on standard input and output, one client,
bots moving at once (``serve_stdio``).
"""
from __future__ import annotations

import sys

from .limits import Limits
from .messages import ProtocolError, encode, internal_error
from .registry import Registry
from .session import Session


def serve_stdio(inp=None, out=None, limits: Limits | None = None, store=None) -> int:
    """Line-delimited JSON on ``inp``/``out`` (binary stdin, text stdout by default) until end of input.

    One message per line in, one per line out. Bots move at once. A line longer than
    ``max_message_bytes`` is skipped with a ``message/too_large`` error. ``store``: as for the HTTP
    server (tables restored first, every action written before it is answered). Returns 0.
    """
    inp = inp if inp is not None else sys.stdin.buffer
    out = out if out is not None else sys.stdout
    registry = Registry(limits, store=store)
    done = registry.restore()
    if store is not None:
        print(f"cardspec: store {store.url}: {len(done['restored'])} open tables restored", file=sys.stderr,
              flush=True)
    session = Session(registry, inline_bots=True, budget=registry.limits.max_call_seconds)
    cap = registry.limits.max_message_bytes

    def write(m):
        out.write(encode(m, ascii_only=True) + "\n")

    while True:
        line = inp.readline(cap + 2)
        if not line:
            break
        size = len(line) - line.endswith(b"\n")
        if size > cap:
            while line and not line.endswith(b"\n"):
                line = inp.readline(65536)
                size += len(line)
            write(ProtocolError("message/too_large", f"message of {size} bytes or more; the limit is "
                                f"{cap}").to_message())
            out.flush()
            continue
        line = line.rstrip(b"\r\n")
        if not line.strip():
            continue
        for m in session.handle(line):
            write(m)
        try:   # nothing a client sends may end the process (every table would be lost)
            registry.reap()
            for m in session.updates():
                write(m)
        except Exception as e:  # noqa: BLE001
            write(internal_error(e, " sending updates").to_message())
        out.flush()
    return 0
