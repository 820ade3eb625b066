// cardspec browser table: generic, driven only by the seat's view and the legal actions' text forms.
// Protocol: docs/protocol.md (create over POST /api/tables, then join/act over the WebSocket /ws).
"use strict";

const $ = (sel, el = document) => el.querySelector(sel);
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_ORDER = ["S", "H", "C", "D"];     // alternating colours

const S = {
  rulesets: [], table: null, token: null, seat: null, bots: [], view: null, version: -1,
  events: [], ws: null, selected: [], title: "", target: null, extra: new Set(), asked: new Set(),
  lastDeal: null, reason: "", focusKey: null, rs: {}, numbers: {},
};

// ---------- cards ----------
// A deck's special cards (view.card_names, code -> name; docs/cards.md) are shown by their names.
function specialName(code) { const n = S.view && S.view.card_names; return n && Object.prototype.hasOwnProperty.call(n, code) ? n[code] : null; }
function suitOf(code) { return code === "JK" || specialName(code) ? "*" : code.slice(-1); }
function rankOf(code) { return code === "JK" ? "JK" : specialName(code) || code.slice(0, -1); }
function cardEl(code, extra) {
  const el = document.createElement("div");
  const suit = suitOf(code);
  const special = specialName(code);
  el.className = "card" + (suit === "H" || suit === "D" ? " red" : "") + (special ? " special" : "") + (extra ? " " + extra : "");
  el.dataset.code = code;
  el.title = special ? special + " (" + code + ")" : code;
  const r = document.createElement("span"); r.className = "rank";
  r.textContent = rankOf(code) === "T" ? "10" : rankOf(code);
  const s = document.createElement("span"); s.className = "suit"; s.textContent = SUITS[suit] || "\u2605";
  el.append(r, s);
  return el;
}
function backEl(count) {
  const el = document.createElement("div");
  el.className = "card back";
  el.textContent = count + "";
  el.title = count + " face down";
  return el;
}
function seatName(s) {
  if (s === null || s === undefined) return "spectator";
  if (s === S.seat) return "You";
  return "Seat " + s + (S.bots.includes(s) ? " (bot)" : "");
}
function fmt(v) {
  if (Array.isArray(v)) return v.map(fmt).join(" ");
  if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => k + ": " + fmt(x)).join(", ");
  return String(v);
}

// ---------- lobby ----------
async function loadRulesets() {
  const r = await fetch("/api/rulesets");
  const data = await r.json();
  S.rulesets = data.rulesets;
  const sel = $("#ruleset");
  sel.innerHTML = "";
  for (const rs of S.rulesets) {
    const o = document.createElement("option");
    o.value = rs.name; o.textContent = rs.title + (rs.title.toLowerCase() === rs.name ? "" : "  (" + rs.name + ")");
    sel.append(o);
  }
  onRuleset();
}
function currentRuleset() { return S.rulesets.find(r => r.name === $("#ruleset").value); }
function onRuleset() {
  const rs = currentRuleset();
  if (!rs) return;
  const ps = $("#players");
  ps.innerHTML = "";
  for (let n = rs.players.min; n <= rs.players.max; n++) {
    const o = document.createElement("option"); o.value = n; o.textContent = n; ps.append(o);
  }
  if (rs.players.default !== undefined) ps.value = rs.players.default;
  onPlayers();
  const bk = $("#bot-kind");                  // the opponents this game offers (the first is its default)
  bk.innerHTML = "";
  for (const b of rs.bots || [{ spec: "random", label: "random" }]) {
    const o = document.createElement("option"); o.value = b.spec; o.textContent = b.label; bk.append(o);
  }
  const box = $("#options");
  box.innerHTML = "<legend>Options</legend>";
  for (const [name, spec] of Object.entries(rs.options)) {
    const label = document.createElement("label");
    label.title = spec.help || "";
    label.append(name.replace(/_/g, " ") + " ");
    let input;
    if (spec.type === "bool") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = !!spec.default;
    } else if (spec.type === "choice" && spec.values) {
      input = document.createElement("select");
      for (const v of spec.values) {
        const o = document.createElement("option"); o.value = v; o.textContent = v; input.append(o);
      }
      input.value = spec.default;
    } else {
      input = document.createElement("input");
      input.type = spec.type === "int" ? "number" : "text";
      if (spec.min !== undefined) input.min = spec.min;
      if (spec.max !== undefined) input.max = spec.max;
      input.value = spec.default === null || spec.default === undefined ? "" : spec.default;
      input.size = 6;
    }
    input.dataset.option = name;
    input.dataset.kind = spec.type || "";
    label.append(input);
    box.append(label);
  }
  box.hidden = !Object.keys(rs.options).length;
}
function onPlayers() {
  const n = +$("#players").value;
  const ms = $("#my-seat");
  ms.innerHTML = "";
  for (let s = 0; s < n; s++) {
    const o = document.createElement("option"); o.value = s; o.textContent = "seat " + s; ms.append(o);
  }
  seatBots();
}
// One opponent per other seat (issue 35: "a bot choice per seat"): each seat follows "Opponents" unless chosen.
function seatBots() {
  const rs = currentRuleset(), box = $("#seat-bot-list");
  if (!rs || !box) return;
  const n = +$("#players").value, me = +$("#my-seat").value;
  box.innerHTML = "";
  for (let s = 0; s < n; s++) {
    if (s === me) continue;
    const label = document.createElement("label");
    label.append("seat " + s + " ");
    const sel = document.createElement("select");
    sel.dataset.seat = s;
    const same = document.createElement("option"); same.value = ""; same.textContent = "as above"; sel.append(same);
    for (const b of rs.bots || [{ spec: "random", label: "random" }]) {
      const o = document.createElement("option"); o.value = b.spec; o.textContent = b.label; sel.append(o);
    }
    label.append(sel);
    box.append(label);
  }
}
function chosenOptions() {
  const rs = currentRuleset();
  const out = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option, spec = rs.options[name];
    let v;
    if (input.dataset.kind === "bool") v = input.checked;
    else if (input.dataset.kind === "int") v = input.value === "" ? spec.default : parseInt(input.value, 10);
    else v = input.value;
    if (v !== spec.default) out[name] = v;
  }
  return out;
}
async function createTable(ev) {
  ev.preventDefault();
  const players = +$("#players").value, seat = +$("#my-seat").value;
  const bots = {}, kind = $("#bot-kind").value || "random";     // every other seat: the chosen opponent …
  const own = new Map([...document.querySelectorAll("#seat-bot-list select")].map(x => [+x.dataset.seat, x.value]));
  for (let s = 0; s < players; s++) if (s !== seat) bots[s] = own.get(s) || kind;   // … unless chosen seat by seat
  const body = { ruleset: $("#ruleset").value, players, options: chosenOptions(), bots,
    bot_delay: parseFloat($("#bot-delay").value) };
  const seed = $("#seed").value.trim();
  if (seed) body.seed = /^\d+$/.test(seed) ? parseInt(seed, 10) : seed;    // a fixed deal, to replay or share
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const m = await r.json();
  if (m.type === "error") { status(m.message, true); return; }
  location.hash = "table=" + m.table + "&token=" + m.tokens[String(seat)];
  join(m.table, m.tokens[String(seat)]);
}
async function listTables() {
  const r = await fetch("/api/tables");
  const m = await r.json();
  const ul = $("#tables");
  ul.innerHTML = "";
  if (!m.tables.length) { ul.innerHTML = "<li>none</li>"; return; }
  for (const t of m.tables) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#table=" + t.table; a.textContent = "watch";
    a.onclick = (e) => { e.preventDefault(); location.hash = "table=" + t.table; join(t.table, null); };
    li.append(`${t.ruleset}, ${t.players} players${t.terminal ? " (over)" : ""} `, a);
    ul.append(li);
  }
}

// ---------- connection ----------
function status(text, isError) {
  const el = $("#status");
  el.textContent = text || "";
  el.className = isError ? "error" : "";
}
function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}
function join(table, token) {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  Object.assign(S, { table, token, seat: null, view: null, version: -1, events: [], selected: [], target: null,
    extra: new Set(), asked: new Set(), lastDeal: null, reason: "", focusKey: null, tally: null });
  $("#lobby").hidden = true;
  $("#table").hidden = false;
  $("#log").innerHTML = "";
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => {
    const m = { type: "join", table };
    if (token) m.token = token;
    ws.send(JSON.stringify(m));
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => status("disconnected — reload to reconnect", true);
}
// "seat 1: 'AH' is not legal: REASON; legal: …" → REASON (the rule's own words, without the list)
function shortReason(message) {
  let m = /is not legal:\s*(.*?)(?:;\s*legal:[\s\S]*)?$/.exec(message || "");
  let text = m ? m[1] : (message || "");
  text = text.replace(/^not legal:\s*/, "");
  return text.length > 240 ? text.slice(0, 237) + "\u2026" : text;
}
function onMessage(m) {
  if (m.type === "joined") {
    S.seat = m.seat; S.bots = m.info.bots; S.ruleset = m.info.ruleset;
    const rs = S.rulesets.find(r => r.name === m.info.ruleset);
    S.rs = rs || {};
    S.title = (rs ? rs.title : m.info.ruleset) + " \u2014 " + m.info.players + " players";
    $("#title").textContent = S.title + (m.seat === null ? " (watching)" : "");
    status("");
  } else if (m.type === "update") {
    const moved = m.version !== S.version;
    S.view = m.view; S.version = m.version;
    for (const ev of m.events) { S.events.push(ev); if (ev.type === "deal_score") S.lastDeal = ev; appendLog(ev); }
    if (moved) { S.selected = []; S.target = null; S.extra = new Set(); S.asked = new Set(); S.reason = ""; }
    render();
  } else if (m.type === "legal") {
    if (m.version === S.version) { for (const a of m.actions) S.extra.add(a); render(); }
  } else if (m.type === "error") {
    if (m.code === "action/illegal") { S.reason = shortReason(m.message); status(""); }
    else status(m.message, true);
    if (m.code === "table/not_found" || m.code === "auth/bad_token") backToLobby();
    else render();
  } else if (m.type === "closed") {
    status("the table was closed (" + m.reason + ")", true);
  }
}
function backToLobby() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); S.ws = null; }
  history.replaceState(null, "", location.pathname);
  $("#lobby").hidden = false; $("#table").hidden = true;
  document.body.dataset.turn = "lobby";
  $("#title").textContent = "";
  listTables();
}
function act(action) {
  status("");
  S.reason = "";
  S.since = S.events.length;        // "since your last move" starts with this action and its result
  send({ type: "act", table: S.table, token: S.token, action });
}

// ---------- sides: seats and teams ----------
function teams() { return Array.isArray(S.rs && S.rs.teams) ? S.rs.teams : null; }
function myTeam() { const t = teams(); return t ? t.findIndex(x => x.includes(S.seat)) : -1; }
function teamName(k) {
  const t = teams();
  if (!t || !t[k]) return seatName(k);
  return "Team " + k + " (" + t[k].map(seatName).join(", ") + ")";   // numbered as the engine and its logs number teams
}
// a key of scores / of a melds zone: a team when the ruleset fixes teams and the keys are teams
function sideName(k, nkeys) {
  const t = teams();
  return t && nkeys === t.length ? teamName(+k) : seatName(+k);
}

// ---------- legal actions ----------
// Actions are text: leading words (the verb) then parameters: card codes, whole numbers, words.
// A card action's cards all come from my hand (duplicates counted); a number before them names a
// target (a meld to lay off onto); a word after them is a declaration chosen when confirming.
const PLAIN_CARD_RE = /^(?:[2-9TJQKA][SHDC]|JK)$/;
const CARD_RE = { test: (w) => PLAIN_CARD_RE.test(w) || specialName(w) !== null };
function myHand(view) {
  // playing another seat's cards (a declarer playing the dummy): that pile is the one to click
  const pf = view.playing_for;
  if (pf && view.zones[pf.zone] && Array.isArray(view.zones[pf.zone][String(pf.seat)])) return view.zones[pf.zone][String(pf.seat)];
  const z = view.zones.hand;
  if (z && Array.isArray(z[String(S.seat)])) return z[String(S.seat)];
  for (const zone of Object.values(view.zones)) {
    if (zone && !Array.isArray(zone) && Array.isArray(zone[String(S.seat)]) && !("count" in zone)
        && !Array.isArray(zone[String(S.seat)][0])) return zone[String(S.seat)];
  }
  return [];
}
function counts(list) { const m = new Map(); for (const c of list) m.set(c, (m.get(c) || 0) + 1); return m; }
function within(sub, sup) { for (const [c, n] of sub) if ((sup.get(c) || 0) < n) return false; return true; }
function sameCounts(a, b) { return a.size === b.size && within(a, b); }
function parseAction(text) {
  const toks = text.trim().split(/\s+/);
  let i = 0;
  const verb = [];
  while (i < toks.length && !CARD_RE.test(toks[i]) && !/^-?\d+$/.test(toks[i])) verb.push(toks[i++]);
  const rest = toks.slice(i);
  const a = { text, verb: verb.join(" "), num: null, cards: [], tail: null, kind: "button" };
  if (!rest.length) return a;
  let j = 0;
  if (/^-?\d+$/.test(rest[0])) { a.num = parseInt(rest[0], 10); j = 1; }
  while (j < rest.length && CARD_RE.test(rest[j])) a.cards.push(rest[j++]);
  if (j === rest.length - 1 && a.cards.length && !CARD_RE.test(rest[j]) && !/^-?\d+$/.test(rest[j])) a.tail = rest[j++];
  if (j !== rest.length) return a;                       // a shape drawn as a plain button
  if (!a.cards.length) { if (a.num !== null && rest.length === 1) a.kind = "number"; return a; }
  a.kind = "cards";
  a.need = counts(a.cards);
  return a;
}
function classify(legal, hand) {
  const have = counts(hand), cardActions = [], numbers = new Map(), other = [];
  for (const text of legal) {
    const a = parseAction(text);
    if (a.kind === "cards" && within(a.need, have)) cardActions.push(a);
    else if (a.kind === "number") {
      if (!numbers.has(a.verb)) numbers.set(a.verb, []);
      numbers.get(a.verb).push(a.num);
    } else other.push(text);
  }
  for (const [verb, vals] of numbers) {            // a lone value is a plain button
    if (vals.length === 1) { numbers.delete(verb); other.push(verb + " " + vals[0]); }
  }
  return { cardActions, numbers, other };
}
// A pass listed one card at a time (pass_left > 1: "pass 2C", three times) is chosen whole: every set of
// pass_left distinct cards is offered as one action ("pass 2C 3C 4C", which the server reads as the three),
// so the cards are selected, shown with what they will do, undoable (clear selection), then confirmed.
function wholePasses(v, legal) {
  const left = v.pass_left || 0;
  if (left < 2 || !legal.length || !legal.every(a => /^pass \S+$/.test(a))) return null;
  const cards = [...new Set(legal.map(a => a.slice(5)))];
  const out = [];
  const pick = (start, chosen) => {
    if (out.length > 5000) return;
    if (chosen.length === left) { out.push("pass " + chosen.join(" ")); return; }
    for (let i = start; i < cards.length; i++) pick(i + 1, chosen.concat([cards[i]]));
  };
  pick(0, []);
  return out.length <= 5000 ? out : null;
}
function allLegal(v) {
  const legal = wholePasses(v, v.legal_actions || []) || v.legal_actions || [];
  if (!S.extra.size) return legal;
  const seen = new Set(legal);
  return legal.concat([...S.extra].filter(a => !seen.has(a)));
}
// the card actions that the selection (and the chosen target) can still grow into
function candidatesFor(cardActions, sel, target) {
  const selCounts = counts(sel);
  return cardActions.filter(a => within(selCounts, a.need) && (target === null || a.num === target));
}
function exactFor(candidates, sel) {
  const selCounts = counts(sel);
  const exact = candidates.filter(a => a.cards.length === sel.length && sameCounts(a.need, selCounts));
  const ordered = exact.filter(a => a.cards.join(" ") === sel.join(" "));
  // ordered cards (a play whose order matters) list every order: keep the one clicked
  return exact.some(a => exact.some(b => b !== a && b.verb === a.verb && b.num === a.num && b.tail === a.tail))
    && ordered.length ? ordered : exact;
}
// A long legal list is cut by the server (legal_more): ask for the actions that continue the selection.
function askMore(v, cardActions, sel) {
  if (!v.legal_more || !sel.length) return;
  const verbs = new Set(cardActions.map(a => a.verb + (a.num !== null ? " " + a.num : "")));
  for (const verb of verbs) {
    const prefix = (verb ? verb + " " : "") + sel.join(" ");
    if (S.asked.has(prefix)) continue;
    S.asked.add(prefix);
    send({ type: "get_legal", table: S.table, token: S.token, prefix, limit: 500 });
  }
}

// ---------- rendering ----------
function render() {
  const v = S.view;
  if (!v) return;
  const mine = !v.terminal && S.seat !== null && v.to_act === S.seat && Array.isArray(v.legal_actions);
  document.body.dataset.turn = v.terminal ? "over" : (mine ? "mine" : "wait");
  document.body.dataset.version = S.version;
  const hand = myHand(v);
  const model = classify(mine ? allLegal(v) : [], hand);
  renderSeats(v);
  renderCenter(v, model, mine);
  renderMe(v, mine, hand, model);
  renderScores(v);
  restoreFocus();
}
function counterRows(v) {
  // labelled counters from the view's display part (the ruleset's words); an unlabelled counter is never shown
  const d = v.display;
  if (!d || !Array.isArray(d.counters)) return [];
  // the counter that holds the match totals (the catalogue's score) is the scores table already: not repeated
  const totals = S.rs && S.rs.score;
  return d.counters.filter(c => c.name !== totals)
    .map(c => ({ label: c.label, by: c.by, values: c.values }));
}
function renderSeats(v) {
  const box = $("#seats");
  box.innerHTML = "";
  const played = new Map((v.trick || []).map(([s, c]) => [s, c]));
  const rows = counterRows(v);
  for (let s = 0; s < v.players; s++) {
    const d = document.createElement("div");
    d.className = "seat" + (v.to_act === s ? " to-act" : "") + (s === S.seat ? " mine" : "");
    d.dataset.seat = s;
    const name = document.createElement("div"); name.className = "name"; name.textContent = seatName(s);
    if (v.dealer === s) { const b = document.createElement("span"); b.className = "dealer"; b.textContent = "dealer"; name.append(b); }
    if (v.display && v.display.sits_out === s) {   // sits this deal out (docs/rulesets.md)
      const b = document.createElement("span"); b.className = "sits-out"; b.textContent = "sits out"; name.append(b);
      d.classList.add("sitting-out");
    }
    d.append(name);
    const lines = [];
    for (const c of rows) {
      if (c.by !== "seat") continue;
      const found = c.values.find(x => (x.seats || []).includes(s)) || {};
      const val = found.text ?? found.value;
      if (val !== null && val !== undefined) lines.push(c.label + ": " + val);
    }
    for (const [zname, z] of Object.entries(v.zones)) {
      if (!z || Array.isArray(z) || "count" in z) continue;           // shared zones are drawn in the centre
      const zs = z[String(s)];
      if (zs === undefined) continue;
      if (Array.isArray(zs) && zs.length && Array.isArray(zs[0])) continue;   // melds: drawn in the centre
      const label = zoneLabel(v, zname);
      if (Array.isArray(zs)) {
        if (s === S.seat && zname === "hand") continue;
        if (zname === "hand" && zs.length) {          // another seat's hand shown to all (a dummy, an open hand)
          const open = document.createElement("div"); open.className = "open-hand"; open.dataset.zone = zname;
          open.title = label + " (face up)";
          for (const c of zs) open.append(cardEl(c));
          d.append(open);
          continue;
        }
        if (zs.length) lines.push(label + ": " + zs.length + (zs.length === 1 ? " card" : " cards"));
      } else if (zs.count || zs.face_up) {
        lines.push(label + ": " + zs.count + (zs.count === 1 ? " card" : " cards") + (zs.face_up ? " (" + zs.face_up.map(pretty).join(" ") + ")" : ""));
      }
    }
    for (const l of lines) { const p = document.createElement("div"); p.className = "stat"; p.textContent = l; d.append(p); }
    if (played.has(s)) { const p = document.createElement("div"); p.className = "played"; p.append(cardEl(played.get(s))); d.append(p); }
    box.append(d);
  }
}
function zoneLabel(v, name) {
  const d = v.display && Array.isArray(v.display.zones) ? v.display.zones.find(z => z.name === name) : null;
  return d && d.label ? d.label : name.replace(/_/g, " ");
}
function pretty(code) {
  const special = specialName(code);
  if (special) return special;
  if (!CARD_RE.test(code)) return code;
  return code === "JK" ? "\u2605" : (rankOf(code) === "T" ? "10" : rankOf(code)) + SUITS[suitOf(code)];
}
function prettyText(text) { return String(text).split(/\s+/).map(pretty).join(" "); }
function trickRow(el, cards, winner, cancelled) {
  el.innerHTML = "";
  const cancel = counts(cancelled || []);
  for (const [s, c] of cards) {
    const w = document.createElement("div");
    let cls = "played-card";
    if (s === winner) cls += " winner";
    if (cancel.get(c)) { cls += " cancelled"; }
    w.className = cls;
    w.append(cardEl(c));
    const lab = document.createElement("span"); lab.textContent = seatName(s); w.append(lab);
    el.append(w);
  }
}
function isMelds(z) {
  if (Array.isArray(z)) return z.length > 0 && Array.isArray(z[0]);
  return z && typeof z === "object" && !("count" in z) &&
    Object.values(z).some(x => Array.isArray(x) && x.length && Array.isArray(x[0]));
}
function renderCenter(v, model, mine) {
  trickRow($("#trick"), v.trick || [], null, []);
  const last = [...S.events].reverse().find(e => e.type === "trick" && Array.isArray(e.cards));
  $("#last-trick-area").hidden = !last;
  $("#trick-area").hidden = !last && !(v.trick || []).length;     // games without tricks
  // the highlighted card is the taker's (tricks: take: may give the cards to another seat than the winner)
  if (last) trickRow($("#last-trick"), last.cards, last.carried ? null : (last.taker ?? last.winner), last.cancelled);
  const zones = $("#zones");
  zones.innerHTML = "";
  const melds = $("#melds");
  melds.innerHTML = "";
  // lay-off targets: a number before the cards of a card action names a meld of my side
  const targets = new Set(model.cardActions.filter(a => a.num !== null).map(a => a.num));
  for (const [name, z] of Object.entries(v.zones)) {
      if (isMelds(z) || zoneIsMeldZone(v, name)) {
      drawMelds(melds, v, name, z, targets, mine);
      continue;
    }
    let cards = null, hidden = 0, top = null;
    if (Array.isArray(z)) cards = z;
    else if (z && "count" in z) {
      if ("top" in z) { top = z.top; hidden = z.count - (top ? 1 : 0); cards = top ? [top] : []; }
      else { cards = z.face_up || []; hidden = z.count - cards.length; }
    } else continue;
    const total = cards.length + hidden;
    if (!total && !Array.isArray(z)) continue;      // an empty face-down zone (a widow, a stock) says nothing
    const d = document.createElement("div"); d.className = "zone"; d.dataset.zone = name;
    const h = document.createElement("h3");
    h.textContent = zoneLabel(v, name) + " (" + total + (total === 1 ? " card)" : " cards)");
    d.append(h);
    const row = document.createElement("div"); row.className = "cards";
    if (top !== null) {                       // a pile shows its top card on its face-down rest
      if (hidden) row.append(backEl(hidden));
      if (top) row.append(cardEl(top, "top"));
    } else {
      const shown = cards.length > 16 ? cards.slice(-16) : cards;
      if (cards.length > shown.length) { const m = document.createElement("span"); m.className = "more"; m.textContent = "+" + (cards.length - shown.length) + " \u2026"; row.append(m); }
      for (const c of shown) row.append(cardEl(c));
      if (hidden) row.append(backEl(hidden));
    }
    if (!total) { const e = document.createElement("span"); e.className = "empty"; e.textContent = "empty"; row.append(e); }
    d.append(row);
    zones.append(d);
  }
  melds.hidden = !melds.childElementCount;
  renderSince();
  const facts = $("#facts");
  facts.innerHTML = "";
  const add = (k, val) => {
    if (val === null || val === undefined || val === "") return;
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = val;
    facts.append(dt, dd);
  };
  add("deal", v.deal);
  add("to act", v.terminal ? "nobody (over)" : seatName(v.to_act));
  if (v.trump) add("trump", SUITS[v.trump] || v.trump);
  if (v.led_suit) add("led", SUITS[v.led_suit] || v.led_suit);
  const d = v.display;
  const sys = v.system || {};                  // the standing high bid, then the contract and its declarer
  if (v.auction && v.auction.high && sys.declarer >= 0) add("high bid", prettyText(v.auction.high) + " (" + seatName(sys.declarer) + ")");
  else if (sys.declarer >= 0 && sys.bid_level >= 0 && !v.terminal) {
    const end = [...S.events].reverse().find(e => e.type === "auction_end" || e.type === "deal_start");
    if (end && end.type === "auction_end" && end.bid) add("contract", prettyText(end.bid) + " (" + seatName(end.declarer) + ")");
  }
  if (d && Array.isArray(d.vars)) for (const x of d.vars) add(x.label, prettyText(x.text));
  if (d && Array.isArray(d.counters)) {      // counters shown by team: one line per team
    for (const c of counterRows(v)) if (c.by === "team") {
      add(c.label, c.values.map((x, k) => "Team " + k + ": " + (x.text ?? x.value ?? "?")).join(", "));
    }
  }
}
// What happened since my last move (my action, its result, the other seats' moves), kept in sight until my
// next one: a hand that settles and clears its cards (a spread and its third card) can still be read.
function renderSince() {
  const box = $("#since"), area = $("#since-area");
  box.innerHTML = "";
  const from = S.since ?? null;
  const lines = from === null ? [] : S.events.slice(from).map(eventText).filter(Boolean);
  // my action and its result first, then the latest moves
  const shown = lines.length > 8 ? lines.slice(0, 3).concat(["\u2026"], lines.slice(-5)) : lines;
  for (const text of shown) { const li = document.createElement("li"); li.textContent = text; box.append(li); }
  area.hidden = !shown.length;
}
function zoneIsMeldZone(v, name) {
  const d = v.display && Array.isArray(v.display.zones) ? v.display.zones.find(z => z.name === name) : null;
  return !!(d && d.kind === "melds");
}
function drawMelds(box, v, name, z, targets, mine) {
  const groups = Array.isArray(z) ? [[null, z]] : Object.entries(z);
  const n = groups.length;
  const t = teams();
  const mineKey = t ? String(myTeam()) : String(S.seat);
  for (const [key, list] of groups) {
    if (!Array.isArray(list) || !list.length) continue;
    if (t && key !== null && +key >= t.length) continue;
    const g = document.createElement("div"); g.className = "meld-group"; g.dataset.zone = name;
    if (key !== null) g.dataset.owner = key;
    const h = document.createElement("h3");
    h.textContent = zoneLabel(v, name) + (key === null ? "" : ": " + (t ? teamName(+key) : seatName(+key))) +
      " \u2014 " + list.length + (list.length === 1 ? " meld" : " melds");
    g.append(h);
    list.forEach((meld, i) => {
      const num = i + 1;
      const m = document.createElement("div");
      const canTarget = mine && key === mineKey && targets.has(num);
      m.className = "meld" + (canTarget ? " target" : "") + (canTarget && S.target === num ? " chosen" : "");
      m.dataset.meld = num;
      const lab = document.createElement("span"); lab.className = "meld-no"; lab.textContent = num; m.append(lab);
      for (const c of meld) m.append(cardEl(c, "small"));
      if (canTarget) {
        m.tabIndex = 0;
        m.dataset.focus = "meld:" + num;
        m.title = "lay off onto meld " + num;
        m.onclick = () => clickMeld(num);
      }
      g.append(m);
    });
    box.append(g);
  }
}
function clickMeld(num) {
  const v = S.view, hand = myHand(v);
  const { cardActions } = classify(allLegal(v), hand);
  const sel = S.selected.map(i => hand[i]);
  if (sel.length) {          // cards chosen first: the meld completes the action
    const exact = exactFor(candidatesFor(cardActions, sel, num), sel);
    if (exact.length === 1 && !exact[0].tail) { act(exact[0].text); return; }
  }
  S.target = S.target === num ? null : num;
  // keep only the selected cards that still fit a lay-off onto this meld
  if (S.target !== null && !candidatesFor(cardActions, sel, S.target).length) S.selected = [];
  render();
}
function renderMe(v, mine, hand, model) {
  const { cardActions, numbers, other } = model;
  const sel = S.selected.map(i => hand[i]);
  const candidates = candidatesFor(cardActions, sel, S.target);
  const exact = exactFor(candidates, sel);
  if (mine) askMore(v, cardActions, sel);
  // a hand card is playable when adding it to the selection still fits some legal action
  const playable = new Set();
  hand.forEach((c, i) => {
    if (S.selected.includes(i)) return;
    const next = counts(sel.concat([c]));
    if (candidates.some(a => within(next, a.need))) playable.add(i);
    else if (v.legal_more && sel.length && candidates.some(a => a.cards.length > sel.length)) playable.add(i);
  });
  const handBox = $("#hand");
  handBox.innerHTML = "";
  handBox.classList.toggle("passive", !cardActions.length);     // no card to choose now: nothing is dimmed
  const groups = new Map();
  hand.forEach((c, i) => { const s = suitOf(c); if (!groups.has(s)) groups.set(s, []); groups.get(s).push(i); });
  const order = [...SUIT_ORDER.filter(s => groups.has(s)), ...[...groups.keys()].filter(s => !SUIT_ORDER.includes(s))];
  for (const s of order) {
    const g = document.createElement("div"); g.className = "suit-group";
    for (const i of groups.get(s)) {
      const cls = S.selected.includes(i) ? "selected" : (playable.has(i) ? "legal" : "");
      const el = cardEl(hand[i], cls);
      el.dataset.index = i;
      if (cls) {
        el.onclick = () => clickCard(i);
        el.tabIndex = 0;
        el.dataset.focus = "card:" + hand[i] + ":" + i;
      }
      if (S.selected.includes(i)) {
        const k = document.createElement("span"); k.className = "order"; k.textContent = S.selected.indexOf(i) + 1; el.append(k);
      }
      g.append(el);
    }
    handBox.append(g);
  }
  const box = $("#actions");
  box.innerHTML = "";
  // confirm: the selection makes these actions (several: a declaration or a target to choose)
  for (const a of exact) {
    if (a.cards.length > 1 || exact.length > 1 || a.tail || a.num !== null || v.legal_more)
      box.append(actionButton(a.text, "action confirm", confirmLabel(a)));
  }
  if (S.selected.length || S.target !== null) {
    const b = document.createElement("button"); b.type = "button"; b.className = "clear"; b.textContent = "clear selection";
    b.dataset.focus = "clear";
    b.onclick = () => { S.selected = []; S.target = null; render(); }; box.append(b);
  }
  for (const [verb, vals] of numbers) box.append(numberChoice(verb, vals));
  const library = v.secret_rule && Array.isArray(v.secret_rule.library) ? v.secret_rule.library : null;
  for (const t of other) {
    const rule = library && t.startsWith("rule ") ? library.find(r => "rule " + r.name === t) : null;
    const b = actionButton(t, rule ? "action rule" : "action", rule && rule.words ? rule.words : prettyText(t));
    if (rule) b.title = (rule.hint ? rule.hint + " \u2014 " : "") + "written: " + rule.rule;
    box.append(b);
  }
  let prompt = "";
  if (v.terminal) prompt = "The match is over.";
  else if (mine) {
    const verbs = [...new Set(cardActions.map(a => a.verb || "play"))];
    const multi = cardActions.some(a => a.cards.length > 1 || a.tail || a.num !== null);
    const from = v.playing_for ? " from " + seatName(v.playing_for.seat) + "'s hand" : "";
    prompt = "Your turn" + (cardActions.length ? ": " + (multi ? "select cards to " : "click a highlighted card to ") +
      verbs.join(" / ") + from : "") +
      ((other.length || numbers.size) ? (cardActions.length ? ", or choose an action" : ": choose an action") : "") + ".";
    if (S.target !== null) prompt += " Meld " + S.target + " chosen: select the cards to lay off.";
    if (S.selected.length) prompt += " Selected: " + sel.map(pretty).join(" ") + (exact.length ? " \u2014 confirm below." : ".");
    if (cardActions.some(a => a.num !== null) && S.target === null && !S.selected.length)
      prompt += " Click one of your melds to lay off onto it.";
  } else if (S.seat !== null) prompt = "Waiting for " + seatName(v.to_act) + "\u2026";
  if (mine && library) prompt += " Pick the secret rule by its words, or type your own: write card.rank > last.rank " +
    "(names: card, last, line; suits, ranks, colours; see the rules language, docs/dsl.md).";
  $("#prompt").textContent = prompt;
  const r = $("#reason");
  r.textContent = S.reason ? "Not allowed: " + S.reason : "";
  r.hidden = !S.reason;
  $("#type-action").hidden = !mine;
}
function confirmLabel(a) {
  const many = a.verb === "pass" && a.cards.length > 1 ? " " + a.cards.length + " cards:" : "";
  return (a.verb || "play") + many + (a.num !== null ? " " + a.num : "") + " " + a.cards.map(pretty).join(" ") +
    (a.tail ? " \u2014 " + a.tail : "");
}
function actionButton(text, cls, label) {
  const b = document.createElement("button");
  b.type = "button"; b.className = cls; b.textContent = label || text; b.dataset.action = text;
  b.dataset.focus = "act:" + text;
  b.onclick = () => act(text);
  return b;
}
// numeric choices (bets, raises, bids): one number field with its range, − / + and a confirm button
function numberChoice(verb, vals) {
  vals = [...new Set(vals)].sort((x, y) => x - y);
  const lo = vals[0], hi = vals[vals.length - 1];
  let step = vals.length > 1 ? vals[1] - vals[0] : 1;
  for (let i = 2; i < vals.length; i++) if (vals[i] - vals[i - 1] !== step) step = 0;
  const allowed = new Set(vals);
  const wrap = document.createElement("div"); wrap.className = "number-choice"; wrap.dataset.verb = verb;
  const lab = document.createElement("label"); lab.textContent = (verb || "number") + " ";
  const input = document.createElement("input");
  input.type = "number"; input.min = lo; input.max = hi; input.step = step || 1;
  input.className = "number"; input.dataset.focus = "num:" + verb;
  const key = "num:" + verb;
  input.value = S.numbers && S.numbers[key] !== undefined && allowed.has(S.numbers[key]) ? S.numbers[key] : lo;
  lab.append(input);
  const minus = document.createElement("button"); minus.type = "button"; minus.textContent = "\u2212"; minus.className = "step down";
  const plus = document.createElement("button"); plus.type = "button"; plus.textContent = "+"; plus.className = "step up";
  const go = document.createElement("button"); go.type = "button"; go.className = "action confirm number-go";
  go.dataset.focus = "go:" + verb;
  const range = document.createElement("span"); range.className = "range";
  const gaps = []; if (step === 0) for (let x = lo; x <= hi && gaps.length < 6; x++) if (!allowed.has(x)) gaps.push(x);
  range.textContent = "from " + lo + " to " + hi + (step > 1 ? " in steps of " + step : "") +
    (gaps.length ? " (not " + gaps.join(", ") + ")" : "");
  const sync = () => {
    const n = parseInt(input.value, 10);
    S.numbers = S.numbers || {}; S.numbers[key] = n;
    const ok = allowed.has(n);
    go.disabled = !ok;
    go.textContent = ok ? (verb ? verb + " " : "") + n : "not allowed";
    go.dataset.action = ok ? (verb ? verb + " " : "") + n : "";
  };
  const move = (dir) => {
    const n = parseInt(input.value, 10);
    const next = dir > 0 ? vals.find(x => x > n) : [...vals].reverse().find(x => x < n);
    if (next !== undefined) input.value = next;
    sync();
  };
  minus.onclick = () => move(-1); plus.onclick = () => move(1);
  input.oninput = sync;
  input.onkeydown = (e) => {
    if (e.key === "Enter") { e.preventDefault(); if (!go.disabled) act(go.dataset.action); }
    else if (e.key === "ArrowUp" || e.key === "ArrowDown") { e.preventDefault(); move(e.key === "ArrowUp" ? 1 : -1); }
  };
  go.onclick = () => { if (!go.disabled) act(go.dataset.action); };
  sync();
  wrap.append(lab, minus, plus, go, range);
  return wrap;
}
function clickCard(i) {
  if (S.selected.includes(i)) { S.selected = S.selected.filter(x => x !== i); render(); return; }
  const v = S.view;
  const hand = myHand(v);
  const { cardActions } = classify(allLegal(v), hand);
  const sel = S.selected.map(x => hand[x]).concat([hand[i]]);
  const candidates = candidatesFor(cardActions, sel, S.target);
  const exact = exactFor(candidates, sel);
  // one card that makes exactly one action with nothing longer possible: play it at once
  if (!v.legal_more && sel.length === 1 && exact.length === 1 && candidates.length === 1) { act(exact[0].text); return; }
  S.selected = S.selected.concat([i]);
  render();
}
function renderScores(v) {
  const t = $("#scores");
  t.innerHTML = "";
  const over = [...S.events].reverse().find(e => e.type === "game_over");
  const keys = Object.keys(v.scores || {});
  const last = S.lastDeal && S.lastDeal.points ? bySide(S.lastDeal.points) : null;
  const head = document.createElement("tr");
  // the totals column takes the label of the counter that holds them (the ruleset's word: Score, Chips)
  const totalsCounter = v.display && Array.isArray(v.display.counters) && S.rs ?
    v.display.counters.find(c => c.name === S.rs.score) : null;
  for (const x of ["", totalsCounter ? totalsCounter.label : "total"].concat(last ? ["last deal"] : [])) { const th = document.createElement("th"); th.textContent = x; head.append(th); }
  if (keys.length) t.append(head);
  for (const k of keys) {
    const tr = document.createElement("tr"); tr.className = "side"; tr.dataset.side = k;
    const th = document.createElement("th"); th.textContent = sideName(k, keys.length);
    const td = document.createElement("td"); td.textContent = v.scores[k];
    tr.append(th, td);
    if (last) { const td2 = document.createElement("td"); td2.textContent = last[k] ?? ""; tr.append(td2); }
    t.append(tr);
  }
  const res = $("#result");
  res.hidden = !v.terminal;
  if (v.terminal) {
    res.innerHTML = "";
    const p = document.createElement("div");
    const winners = over && over.winner ? over.winner.map(w => sideName(w, keys.length)).join(", ") : "";
    // match: ranking: none (a game against the house): each seat's net result, no winner
    const net = over && over.net ? " Against the house: " + Object.entries(over.net).map(([k, x]) =>
      seatName(+k) + " " + (x > 0 ? "+" : "") + x).join(", ") + "." : "";
    p.textContent = "Game over." + (winners ? " Winner: " + winners + "." : "") + net + " Scores: " +
      keys.map(k => sideName(k, keys.length) + " " + v.scores[k]).join(", ");
    const b = document.createElement("button"); b.type = "button"; b.textContent = "New table";
    b.onclick = backToLobby;
    res.append(p, b);
  }
}

// ---------- log: events in words ----------
function words(name) { return String(name).replace(/_/g, " "); }
function plainValue(x) {
  if (typeof x === "boolean") return x ? "yes" : "no";
  if (Array.isArray(x)) return x.map(plainValue).join(" ");
  if (x && typeof x === "object") return Object.entries(x).map(([k, y]) => k + " " + plainValue(y)).join(", ");
  return prettyText(String(x));
}
function fromTemplate(tpl, ev) {      // the ruleset's own line for its event: "seat {seat} …" reads as a name
  const who = (s) => s === S.seat ? "Seat " + s + " (you)" : seatName(s);   // "seat {seat} shows": not "You shows"
  return tpl.replace(/seats? \{(\w+)\}/g, (m, k) => typeof ev[k] === "number" ? who(ev[k]) : m)
    .replace(/\{(\w+)\}/g, (m, k) => k in ev ? plainValue(ev[k]) : "?").trim();
}
// points by seat, said once per team when the ruleset has teams and partners hold the same points
function bySide(points) {
  const t = teams(), keys = Object.keys(points || {});
  if (t && keys.length === S.view.players && keys.length !== t.length &&
      t.every(seats => seats.every(x => points[String(x)] === points[String(seats[0])])))
    return Object.fromEntries(t.map((seats, k) => [String(k), points[String(seats[0])]]));
  return points || {};
}
function pointsText(points) {
  points = bySide(points);
  const keys = Object.keys(points);
  return keys.map(k => sideName(k, keys.length) + " " + points[k]).join(", ");
}
function eventText(ev) {
  const seat = (s) => seatName(s);
  const verbFor = (s, you, other) => seat(s) + " " + (s === S.seat ? you : other);
  const tpl = S.rs && S.rs.log ? S.rs.log[ev.type] : null;
  if (tpl && !["deal_start", "trick", "deal_score", "game_over", "action"].includes(ev.type)) return fromTemplate(tpl, ev);
  switch (ev.type) {
    case "deal_start": return "Deal " + ev.deal + " (" + seat(ev.dealer) + " deals)";
    case "deal":
      if (ev.face_up) return words(ev.zone) + " face up: " + ev.face_up.map(pretty).join(" ");
      if (ev.each) return "Dealt " + ev.each + " cards to each " + words(ev.zone);
      if (ev.count) return words(ev.zone) + ": " + ev.count + (ev.count === 1 ? " card" : " cards") +
        (ev.cards ? ": " + ev.cards.map(pretty).join(" ") : (ev.top ? ", " + pretty(ev.top) + " on top" : ""));
      return null;
    case "pass": return verbFor(ev.seat, "pass ", "passes ") +
      (ev.cards ? ev.cards.map(pretty).join(" ") : ev.count + (ev.count === 1 ? " card" : " cards")) + " to " + seat(ev.to);
    case "bid": return ev.bid === "pass" ? verbFor(ev.seat, "pass", "passes") : ev.bid === "hold" ? verbFor(ev.seat, "hold", "holds")
      : ev.call ? seat(ev.seat) + ": " + ev.bid : verbFor(ev.seat, "bid ", "bids ") + ev.bid;
    case "window": return "(" + words(ev.name) + ": a decision out of turn)";
    case "auction_end": return seat(ev.declarer) + " won the auction: " + ev.bid;
    case "all_pass": return "Everyone passed: " + (ev.then === "redeal" ? "the deal is dealt again" : ev.then === "throw_in" ? "the deal is thrown in" : ev.then + " is played");
    case "trump": return "Trump: " + (ev.suit ? (SUITS[ev.suit] || ev.suit) : "none");
    case "dealer": return seat(ev.seat) + " deals";
    case "sits_out": return verbFor(ev.seat, "sit", "sits") + " out this deal";
    case "partner": return verbFor(ev.seat, "play", "plays") + " the called card " + pretty(ev.card);
    case "choose": return verbFor(ev.seat, "", "") .trim() + ": " + words(ev.word) + " " + ev.choice;
    case "trick": {
      const cards = ev.cards.map(([s, c]) => (s === S.seat ? "You" : "S" + s) + " " + pretty(c)).join(", ");
      const cancelled = ev.cancelled && ev.cancelled.length ? "; cancelled " + ev.cancelled.map(pretty).join(" ") : "";
      const taker = ev.taker ?? ev.winner, next = ev.next_leader ?? ev.winner;
      let who = seat(ev.winner) + (ev.winner === S.seat ? " win" : " wins");
      if (taker !== ev.winner || next !== ev.winner)
        who = seat(taker) + (taker === S.seat ? " take" : " takes") + " the trick" + (next !== taker ? ", " + seat(next) + (next === S.seat ? " lead" : " leads") + " next" : "");
      return "Trick " + ev.number + ": " + cards + cancelled + " \u2192 " + (ev.carried ? "no winner, carried" : who);
    }
    case "widow_taken": return seat(ev.seat) + " takes the widow (" + ev.cards + " cards)";
    case "action": return seat(ev.seat) + ": " + prettyText(ev.action);
    case "reveal": return (typeof ev.seat === "number" ? seat(ev.seat) + " shows " : "Revealed: ") + (ev.cards || []).map(pretty).join(" ");
    case "reshuffle": return "The discards (" + ev.cards + " cards) are shuffled into a new stock";
    case "turn_cap": return "Turn limit reached after " + ev.turns + " turns";
    case "deal_score": return "Deal " + ev.deal + " points: " + pointsText(ev.points) +
      (ev.totals ? ". Totals: " + pointsText(ev.totals) : "");
    case "game_over": return "Game over" + (ev.reason ? " (" + ev.reason + ")" : "") + ": " + pointsText(ev.scores);
    case "play": case "shuffle": case "deal_end": case "pass_chosen": case "turn": return null;
    default: {
      const parts = Object.entries(ev).filter(([k]) => k !== "type").map(([k, x]) =>
        (k === "seat" || k === "to" || k === "by") && typeof x === "number" ? seat(x) : words(k) + " " + plainValue(x));
      return words(ev.type).replace(/^./, c => c.toUpperCase()) + (parts.length ? ": " + parts.join(", ") : "");
    }
  }
}
// the deal's bids and tricks taken, for the line before its points ("bid 2, took 3")
function tally(ev) {
  const t = S.tally || (S.tally = { bids: {}, took: {} });
  if (ev.type === "deal_start") { t.bids = {}; t.took = {}; }
  else if (ev.type === "bid" && typeof ev.bid === "number") t.bids[ev.seat] = ev.bid;
  else if (ev.type === "trick" && !ev.carried) { const k = ev.taker ?? ev.winner; t.took[k] = (t.took[k] || 0) + 1; }
  else if (ev.type === "deal_score") {
    const seats = Object.keys(t.bids);
    if (seats.length) return "Bid and took: " + seats.map(k => seatName(+k) + " bid " + t.bids[k] + ", took " + (t.took[k] || 0)).join("; ");
  }
  return null;
}
function appendLog(ev) {
  const log = $("#log");
  for (const text of [tally(ev), eventText(ev)]) {
    if (!text) continue;
    const li = document.createElement("li");
    li.className = ev.type; li.textContent = text;
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
}

// ---------- keyboard ----------
// Arrow keys move between the highlighted cards, melds and buttons; Enter plays, selects or confirms;
// a typed card code (Q S, 10 H, jk) clicks that card; Escape clears the selection.
function focusables() {
  return [...document.querySelectorAll("#hand .card[tabindex], #melds .meld[tabindex], #actions button:not([disabled]), #actions input")];
}
function restoreFocus() {
  if (!S.focusKey) return;
  const el = document.querySelector(`[data-focus="${CSS.escape(S.focusKey)}"]`) ||
    (S.focusKey.startsWith("card:") ? document.querySelector("#hand .card[tabindex]") : null);
  if (el) el.focus();
}
document.addEventListener("focusin", (e) => { if (e.target.dataset && e.target.dataset.focus) S.focusKey = e.target.dataset.focus; });
let typed = "", typedAt = 0;
document.addEventListener("keydown", (e) => {
  if ($("#table").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const inField = e.target.matches && e.target.matches("input, select, textarea");
  const list = focusables();
  const at = list.indexOf(document.activeElement);
  if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key) && !(inField && e.target.type !== "number")) {
    if (inField && (e.key === "ArrowUp" || e.key === "ArrowDown")) return;   // a number field steps its value
    if (!list.length) return;
    e.preventDefault();
    const dir = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
    const next = at < 0 ? (dir > 0 ? 0 : list.length - 1) : (at + dir + list.length) % list.length;
    list[next].focus();
    return;
  }
  if (inField) return;
  if (e.key === "Enter") {
    if (at >= 0 && document.activeElement.tagName !== "BUTTON") { e.preventDefault(); document.activeElement.click(); return; }
    if (at < 0) {
      const confirms = document.querySelectorAll("#actions button.confirm:not([disabled])");
      if (confirms.length === 1) { e.preventDefault(); confirms[0].click(); }
    }
    return;
  }
  if (e.key === "Escape") { S.selected = []; S.target = null; S.reason = ""; render(); return; }
  if (e.key.length !== 1 || !/[0-9a-z*]/i.test(e.key)) return;
  const now = Date.now();
  if (now - typedAt > 2000) typed = "";
  typedAt = now;
  typed = (typed + e.key.toUpperCase()).replace("10", "T").slice(-3);
  for (const code of [typed.slice(-2), typed.slice(-3)]) {
    const el = [...document.querySelectorAll("#hand .card[tabindex]")].find(c => c.dataset.code === code);
    if (el) { typed = ""; el.focus(); el.click(); e.preventDefault(); return; }
  }
});

// ---------- start ----------
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  return p.get("table") ? { table: p.get("table"), token: p.get("token") } : null;
}
$("#ruleset").onchange = onRuleset;
$("#players").onchange = onPlayers;
$("#my-seat").onchange = seatBots;
$("#create-form").onsubmit = createTable;
$("#refresh-tables").onclick = listTables;
$("#leave").onclick = backToLobby;
$("#type-action").onsubmit = (e) => { e.preventDefault(); const t = $("#action-text").value.trim(); if (t) act(t); $("#action-text").value = ""; };
loadRulesets().then(() => {
  const h = fromHash();
  if (h) join(h.table, h.token); else listTables();
});
