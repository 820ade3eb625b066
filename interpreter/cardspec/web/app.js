// cardspec browser table: generic, driven only by the seat's view and the legal actions' text forms.
// Protocol: docs/protocol.md (create over POST /api/tables, then join/act over the WebSocket /ws).
"use strict";

const $ = (sel, el = document) => el.querySelector(sel);
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_ORDER = ["S", "H", "C", "D"];     // alternating colours
const KNOWN_VIEW_KEYS = new Set(["seat", "players", "deal", "dealer", "to_act", "terminal", "step", "zones",
  "counters", "vars", "trick", "leader", "led_suit", "trump", "scores", "step_index", "system",
  "legal_actions", "legal_count", "legal_more", "log", "display"]);

const S = {
  rulesets: [], table: null, token: null, seat: null, bots: [], view: null, version: -1,
  events: [], ws: null, selected: [], title: "",
};

// ---------- cards ----------
function suitOf(code) { return code === "JK" ? "*" : code.slice(-1); }
function rankOf(code) { return code === "JK" ? "JK" : code.slice(0, -1); }
function cardEl(code, extra) {
  const el = document.createElement("div");
  const suit = suitOf(code);
  el.className = "card" + (suit === "H" || suit === "D" ? " red" : "") + (extra ? " " + extra : "");
  el.dataset.code = code;
  el.title = code;
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
  const bots = [];
  for (let s = 0; s < players; s++) if (s !== seat) bots.push(s);
  const body = { ruleset: $("#ruleset").value, players, options: chosenOptions(), bots,
    bot_delay: parseFloat($("#bot-delay").value) };
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
  Object.assign(S, { table, token, seat: null, view: null, version: -1, events: [], selected: [] });
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
function onMessage(m) {
  if (m.type === "joined") {
    S.seat = m.seat; S.bots = m.info.bots;
    const rs = S.rulesets.find(r => r.name === m.info.ruleset);
    S.title = (rs ? rs.title : m.info.ruleset) + " \u2014 " + m.info.players + " players";
    $("#title").textContent = S.title + (m.seat === null ? " (watching)" : "");
    status("");
  } else if (m.type === "update") {
    S.view = m.view; S.version = m.version;
    for (const ev of m.events) { S.events.push(ev); appendLog(ev); }
    S.selected = [];
    render();
  } else if (m.type === "error") {
    status(m.message, true);
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
  send({ type: "act", table: S.table, token: S.token, action });
}

// ---------- legal actions ----------
// A card action is "[verb] CARD CARD …" whose cards all come from my hand (duplicates counted).
function myHand(view) {
  const z = view.zones.hand;
  if (z && Array.isArray(z[String(S.seat)])) return z[String(S.seat)];
  for (const zone of Object.values(view.zones)) {
    if (zone && !Array.isArray(zone) && Array.isArray(zone[String(S.seat)]) && !("count" in zone)) return zone[String(S.seat)];
  }
  return [];
}
function counts(list) { const m = new Map(); for (const c of list) m.set(c, (m.get(c) || 0) + 1); return m; }
function within(sub, sup) { for (const [c, n] of sub) if ((sup.get(c) || 0) < n) return false; return true; }
function classify(legal, hand) {
  const have = counts(hand), cardActions = [], other = [];
  for (const text of legal) {
    const toks = text.split(/\s+/);
    const first = have.has(toks[0]) ? 0 : 1;
    const cards = toks.slice(first);
    if (cards.length && cards.every(c => have.has(c)) && within(counts(cards), have)) {
      cardActions.push({ text, verb: first ? toks[0] : "", cards, need: counts(cards) });
    } else other.push(text);
  }
  return { cardActions, other };
}

// ---------- rendering ----------
function render() {
  const v = S.view;
  if (!v) return;
  const mine = !v.terminal && S.seat !== null && v.to_act === S.seat && Array.isArray(v.legal_actions);
  document.body.dataset.turn = v.terminal ? "over" : (mine ? "mine" : "wait");
  document.body.dataset.version = S.version;
  renderSeats(v);
  renderCenter(v);
  renderMe(v, mine);
  renderScores(v);
}
function renderSeats(v) {
  const box = $("#seats");
  box.innerHTML = "";
  const played = new Map((v.trick || []).map(([s, c]) => [s, c]));
  for (let s = 0; s < v.players; s++) {
    const d = document.createElement("div");
    d.className = "seat" + (v.to_act === s ? " to-act" : "") + (s === S.seat ? " mine" : "");
    d.dataset.seat = s;
    const name = document.createElement("div"); name.className = "name"; name.textContent = seatName(s);
    if (v.dealer === s) { const b = document.createElement("span"); b.className = "dealer"; b.textContent = "dealer"; name.append(b); }
    d.append(name);
    const lines = [];
    if (v.scores && String(s) in v.scores) lines.push("score " + v.scores[String(s)]);
    for (const [cname, vals] of Object.entries(v.counters || {})) {
      if (Array.isArray(vals) && vals.length === v.players && cname !== "score") lines.push(cname + " " + fmt(vals[s]));
    }
    for (const [zname, z] of Object.entries(v.zones)) {
      if (!z || Array.isArray(z) || "count" in z) continue;           // shared zones are drawn in the centre
      const mineZ = z[String(s)];
      if (mineZ === undefined) continue;
      if (Array.isArray(mineZ)) {
        if (s !== S.seat && mineZ.length && zname === "hand") lines.push(zname + ": " + mineZ.join(" "));
        else if (s !== S.seat || zname !== "hand") lines.push(zname + " " + mineZ.length);
      } else lines.push(zname + " " + mineZ.count + (mineZ.face_up ? " (" + mineZ.face_up.join(" ") + ")" : ""));
    }
    for (const l of lines) { const p = document.createElement("div"); p.className = "stat"; p.textContent = l; d.append(p); }
    if (played.has(s)) { const p = document.createElement("div"); p.className = "played"; p.append(cardEl(played.get(s))); d.append(p); }
    box.append(d);
  }
}
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
function renderCenter(v) {
  trickRow($("#trick"), v.trick || [], null, []);
  const last = [...S.events].reverse().find(e => e.type === "trick" && Array.isArray(e.cards));
  $("#last-trick-area").hidden = !last;
  $("#trick-area").hidden = !last && !(v.trick || []).length;     // games without tricks
  // the highlighted card is the taker's (tricks: take: may give the cards to another seat than the winner)
  if (last) trickRow($("#last-trick"), last.cards, last.carried ? null : (last.taker ?? last.winner), last.cancelled);
  const zones = $("#zones");
  zones.innerHTML = "";
  for (const [name, z] of Object.entries(v.zones)) {
    let cards = null, hidden = 0;
    if (Array.isArray(z)) cards = z;
    else if (z && "count" in z) { cards = z.face_up || []; hidden = z.count - cards.length; }
    else continue;
    if (!cards.length && !hidden) continue;
    const d = document.createElement("div"); d.className = "zone"; d.dataset.zone = name;
    const h = document.createElement("h3"); h.textContent = name + " (" + (cards.length + hidden) + ")"; d.append(h);
    const row = document.createElement("div"); row.className = "cards";
    for (const c of cards) row.append(cardEl(c));
    if (hidden) row.append(backEl(hidden));
    d.append(row);
    zones.append(d);
  }
  const facts = $("#facts");
  facts.innerHTML = "";
  const add = (k, val) => {
    if (val === null || val === undefined || val === "" || (typeof val === "object" && !Object.keys(val).length)) return;
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = fmt(val);
    facts.append(dt, dd);
  };
  add("deal", v.deal);
  add("step", v.step);
  add("to act", v.terminal ? "nobody (over)" : seatName(v.to_act));
  if (v.trump) add("trump", SUITS[v.trump] || v.trump);
  if (v.led_suit) add("led", SUITS[v.led_suit] || v.led_suit);
  for (const [k, val] of Object.entries(v.vars || {})) add(k.replace(/_/g, " "), val);
  for (const [k, val] of Object.entries(v)) if (!KNOWN_VIEW_KEYS.has(k)) add(k.replace(/_/g, " "), val);
}
function renderMe(v, mine) {
  const hand = myHand(v);
  const legal = mine ? v.legal_actions : [];
  const { cardActions, other } = classify(legal, hand);
  const sel = S.selected.map(i => hand[i]);
  const selCounts = counts(sel);
  const candidates = cardActions.filter(a => within(selCounts, a.need));
  const exact = candidates.filter(a => a.cards.length === sel.length);
  // a hand card is playable when adding it to the selection still fits some legal action
  const playable = new Set();
  hand.forEach((c, i) => {
    if (S.selected.includes(i)) return;
    const next = counts(sel.concat([c]));
    if (candidates.some(a => within(next, a.need))) playable.add(i);
  });
  const handBox = $("#hand");
  handBox.innerHTML = "";
  const groups = new Map();
  hand.forEach((c, i) => { const s = suitOf(c); if (!groups.has(s)) groups.set(s, []); groups.get(s).push(i); });
  const order = [...SUIT_ORDER.filter(s => groups.has(s)), ...[...groups.keys()].filter(s => !SUIT_ORDER.includes(s))];
  for (const s of order) {
    const g = document.createElement("div"); g.className = "suit-group";
    for (const i of groups.get(s)) {
      const cls = S.selected.includes(i) ? "selected" : (playable.has(i) ? "legal" : "");
      const el = cardEl(hand[i], cls);
      if (cls) el.onclick = () => clickCard(i);
      g.append(el);
    }
    handBox.append(g);
  }
  const box = $("#actions");
  box.innerHTML = "";
  for (const a of exact) {
    if (a.cards.length > 1 || exact.length > 1) box.append(actionButton(a.text, "action confirm"));
  }
  if (S.selected.length) {
    const b = document.createElement("button"); b.type = "button"; b.textContent = "clear selection";
    b.onclick = () => { S.selected = []; render(); }; box.append(b);
  }
  for (const t of other) box.append(actionButton(t, "action"));
  let prompt = "";
  if (v.terminal) prompt = "The match is over.";
  else if (mine) {
    const verbs = [...new Set(cardActions.map(a => a.verb || "play"))];
    prompt = "Your turn" + (cardActions.length ? ": click a highlighted card to " + verbs.join(" / ") : "") +
      (other.length ? (cardActions.length ? ", or choose an action" : ": choose an action") : "") + ".";
    if (cardActions.length && candidates.some(a => a.cards.length > sel.length) && S.selected.length)
      prompt += " Selected: " + sel.join(" ") + ".";
    if (v.legal_more)   // a long list is cut by the server (docs/protocol.md): any legal action may be typed
      prompt += " " + v.legal_count + " legal actions; the first " + v.legal_actions.length +
        " are offered here: type any other below.";
  } else if (S.seat !== null) prompt = "Waiting for " + seatName(v.to_act) + "\u2026";
  $("#prompt").textContent = prompt;
  $("#type-action").hidden = !mine;
}
function actionButton(text, cls) {
  const b = document.createElement("button");
  b.type = "button"; b.className = cls; b.textContent = text; b.dataset.action = text;
  b.onclick = () => act(text);
  return b;
}
function clickCard(i) {
  if (S.selected.includes(i)) { S.selected = S.selected.filter(x => x !== i); render(); return; }
  const v = S.view;
  const hand = myHand(v);
  const { cardActions } = classify(v.legal_actions || [], hand);
  const sel = S.selected.map(x => hand[x]).concat([hand[i]]);
  const selCounts = counts(sel);
  const candidates = cardActions.filter(a => within(selCounts, a.need));
  const exact = candidates.filter(a => a.cards.length === sel.length);
  // one card that makes exactly one action with nothing longer possible: play it at once
  if (sel.length === 1 && exact.length === 1 && candidates.length === 1) { act(exact[0].text); return; }
  S.selected = S.selected.concat([i]);
  render();
}
function renderScores(v) {
  const t = $("#scores");
  t.innerHTML = "";
  const over = [...S.events].reverse().find(e => e.type === "game_over");
  for (const [k, val] of Object.entries(v.scores || {})) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = seatName(+k);
    const td = document.createElement("td"); td.textContent = val;
    tr.append(th, td); t.append(tr);
  }
  const res = $("#result");
  res.hidden = !v.terminal;
  if (v.terminal) {
    res.innerHTML = "";
    const p = document.createElement("div");
    const winners = over && over.winner ? over.winner.map(w => seatName(+w)).join(", ") : "";
    // match: ranking: none (a game against the house): each seat's net result, no winner
    const net = over && over.net ? " Against the house: " + Object.entries(over.net).map(([k, x]) =>
      seatName(+k) + " " + (x > 0 ? "+" : "") + x).join(", ") + "." : "";
    p.textContent = "Game over." + (winners ? " Winner: " + winners + "." : "") + net + " Scores: " +
      Object.entries(v.scores).map(([k, x]) => seatName(+k) + " " + x).join(", ");
    const b = document.createElement("button"); b.type = "button"; b.textContent = "New table";
    b.onclick = backToLobby;
    res.append(p, b);
  }
}

// ---------- log ----------
function eventText(ev) {
  const seat = (s) => seatName(s);
  switch (ev.type) {
    case "deal_start": return "Deal " + ev.deal + " (dealer: " + seat(ev.dealer) + ")";
    case "deal": return ev.face_up ? ev.zone + " face up: " + ev.face_up.join(" ")
      : (ev.each ? "dealt " + ev.each + " cards each (" + ev.zone + ")" : (ev.count ? ev.zone + ": " + ev.count + " cards" : null));
    case "pass": return seat(ev.seat) + (ev.seat === S.seat ? " pass " : " passes ") +
      (ev.cards ? ev.cards.join(" ") : ev.count + (ev.count === 1 ? " card" : " cards")) + " to " + seat(ev.to);
    case "bid": return seat(ev.seat) + (ev.seat === S.seat ? " bid " : " bids ") + ev.bid;
    case "trump": return "trump: " + (ev.suit ? (SUITS[ev.suit] || ev.suit) : "none");
    case "trick": {
      const cards = ev.cards.map(([s, c]) => (s === S.seat ? "You" : "S" + s) + " " + c).join(", ");
      const cancelled = ev.cancelled && ev.cancelled.length ? "; cancelled " + ev.cancelled.join(" ") : "";
      const taker = ev.taker ?? ev.winner, next = ev.next_leader ?? ev.winner;
      let who = seat(ev.winner) + (ev.winner === S.seat ? " win" : " wins");
      if (taker !== ev.winner || next !== ev.winner)
        who = seat(taker) + (taker === S.seat ? " take" : " takes") + " the trick" + (next !== taker ? ", " + seat(next) + (next === S.seat ? " lead" : " leads") + " next" : "");
      return "Trick " + ev.number + ": " + cards + cancelled + " \u2192 " + (ev.carried ? "no winner, carried" : who);
    }
    case "deal_score": return "Deal score: " + Object.entries(ev.points).map(([k, x]) => seat(+k) + " " + x).join(", ");
    case "game_over": return "Game over: " + Object.entries(ev.scores).map(([k, x]) => seat(+k) + " " + x).join(", ");
    case "play": case "shuffle": case "deal_end": case "pass_chosen": return null;
    default: return ev.type.replace(/_/g, " ") + ": " + Object.entries(ev).filter(([k]) => k !== "type")
      .map(([k, x]) => (k === "seat" || k === "to") && typeof x === "number" ? seat(x) : k + " " + fmt(x)).join(", ");
  }
}
function appendLog(ev) {
  const text = eventText(ev);
  if (!text) return;
  const li = document.createElement("li");
  li.className = ev.type; li.textContent = text;
  const log = $("#log");
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

// ---------- start ----------
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  return p.get("table") ? { table: p.get("table"), token: p.get("token") } : null;
}
$("#ruleset").onchange = onRuleset;
$("#players").onchange = onPlayers;
$("#create-form").onsubmit = createTable;
$("#refresh-tables").onclick = listTables;
$("#leave").onclick = backToLobby;
$("#type-action").onsubmit = (e) => { e.preventDefault(); const t = $("#action-text").value.trim(); if (t) act(t); $("#action-text").value = ""; };
loadRulesets().then(() => {
  const h = fromHash();
  if (h) join(h.table, h.token); else listTables();
});
