"""Serving tables to clients (docs/protocol.md, docs/browser.md): ``protocol`` (the JSON messages:
tables, seats, actions, bots), ``server`` (WebSocket and HTTP with Starlette and uvicorn, and the
browser table in ``web/``), ``workers`` (processes for the heavy engine calls) and ``store`` (tables
kept in SQLite or PostgreSQL, event-sourced). Starlette and uvicorn are imported by ``server`` only.
"""
