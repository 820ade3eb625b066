"""The table protocol: JSON messages that let any front end create tables, sit at a seat and play.

Transport-independent: ``Session.handle(line)`` takes one message (text or bytes, one JSON
object) and returns the replies; ``Session.updates()`` returns the pushed ``update``
messages of the tables it joined that changed since. ``serve_stdio`` runs it over
line-delimited JSON; ``cardspec.serve.server`` runs it over WebSocket. docs/protocol.md describes
every message and schema/protocol/*.schema.json gives each one's JSON Schema (Draft 2020-12);
incoming messages are checked against those schemas.

Every failure is an ``error`` message ``{"type": "error", "code": ..., "message": ...}``
with a stable ``code`` (the ``CODES`` table) — never an exception or a traceback on the wire.

Secrets: creating a table returns one random token per person seat; a seat acts and sees
its own hand only with its token. Without a token a client is a spectator and gets
``State.view(None)`` / ``State.log(None)``: public facts only. The seed is kept secret until
the match is over (it would reveal every hand), even when the creator chose it: table infos
carry ``seed_sha256``, a salted commitment, and the seed and salt once the match is over.

Only the public engine API is used: ``cardspec.load``, ``Game.new_state``, ``State.to_act``,
``terminal``, ``legal_actions``, ``apply``, ``view``, ``log``, ``scores``; bots get a view
and the legal actions (``cardspec.players``).

This module is the protocol's face: each part lives in a module of its own, and every name is re-exported here
(``from cardspec.serve.protocol import Session`` works as it always did):

- ``messages`` — error codes (``CODES``, ``ProtocolError``), schemas, ``parse_message``, ``check_message``,
  ``encode``, ``internal_error``;
- ``limits`` — ``Limits``, ``check_bot_spec``, ``cpu_budget`` (a CPU budget in the main thread);
- ``games`` — ``ruleset_catalogue``, the shared Game cache (``_load_game``), ``ruleset_digest``;
- ``legal`` — legal-action listings, heads and pages (the server's and its workers');
- ``table`` — ``Table``: one match, its seats, tokens, bots and views; ``seed_commitment``;
- ``registry`` — ``Registry``: every table of one server, created, restored, closed;
- ``session`` — ``Session``: one client's messages and the updates of the tables it joined;
- ``stdio`` — ``serve_stdio``.
"""
from __future__ import annotations

from .games import MAX_OPTION_INT, _check_option, _game, _load_game, ruleset_catalogue, ruleset_digest
from .legal import legal_head_of, legal_page_of, listing_or_none, random_action_of
from .limits import CpuBudgetExceeded, Limits, check_bot_spec, cpu_budget
from .messages import (CODES, MAX_DEPTH, PROTOCOL_VERSION, ProtocolError, _validator, check_message, encode,
                       internal_error, parse_message, schema_dir, schemas)
from .registry import Registry
from .session import Session
from .stdio import serve_stdio
from .table import Table, seed_commitment

__all__ = ["CODES", "MAX_DEPTH", "MAX_OPTION_INT", "PROTOCOL_VERSION", "CpuBudgetExceeded", "Limits", "ProtocolError",
           "Registry", "Session", "Table", "check_bot_spec", "check_message", "cpu_budget", "encode", "internal_error",
           "legal_head_of", "legal_page_of", "listing_or_none", "parse_message", "random_action_of",
           "ruleset_catalogue", "ruleset_digest", "schema_dir", "schemas", "seed_commitment", "serve_stdio",
           # private, and imported from here by the server, the tests and the workers' replicas
           "_check_option", "_game", "_load_game", "_validator"]
