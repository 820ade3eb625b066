"""Serving tables to clients (docs/protocol.md, docs/browser.md).

The table protocol, transport-independent (``protocol`` re-exports every name of these): ``messages``
(error codes, schemas, reading and writing a message), ``limits`` (a server's bounds, a CPU budget per
call), ``games`` (the ruleset catalogue, the shared games), ``legal`` (legal-action listings), ``table``
(one match: seats, tokens, bots, views), ``registry`` (every table of a server), ``session`` (one
client's conversation) and ``stdio`` (the protocol over standard input and output).

The HTTP server (``server`` re-exports every name of these and runs it: ``serve_http``): ``app`` (the
Starlette app: routes, the WebSocket endpoint, the browser table in ``web/``), ``runner`` (the engine's
work in threads, within budgets), ``bots`` (the bots of every table), ``follower`` (changes from other
processes sharing a store), ``connections`` (uvicorn's configuration, caps on connections, the Origin
check), ``workers`` (processes for the heavy engine calls) and ``replicas`` (what runs inside one).

``store``: tables kept in SQLite or PostgreSQL, event-sourced. Starlette and uvicorn are imported by the
HTTP server's modules only (``app``, ``connections``, ``server``).
"""
