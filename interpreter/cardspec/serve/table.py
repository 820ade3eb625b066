"""``Table``: one match at a server: its State, a secret token per person seat, a bot per bot seat. An action is
checked, stored before it is acknowledged (and caught up from a store shared with other server processes), and
bots move seeded from (seed, seat, decision number), here or in a worker process (``Table.remote``). What a seat
reads: views with at most ``max_legal`` legal actions, pages of the rest, and public facts (``info``) that keep the
seed secret until the match is over (``seed_commitment``).
"""
from __future__ import annotations

import json
import random
import secrets

from ..errors import CardspecError, GameOver, IllegalAction
from ..players import RandomBot, make_bot
from .games import _load_game
from .legal import legal_head_of, legal_page_of, listing_or_none, random_action_of
from .messages import ProtocolError
from .store import token_hash


def seed_commitment(seed, salt: str) -> str:
    """The public commitment to a table's seed: hex SHA-256 of the UTF-8 text ``SALT:SEED`` where SEED is
    the seed as JSON (``7``, ``"abc"``). The random salt keeps a small seed from being found by trying."""
    import hashlib
    return hashlib.sha256(f"{salt}:{json.dumps(seed)}".encode("utf-8")).hexdigest()


class Table:
    """One match: a State, a token per person seat, a Bot per bot seat.

    ``version`` grows by one at every change (an action, a bot move); subscribers compare it.
    """

    def __init__(self, table_id, ruleset, players, options, seed, seed_given, bots: dict, bot_delay: float,
                 now: float, max_legal: int = 500, token_hashes: dict | None = None, seed_salt: str | None = None):
        self.id = table_id
        self.client = self.address = None   # who created it (Registry.create)
        self.ruleset, self.players, self.options = ruleset, players, options
        self.seed, self.seed_given = seed, seed_given
        self.seed_salt = seed_salt or secrets.token_hex(16)
        self.seed_sha256 = seed_commitment(seed, self.seed_salt)
        self.store = None           # a Store (cardspec.serve.store): every action is written before it is acknowledged
        self.applied = []           # (seat, canonical text) of every action, in order
        self.game = _load_game(ruleset, players, options)
        self.private = "_SR_RULES" in self.game.ns
        if self.private:   # rules typed at run time are compiled into their Game (cardspec._secret):
            self.game = _load_game(ruleset, players, options, private=True)   # a Game of its own, freed with the table
        #: None, or what runs this table's heavy calls elsewhere (``cardspec.serve.workers.RemoteEngine``: the HTTP
        #: server's worker processes): legal-action listings, bot moves, and the first try of an action
        #: at a table with rules typed during play. ``remote.call(table, op, **args)`` raises ProtocolError.
        self.remote = None
        self.state = self.game.new_state(seed=seed)
        self.bot_specs = bots
        self.bots = {s: (RandomBot(seed=f"{seed}-bot-{s}") if spec == "random" else
                         make_bot(spec, seed=f"{seed}-bot-{s}", game=self.game)) for s, spec in bots.items()}
        if token_hashes is None:   # a new table: fresh tokens, told once to the creator
            self.tokens = {s: secrets.token_urlsafe(18) for s in range(players) if s not in bots}
            token_hashes = {s: token_hash(t) for s, t in self.tokens.items()}
        else:                      # a table restored from a store: only the tokens' hashes exist
            self.tokens = {}
        self.token_hashes = dict(token_hashes)
        self._seat_of = {h: s for s, h in self.token_hashes.items()}
        self.bot_delay = bot_delay
        self.created = self.touched = now
        self.version = 0
        self.actions = 0
        self.closed = None          # reason, once closed
        self.listeners = set()      # callables(table), told after each change
        self.max_legal = max_legal  # legal actions a view lists at most (the rest: get_legal)
        self._info = self._make_info()

    # -- seats
    def seat_for(self, token) -> int | None:
        """The seat of ``token`` (None for no token: a spectator). Raises ``auth/bad_token``."""
        if token is None:
            return None
        seat = self._seat_of.get(token_hash(token)) if isinstance(token, str) else None
        if seat is None:
            raise ProtocolError("auth/bad_token", f"that token is not a seat's token at table {self.id}")
        return seat

    def bot_to_act(self) -> int | None:
        s = self.state.to_act
        return s if s is not None and s in self.bots else None

    # -- changes
    def _changed(self, count: int = 1):
        self.version += count
        self.actions += count
        self._info = self._make_info()
        for cb in list(self.listeners):
            cb(self)

    def act(self, seat: int, action: str, now: float, decision: int | None = None) -> str | None:
        """Apply ``action`` for ``seat``. Returns the canonical text. Raises ``ProtocolError``.

        On a store shared by several server processes, another process may have stored the next action
        first (``StoreConflict``: the key ``(table, number)`` decides who was first). The action is then
        undone, the actions this table missed are read and applied (``catch_up``), and ``action`` is tried
        again on the new state, where it may be refused like any action (``action/not_your_turn``, …).
        ``decision``: the number of actions the move was chosen after (a bot's move): when the table has
        moved past it meanwhile, the move is dropped and None returned instead of trying it again.
        """
        from .store import StoreConflict
        for _ in range(8):
            if decision is not None and decision != len(self.applied):
                return None
            try:
                return self._act(seat, action, now)
            except StoreConflict:
                self.catch_up(now)
        raise ProtocolError("store/error", f"table {self.id}: the action lost to another server's eight times "
                            "in a row; try again")

    def _act(self, seat: int, action: str, now: float) -> str:
        self.touched = now
        st = self.state
        if st.terminal:
            raise ProtocolError("action/game_over", "the match is over", scores=st.scores())
        if st.to_act != seat:
            raise ProtocolError("action/not_your_turn", f"seat {seat}: not your turn (seat {st.to_act} is to act)",
                                to_act=st.to_act)
        if self.private and self.remote is not None:
            # A rule typed now is compiled, and a card judged, by a worker first: this process applies only an
            # action the worker accepted (``cardspec.serve.workers``), so a costly rule never runs here.
            tried = self.remote.call(self, "try_act", seat=seat, action=action, limit=self.max_legal)
            if tried[0] == "over":
                raise ProtocolError("action/game_over", "the match is over", scores=tried[1])
            if tried[0] == "illegal":
                self._illegal(tried[1], tried[2], tried[3])
            action = tried[1]
        try:
            st.apply(action, seat)   # a look-up when the legal actions are listed, else parsed (no listing)
        except GameOver:
            raise ProtocolError("action/game_over", "the match is over", scores=st.scores()) from None
        except IllegalAction as e:
            count, head = self.legal_head(seat)
            self._illegal(str(e), count, head)
        text = st.history[-1]
        if self.store is not None:
            self._persist(seat, text)
        self.applied.append((seat, text))
        self._changed()
        return text

    def _illegal(self, msg: str, count: int | None, head: list):
        """Raise the ``action/illegal`` error: the message, at most ``max_legal`` legal actions, and their
        number (``legal_count``) when there are more (None: too many to count)."""
        extra = {"legal_count": count} if count is not None and count > self.max_legal else {}
        if len(msg) > 2000:
            msg = msg[:2000] + f"… ({count if count is not None else 'too many'} legal actions; get_legal lists them)"
        raise ProtocolError("action/illegal", msg, legal=head[:self.max_legal], **extra) from None

    def legal_head(self, seat) -> tuple[int | None, list]:
        """``(number of legal actions, the first max_legal)`` of ``seat`` ((0, []) unless it is to act); in a
        worker process when the table has one (``remote``). The number is None when they are too many to
        list (``legal_head_of``)."""
        if seat is None or self.state.to_act != seat:
            return 0, []
        if self.remote is not None:
            count, head = self.remote.call(self, "legal_head", seat=seat, limit=self.max_legal)
            return count, head
        return legal_head_of(self.state, seat, self.max_legal, listing_or_none(self.state))

    def _persist(self, seat: int, text: str):
        """Write the action just applied to the store before it is acknowledged; if the write fails, the
        state goes back to the stored actions (nothing is acknowledged that is not stored). Raises
        ``StoreConflict`` (state rolled back) when another process stored this action number first."""
        from .store import StoreConflict, StoreError
        try:
            self.store.append(self.id, len(self.applied), seat, text)
        except StoreError as e:
            self.state = self.game.new_state(seed=self.seed)
            self.replay(self.applied)
            if isinstance(e, StoreConflict):
                raise
            raise ProtocolError("store/error", e.public("the action was not stored, so it was not played")) from None

    def replay(self, actions):
        """Apply stored ``(seat, text)`` actions to a fresh table (restart). Raises ``ProtocolError``
        ``store/diverged`` when one is not legal any more (the rules or the engine changed)."""
        self._apply_stored(actions, 0, "replayed")
        self.applied = list(actions)
        self.version = self.actions = len(self.applied)
        self._info = self._make_info()

    def _apply_stored(self, actions, start: int, verb: str, applied: list | None = None) -> None:
        """Apply stored ``(seat, text)`` actions numbered from ``start``; each one applied is appended to
        ``applied`` when given. Raises ``ProtocolError`` ``store/diverged`` at the first that is not legal."""
        st = self.state
        for i, (seat, text) in enumerate(actions):
            try:
                st.apply(text, seat)
            except (IllegalAction, GameOver, CardspecError) as e:
                raise ProtocolError("store/diverged", f"table {self.id}: stored action {start + i} ({seat}: {text}) "
                                    f"cannot be {verb}: {e}") from None
            if applied is not None:
                applied.append((seat, text))

    def catch_up(self, now: float | None = None) -> int:
        """Apply the actions another server process stored for this table since this one's last (a shared
        store: docs/protocol.md "Several servers"). Returns how many; listeners are told once. Raises
        ``ProtocolError`` ``store/diverged`` when one cannot be applied, ``store/error`` when the rows
        cannot be read or are damaged."""
        from .store import StoreError
        if self.store is None:
            return 0
        start = len(self.applied)
        try:
            new = self.store.since(self.id, start)
        except StoreError as e:
            raise ProtocolError("store/error", e.public(f"table {self.id}: its stored actions could not be read")) \
                from None
        self._apply_stored(new, start, "applied", self.applied)
        if new:
            if now is not None:
                self.touched = now
            self._changed(len(new))
        return len(new)

    def play_bot(self, now: float) -> str | None:
        """One move of the bot to act (None when a person or nobody is to act, or when another server
        process sharing the store made this move first)."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        if self.remote is not None:
            action = self.remote_bot_move(seat)[1]
        else:
            action = self.bot_choice(seat, self.bot_for(seat))
        return self.act(seat, action, now, decision=len(self.applied))

    def bot_choice(self, seat: int, bot) -> str:
        """The action ``bot`` (``bot_for(seat)``) chooses for ``seat`` (reads the state, changes nothing)."""
        if type(bot) is RandomBot:   # it ignores the view: pick with its own RNG, as simulations do
            return random_action_of(self.state, bot.rng)
        view = self.state.view(seat, log=bot.wants_log)
        return bot.act(view, view["legal_actions"])

    def timeout_move(self, seat: int) -> str:
        """The move of a bot whose search ran out of time: a random legal action from (seed, seat, decision
        number) alone, so a replayed table goes on the same way."""
        return random_action_of(self.state, random.Random(f"{self.seed}-timeout-{seat}-{len(self.applied)}"))

    def remote_bot_move(self, seat: int) -> tuple[str, str]:
        """The move of the bot to act at ``seat``, made in a worker process (``remote``): ``("move", text)``,
        or ``("timeout", text)`` when its search ran past the CPU budget (``timeout_move``'s move, chosen
        there too). Seeded as ``bot_for``, so the move is the one this process would have made. Raises
        ``ProtocolError`` (``table/over_budget``: even the timeout move could not be listed)."""
        decision = len(self.applied)
        spec = "random" if type(self.bots[seat]) is RandomBot else self.bot_specs[seat]
        return tuple(self.remote.call(self, "bot", seat=seat, spec=spec, seed=f"{self.seed}-bot-{seat}-{decision}",
                                      timeout_seed=f"{self.seed}-timeout-{seat}-{decision}"))

    def bot_for(self, seat: int):
        """The bot that makes ``seat``'s next decision, seeded from (seed, seat, decision number) alone, so
        a table replayed from a store after a restart goes on exactly as it would have."""
        decision = f"{self.seed}-bot-{seat}-{len(self.applied)}"
        if type(self.bots[seat]) is RandomBot:
            return RandomBot(seed=decision)
        return make_bot(self.bot_specs[seat], seed=decision, game=self.game)

    def play_bots(self, now: float, limit: int = 1_000_000) -> int:
        """Bots move until a person must act or the match ends. Returns the number of moves."""
        n = 0
        while n < limit and self.bot_to_act() is not None:
            self.play_bot(now)
            n += 1
        return n

    # -- reading
    def info(self) -> dict:
        """Public facts about the table (``_make_info``), as of the last change: reading it never touches
        the state, so a server may answer it while a worker is changing the state."""
        return dict(self._info)

    def _make_info(self) -> dict:
        """Public facts about the table: no token, and no seed until the match is over (the seed rebuilds
        every hand, even one the creator chose): ``seed_sha256`` commits to it, and at the end ``seed``
        and ``seed_salt`` let anyone check that commitment (``seed_commitment``)."""
        st = self.state
        out = {"table": self.id, "ruleset": self.ruleset, "players": self.players, "options": self.options,
               "bots": sorted(self.bots), "to_act": st.to_act, "terminal": st.terminal,
               "version": self.version, "scores": st.scores(), "bot_delay": self.bot_delay,
               "seed_sha256": self.seed_sha256}
        if st.terminal:
            out["seed"] = self.seed
            out["seed_salt"] = self.seed_salt
        return out

    def view(self, seat) -> dict:
        """``State.view(seat)`` with at most ``max_legal`` legal actions: a longer list (a play of several
        ordered cards from a long hand: 255 k-879 k actions) is cut, and ``legal_count`` gives its
        length and ``legal_more`` is true; ``get_legal`` pages through it (``legal_page``)."""
        st = self.state
        v = st.view(seat, legal=False)
        if seat is not None and st.to_act == seat:
            count, head = self.legal_head(seat)
            v["legal_actions"] = head
            if count is None:         # too many to list: the first found through the small choices
                v["legal_more"] = True
            elif count > self.max_legal:
                v["legal_count"] = count
                v["legal_more"] = True
        return v

    def legal_page(self, seat, offset: int = 0, limit: int | None = None, prefix: str = "") -> dict:
        """The legal actions of ``seat`` (empty unless it is to act) that start with ``prefix``
        (case-insensitive), ``limit`` (at most ``max_legal``) from ``offset``: ``{count, offset, actions}``."""
        limit = self.max_legal if limit is None else max(0, min(limit, self.max_legal))
        if self.remote is not None:
            if seat is None or self.state.to_act != seat:
                return {"count": 0, "offset": offset, "actions": []}
            return self.remote.call(self, "legal_page", seat=seat, offset=offset, limit=limit, prefix=prefix)
        st = self.state
        if seat is None or st.to_act != seat:
            return {"count": 0, "offset": offset, "actions": []}
        return legal_page_of(st, seat, offset, limit, prefix, listing_or_none(st))

    def update(self, seat, since: int) -> tuple[dict, list, int]:
        """(view, events after ``since``, new cursor) for ``seat`` (None: spectator)."""
        log = self.state.log(seat)
        return self.view(seat), log[since:], len(log)
