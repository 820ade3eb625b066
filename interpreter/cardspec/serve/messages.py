"""The messages of the table protocol (docs/protocol.md): their error codes (``CODES``, ``ProtocolError``),
the JSON Schemas they are checked against (schema/protocol/*.schema.json), reading one (``parse_message``:
strict JSON within the size and depth bounds, then ``check_message``: its schema) and writing one
(``encode``), and ``internal_error`` for what no code foresaw.
"""
from __future__ import annotations

import functools
import json
import math
import re
import sys


PROTOCOL_VERSION = 1

#: Every error code a client may receive, with what it means.
CODES = {
    "json/malformed": "the message is not valid UTF-8 JSON",
    "message/too_large": "the message is longer than the server's max_message_bytes",
    "message/invalid": "the message is not an object or does not match its schema",
    "message/unknown_type": "the message's type is not one the protocol knows",
    "table/not_found": "no table with that id (never created, or closed when idle)",
    "table/unavailable": "a stored table that was not restored at start (damaged rows, a changed ruleset)",
    "store/error": "the table store could not write; the action (or table) was not acknowledged",
    "store/diverged": "a stored action cannot be replayed (the rules changed)",
    "table/limit": "the server holds max_tables tables already",
    "table/invalid": "the create message asks for something impossible (players, bots, bot_delay)",
    "ruleset/unknown": "not a built-in ruleset name",
    "ruleset/invalid": "the ruleset rejected the options",
    "auth/bad_token": "the token is not the token of any seat at that table",
    "action/not_your_turn": "another seat (to_act) must act now",
    "action/illegal": "not a legal action now; legal lists the legal ones",
    "action/game_over": "the match is over",
    "table/over_budget": "the request took more than max_call_seconds of CPU, or more than max_call_memory of "
                         "memory (a typed rule, a bot or a listing too costly for this server); after an action, "
                         "or a bot move that could not be made, the table is closed (reason over_budget)",
    "session/limit": "this connection joined too many tables",
    "server/internal": "a bug in the server; the message says what (no traceback)",
    "http/bad_host": "HTTP: the request's Host is not a name this server answers to (DNS rebinding; --allow-host)",
    "http/content_type": "HTTP: a request that changes state must send Content-Type: application/json",
    "http/cross_origin": "HTTP: a page of another origin may not change state here (--allow-origin)",
}


class ProtocolError(Exception):
    """An error to send to the client: ``code`` (from ``CODES``), ``message`` and extra fields."""

    def __init__(self, code: str, message: str, **extra):
        assert code in CODES, code
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra

    def to_message(self, msg_id=None) -> dict:
        out = {"type": "error", "code": self.code, "message": self.message}
        out.update(self.extra)
        if msg_id is not None:
            out["id"] = msg_id
        return out


# ---- schemas -------------------------------------------------------------------------
def schema_dir():
    """Folder of the protocol's JSON Schemas (``schema/protocol`` in the source tree or the wheel)."""
    from ..rules import schema_path
    return schema_path().parent / "protocol"


@functools.lru_cache(maxsize=None)
def schemas() -> dict:
    """``{"client.create": schema, "server.update": schema, …}`` from schema/protocol/*.schema.json."""
    out = {}
    for p in sorted(schema_dir().glob("*.schema.json")):
        out[p.name[: -len(".schema.json")]] = json.loads(p.read_text(encoding="utf-8"))
    return out


@functools.lru_cache(maxsize=1)
def _strict_validator_class():
    """Draft 2020-12 with strict JSON types: ``integer`` is a Python ``int`` only (``4.0`` is not an
    integer here, although the draft allows it) and ``number`` is never a ``bool``."""
    from jsonschema import Draft202012Validator, validators
    checker = Draft202012Validator.TYPE_CHECKER.redefine_many({
        "integer": lambda _c, x: type(x) is int,
        "number": lambda _c, x: type(x) in (int, float)})
    return validators.extend(Draft202012Validator, type_checker=checker)


@functools.lru_cache(maxsize=None)
def _validator(name: str):
    return _strict_validator_class()(schemas()[name])


# ---- reading a message ------------------------------------------------------------------
#: Deepest nesting of arrays and objects a message may have (a create message needs 3).
MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name):
    raise ProtocolError("json/malformed", f"not JSON: {name} is not a JSON number")


def _finite_float(text):
    x = float(text)
    if not math.isfinite(x):
        raise ProtocolError("json/malformed", f"not JSON: the number {text[:40]} is out of range")
    return x


def parse_message(data, max_bytes: int) -> dict:
    """One client message (``str`` or ``bytes``) as a dict: strict JSON, checked before any handler sees it.

    Refused, each with a ``ProtocolError``: over ``max_bytes`` bytes (``message/too_large``); not
    UTF-8, not JSON, ``NaN``/``Infinity``/a number out of float range, nesting deeper than
    ``MAX_DEPTH``, a lone surrogate (``"\\ud800"``) in any string or key (``json/malformed``: such
    a string cannot be written back as UTF-8); not an object (``message/invalid``).
    """
    if isinstance(data, str):
        size = len(data.encode("utf-8", "surrogatepass"))
    else:
        size = len(data)
    if size > max_bytes:
        raise ProtocolError("message/too_large", f"message of {size} bytes; the limit is {max_bytes}")
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError("json/malformed", f"not UTF-8: {e}") from None
    if _SURROGATE.search(data):   # a raw one (a str given by a Python caller)
        raise ProtocolError("json/malformed", "not UTF-8: a lone surrogate in the text")
    try:
        msg = json.loads(data, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        raise ProtocolError("json/malformed", f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:   # JSONDecodeError, or an integer of more than 4300 digits
        raise ProtocolError("json/malformed", f"not JSON: {e}") from None
    stack = [(msg, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, str):
            if _SURROGATE.search(x):
                raise ProtocolError("json/malformed", "a string holds a lone surrogate (\\ud800-\\udfff), "
                                    "which is not Unicode text")
        elif isinstance(x, (dict, list)):
            if depth > MAX_DEPTH:
                raise ProtocolError("json/malformed", f"nested more than {MAX_DEPTH} levels deep")
            if isinstance(x, dict):
                stack.extend((k, depth) for k in x)
                stack.extend((v, depth + 1) for v in x.values())
            else:
                stack.extend((v, depth + 1) for v in x)
    if not isinstance(msg, dict):
        raise ProtocolError("message/invalid", f"a message is a JSON object, not {type(msg).__name__}")
    return msg


# The messages sent at every move, checked by hand first (same rules as their schemas); the full
# schema check runs only when this says no, to name the problem.
_FAST = {"act": ({"table": str, "token": str, "action": str}, {"id"}),
         "get_view": ({"table": str}, {"id", "token", "since"})}


def _fast_ok(msg, spec) -> bool:
    required, optional = spec
    for k, v in msg.items():
        if k == "type":
            continue
        if k in required:
            if type(v) is not required[k] or len(v) > 1000:
                return False
        elif k not in optional:
            return False
    if not all(k in msg for k in required):
        return False
    since = msg.get("since", 0)
    ident = msg.get("id", 0)
    return type(since) is int and since >= 0 and type(ident) in (int, str) and \
        type(msg.get("token", "")) is str and len(msg.get("token", "")) <= 128 and len(msg["table"]) <= 64


def check_message(msg: dict, direction: str = "client") -> None:
    """Check one message against its schema (``direction`` ``client`` or ``server``).

    Raises ``ProtocolError`` ``message/unknown_type`` or ``message/invalid`` naming the field.
    """
    kind = msg.get("type")
    if direction == "client" and type(kind) is str and kind in _FAST and _fast_ok(msg, _FAST[kind]):
        return
    name = f"{direction}.{kind}"
    if not isinstance(kind, str) or name not in schemas():
        known = sorted(k.split(".", 1)[1] for k in schemas() if k.startswith(direction + "."))
        raise ProtocolError("message/unknown_type", f"unknown message type {kind!r}; types: {', '.join(known)}")
    errors = sorted(_validator(name).iter_errors(msg), key=lambda e: (len(e.path), str(e.path)))
    if errors:
        e = errors[0]
        where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in e.path) or "(message)"
        raise ProtocolError("message/invalid", f"{kind}: {where}: {e.message}")


# ---- writing a message ------------------------------------------------------------------
def internal_error(e: BaseException, where: str = "") -> ProtocolError:
    """A ``server/internal`` error for an unexpected exception: one line on stderr with the exception's
    text under a reference, no traceback; the client gets the exception's type and the reference only —
    its text may quote what the client must not see (a database driver's user, host or path: issue 36)."""
    import secrets
    ref = secrets.token_hex(4)
    print(f"cardspec serve: internal error{where} [ref {ref}]: {type(e).__name__}: {str(e)[:300]}",
          file=sys.stderr, flush=True)
    return ProtocolError("server/internal", f"{type(e).__name__} inside the server (reference {ref}; the server's "
                         "log has the details): a bug in cardspec — please report it with the message that caused it")


def encode(msg: dict, ascii_only: bool = False) -> str:
    """One message as compact JSON text (no newline). A message that cannot be written as JSON (a bug:
    a NaN, an integer of more than 4300 digits, a lone surrogate) becomes a ``server/internal`` error."""
    try:
        text = json.dumps(msg, separators=(",", ":"), ensure_ascii=ascii_only, allow_nan=False)
        if not ascii_only:
            text.encode("utf-8")
        return text
    except (ValueError, TypeError, UnicodeEncodeError) as e:
        err = internal_error(e, f" writing a {msg.get('type')!r} message").to_message(msg.get("id"))
        return json.dumps(err, separators=(",", ":"), ensure_ascii=True)
