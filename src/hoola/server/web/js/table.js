// The table page: one seat (or a spectator) at a table over the WebSocket protocol
// hoola-server/1. Everything drawn comes from the server's state messages; a move is sent as the
// notation of a legal move from view.legal, with the counter of the state it answers.

import { api, forgetSeat, make, savedSeat, SEAT_BOTS, serverNow, syncClock, wsUrl } from "./api.js";
import { cardElement, cardText, compareCards, faceOf, glyphText } from "./cards.js";
import { icon } from "./icons.js";
import { applyLabels, errorText, getLang, langButton, onLangChange, t } from "./i18n.js";
import { candidates, defaultMove, dropMoves, pick, readMove, usableCards, verbsOf } from "./moves.js";
import { logLine, markTrickWinner, middle, richText, scoreTable, seatPanel, seatPlaces, toldLine, zoneBox } from "./render.js";
import { tableTitle, touchOf } from "./touches/index.js";
import { botLevel, said, w, wordsReady } from "./words.js";
import { outcomeLine, paymentsTable } from "./settle.js";
import { after as feelAfter, before as feelBefore, claimed as feelClaimed, stoodIn } from "./feel.js";
import { labelCards, watchCards } from "./a11y.js";
import { dealsFlown, motionStats } from "./motion.js";
import { played, relabelSound, soundButton, soundOn } from "./sound.js";
import { draw as drawResultExtra, initResult, keepLog, rematchMade } from "./result.js";

const $ = (id) => document.getElementById(id);
const tid = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);

const S = {
  seat: savedSeat(tid),            // {token, seat, name, host} when this browser holds a seat
  invite: params.get("invite"),
  ws: null, connected: false, retry: 0, closing: false,
  welcome: null, msg: null, game: null, touch: {}, info: null,
  moves: [], slots: [], nextId: 1, picked: new Set(), sort: "suit",
  decided: null, hints: localStorage.getItem("hoola.hints") === "1", hint: null,
  lastDeal: 0, lastStatus: null, shownResult: null, dragging: null, announced: [],
};

// -- connection ----------------------------------------------------------------------------

function connect() {
  const ws = new WebSocket(wsUrl(tid));
  S.ws = ws;
  ws.addEventListener("open", () => {
    S.retry = 0;
    const hello = S.seat ? { type: "hello", token: S.seat.token }
      : { type: "hello", invite: S.invite || "" };
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    S.connected = false;
    showConnection();
    if (S.closing) return;
    const wait = Math.min(5000, 500 * 2 ** S.retry++);
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(message));
    return true;
  }
  toast(t("s.reconnecting"));
  return false;
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      S.welcome = msg;
      S.connected = true;
      $("chat").replaceChildren();
      showConnection();
      break;
    case "state":
      onState(msg);
      break;
    case "chat": {
      const li = make("li", "chat-line");
      li.appendChild(make("b", "", msg.name + ": "));
      li.appendChild(document.createTextNode(msg.text));
      $("chat").appendChild(li);
      li.scrollIntoView({ block: "nearest" });
      if (!$("tab-chat").classList.contains("active")) $("tab-btn-chat").classList.add("unread");
      break;
    }
    case "claim": {
      const key = msg.result === "won" ? "claim.won" : "claim.lost";
      const line = t(key, { action: msg.action, winner: msg.winner });
      toast(line, msg.result === "won" ? "good" : "bad");
      // The line goes just after the action that stood (in the log already, or the next line
      // to come), and stays there: a later deal's log does not show it.
      const m = S.msg;
      const lines = m ? logLines(m) : [];
      const stood = lines.lastIndexOf(msg.winner);
      const at = stood >= 0 && stood >= lines.length - 3 ? stood + 1 : lines.length + 1;
      S.claims = (S.claims || []).concat([{ ...msg, line, deal: m ? m.deal : 0, at,
        counter: m ? m.counter : 0 }]);
      if (S.msg) { $("log").dataset.key = ""; renderLog(); }
      break;
    }
    case "claimed": {
      announceClaim(msg);
      const skipped = S.msg ? feelClaimed(msg, S.msg.names) : null;
      if (skipped) toast(skipped);
      break;
    }
    case "standin": {
      const line = stoodIn(msg);
      if (line) toast(line, "bad");
      break;
    }
    case "rematch":
      rematchMade(msg.table_id);
      break;
    case "error":
      if (msg.code === "stale") { send({ type: "state" }); }
      S.decided = null;
      if (msg.code === "bad-token") {
        forgetSeat(tid);
        S.closing = true;
        toast(errorText(msg.code, msg.message), "bad");
        $("conn").textContent = errorText(msg.code, msg.message);
        return;
      }
      toast(errorText(msg.code, msg.message), "bad");
      render();
      break;
    default:
      break;
  }
}

function showConnection() {
  const c = $("conn");
  c.textContent = S.connected ? "" : t("s.reconnecting");
  c.classList.toggle("bad", !S.connected);
  document.body.classList.toggle("offline", !S.connected);
}

// -- state ---------------------------------------------------------------------------------

function me() {
  const m = S.msg;
  return m && typeof m.seat === "number" ? m.seat : null;
}

function onState(msg) {
  const first = S.msg === null;
  const felt = feelBefore(S.msg, me());
  const pausedBefore = S.msg ? S.msg.between : null;
  const prevDeal = S.lastDeal, prevStatus = S.lastStatus;
  S.msg = msg;
  if (S.decided !== null && S.decided !== msg.counter) S.decided = null;
  if (!S.game || S.game !== msg.game) {
    S.game = msg.game;
    S.touch = touchOf(msg.game);
    S.sort = (S.touch.sorts || ["suit", "rank", "manual"])[0];
  }
  const name = msg.seat !== null && msg.seat !== undefined && msg.names ? msg.names[msg.seat] : null;
  S.moves = msg.view && msg.view.legal ? msg.view.legal.map((x) => readMove(x, name)) : [];
  updateSlots();
  S.lastDeal = msg.deal;
  S.lastStatus = msg.status;
  // In a window with nothing to claim, let it pass at once: the server waits for every seat
  // in it (so that who can claim stays hidden), and there is nothing here to decide.
  if (canAct() && msg.can_pass && S.moves.length === 0) {
    passMoment();
    return;
  }
  render();
  followChooser();
  feelAfter(felt, msg, { me: me(), myTurn: canAct() && !msg.can_pass && !mayClaim(),
    mayClaim: canAct() && mayClaim() });
  // Between two deals the table waits with the result shown (until everyone pressed Continue
  // or its countdown ran out); the next deal closes it. A table that does not wait shows the
  // result as the next deal is dealt.
  const pause = msg.between;
  if (msg.status === "over" && (prevStatus === "playing" || first)) {
    keepLog(msg.deal - 1);
    showResult(msg.deal - 1, true);
  } else if (pause && (!pausedBefore || pausedBefore.deal !== pause.deal)) {
    keepLog(pause.deal);
    showResult(pause.deal, false, true);
  } else if (pause) {
    drawResultExtra();
  } else if (pausedBefore) {
    if (S.shownResult && S.shownResult.deal === pausedBefore.deal) $("result").hidden = true;
  } else if (prevDeal && msg.deal > prevDeal) showResult(prevDeal - 1, false);
  maybeHint();
}

function handCards() {
  const m = S.msg;
  if (!m || !m.table || me() === null) return [];
  const zone = m.table.zones.find((z) => z.kind === "hand" && z.owner === me());
  return zone && zone.cards ? zone.cards : [];
}

/** Keep the hand's slots (and the picked ones) across states: cards still held keep their
 * place, new cards come in at the end, then the sort applies. */
function updateSlots() {
  const cards = handCards().slice();
  const kept = [];
  for (const slot of S.slots) {
    const i = cards.indexOf(slot.code);
    if (i >= 0) { cards.splice(i, 1); kept.push({ ...slot, fresh: false }); }
  }
  for (const code of cards) kept.push({ id: S.nextId++, code, fresh: S.slots.length > 0 });
  S.slots = kept;
  const ids = new Set(kept.map((s) => s.id));
  for (const id of [...S.picked]) if (!ids.has(id)) S.picked.delete(id);
  applySort();
}

function applySort() {
  if (S.sort === "manual") return;
  if (S.sort === "groups" && S.touch.groups) {
    const groups = S.touch.groups(S.slots.map((s) => s.code));
    const pool = S.slots.slice();
    const out = [];
    groups.forEach((g, gi) => {
      g.forEach((code, ci) => {
        const i = pool.findIndex((s) => s.code === code);
        if (i >= 0) { out.push({ ...pool[i], group: gi, groupStart: ci === 0 }); pool.splice(i, 1); }
      });
    });
    S.slots = out.concat(pool);
    return;
  }
  const byRank = S.sort === "rank";
  S.slots.sort((a, b) => compareCards(a.code, b.code, byRank));
  S.slots = S.slots.map((s) => ({ ...s, group: undefined, groupStart: false }));
}

function pickedCodes() {
  return S.slots.filter((s) => S.picked.has(s.id)).map((s) => faceOf(s.code));
}

function ctx() {
  return { msg: S.msg, view: S.msg && S.msg.view, table: S.msg && S.msg.table, me: me(),
    moves: S.moves, picked: pickedCodes(), lang: getLang(), t,
    options: S.info && S.info.options };
}

function canAct() {
  const m = S.msg;
  return m && m.status === "playing" && me() !== null && m.asked && S.decided !== m.counter;
}

// -- acting --------------------------------------------------------------------------------

function act(move) {
  if (!canAct()) return;
  if (send({ type: "act", action: move.text, counter: S.msg.counter })) {
    S.decided = S.msg.counter;
    S.picked.clear();
    closeChooser();
    render();
  }
}

function passMoment() {
  if (!canAct() || !S.msg.can_pass) return;
  if (send({ type: "pass", counter: S.msg.counter })) {
    S.decided = S.msg.counter;
    S.picked.clear();
    closeChooser();
    render();
  }
}

function whyNot(verb) {
  const m = S.msg;
  if (!m || m.status !== "playing") return t("why.over");
  if (me() === null) return t("why.watch");
  if (S.decided === m.counter) return t("why.decided");
  const prompt = (m.table && m.table.moment && m.table.moment.prompt) || "";
  if (!m.asked) {
    const turn = m.table && m.table.moment ? m.table.moment.turn : null;
    const who = turn !== null && turn !== undefined ? `${m.names[turn]} ${t("s.turn")}` : prompt;
    return t("why.turn", { who });
  }
  const ofVerb = S.moves.filter((x) => x.verb === verb);
  const picked = pickedCodes();
  const own = S.touch.whyNot && S.touch.whyNot(verb, ctx());
  if (own && (!ofVerb.length || !candidates(S.moves, verb, picked).length)) return own;
  if (!ofVerb.length) {
    if (["meld", "add", "discard"].includes(verb) && S.moves.some((x) => x.verb === "draw")) {
      return t("why.first");
    }
    return pickedWhy(verb, picked) || w("web.why.cannot", { verb: verbLabel(verb) });
  }
  if (!candidates(S.moves, verb, picked).length) {
    if (S.touch.several && S.touch.several(verb, ctx())) return null;  // several moves at once
    return pickedWhy(verb, picked) || t("why.cards");
  }
  return null;
}

/** Why the picked cards make no move of ``verb``: the rule they break, in the game's words. */
function pickedWhy(verb, picked) {
  if (!picked.length) return null;
  const cards = picked.map(cardText).join(" ");
  if (verb === "meld") return w("web.why.not-meld", { cards });
  if (verb === "add") return w("web.why.no-fit", { cards });
  return null;
}

function verbLabel(verb) {
  return S.touch.verbLabel ? S.touch.verbLabel(verb, ctx()) : verb;
}

function clickVerb(verb) {
  const reason = whyNot(verb);
  if (reason) { toast(reason); return; }
  const picked = pickedCodes();
  const found = candidates(S.moves, verb, picked);
  const first = !found.length && S.touch.several ? S.touch.several(verb, ctx()) : null;
  if (first) {
    // Several melds picked at once: lay the first; the others stay picked for the next press.
    const used = first.hand.slice();
    const keep = S.slots.filter((s) => {
      if (!S.picked.has(s.id)) return false;
      const i = used.indexOf(faceOf(s.code));
      if (i >= 0) { used.splice(i, 1); return false; }
      return true;
    }).map((s) => s.id);
    act(first);
    for (const id of keep) S.picked.add(id);
    render();
    return;
  }
  // A move of one card from the hand (a discard, a card played) is made by picking that card:
  // a list of every card in the hand would only repeat the hand.
  if (!picked.length && found.length > 1 && found.every((m) => m.hand.length === 1)) {
    toast(verb === "discard" ? w("web.why.pick-discard") : w("web.why.pick"));
    return;
  }
  const choice = pick(S.moves, verb, picked);
  if (!choice) return;
  if (choice.act) act(choice.act);
  else openChooser(choice.choose);
}

// -- chooser -------------------------------------------------------------------------------

function moveLabel(move) {
  const label = S.touch.verbLabel ? S.touch.verbLabel(move.verb, ctx()) : move.verb;
  return `${label} ${move.label.split(" ").slice(0).join(" ")}`.trim();
}

function openChooser(moves) {
  const box = $("chooser-list");
  box.replaceChildren();
  moves.slice(0, 40).forEach((move, i) => {
    const b = make("button", "choice");
    b.dataset.move = move.text;
    b.appendChild(make("span", "choice-key", i < 9 ? String(i + 1) : ""));
    const row = make("span", "choice-cards");
    row.appendChild(make("span", "choice-verb", S.touch.verbLabel ? S.touch.verbLabel(move.verb, ctx()) : move.verb));
    for (const w of move.args) {
      if (/^(on|with|for|to)$/i.test(w) || !/^(JK(=\S+)?|10[shdc]|[2-9TJQKA][shdc])$/i.test(w)) {
        row.appendChild(make("span", "choice-word", w));
      } else {
        row.appendChild(cardElement(w, "tiny"));
      }
    }
    b.appendChild(row);
    b.addEventListener("click", () => act(move));
    box.appendChild(b);
  });
  $("chooser-more").hidden = moves.length <= 9;
  $("chooser").hidden = false;
  const first = box.querySelector("button");
  if (first) first.focus();
}

function closeChooser() { $("chooser").hidden = true; }

/** A new state: an open chooser keeps only the choices still legal now, and closes when none
 * is left or this seat is no longer asked (a stand-in bot played, the window closed). */
function followChooser() {
  if ($("chooser").hidden) return;
  const legal = new Set(canAct() ? S.moves.map((m) => m.text) : []);
  const buttons = [...$("chooser-list").querySelectorAll("button[data-move]")];
  const kept = buttons.filter((b) => legal.has(b.dataset.move));
  if (!kept.length) { closeChooser(); return; }
  if (kept.length === buttons.length) return;
  openChooser(S.moves.filter((m) => kept.some((b) => b.dataset.move === m.text)));
}

// -- hints ---------------------------------------------------------------------------------

async function maybeHint() {
  const m = S.msg;
  const box = $("hint");
  if (!S.hints || !m || !S.seat || m.status !== "playing" || !m.asked) {
    box.hidden = !S.hints || !m || !m.asked;
    if (!m || !m.asked) S.hint = null;
    markHint();
    return;
  }
  box.hidden = false;
  if (S.hint && S.hint.counter === m.counter) return;
  S.hint = { counter: m.counter, data: null };
  box.textContent = t("hint.loading");
  try {
    const data = await api(`/api/tables/${encodeURIComponent(tid)}/hint`, { token: S.seat.token });
    if (!S.hint || S.hint.counter !== m.counter) return;
    S.hint.data = data;
    box.replaceChildren();
    box.appendChild(make("span", "hint-icon")).appendChild(icon("hint"));
    // The move in the page's words (the touch's verb, the cards as glyphs); the expert's reason
    // where it has words in this language (a keyed reason, or the English page).
    const why = getLang() === "en" ? data.why : data.say ? said(data.say) : "";
    if (data.action) {
      const move = readMove(data.action, S.msg.names[me()]);
      box.appendChild(richText("span", "hint-move", w("web.hint", { move: `${verbLabel(move.verb)} ${move.args.join(" ")}`.trim() })));
    } else if (!why) box.appendChild(make("span", "", t("hint.none")));
    if (why) box.appendChild(richText("span", "hint-why", why));
    markHint();
  } catch (err) {
    box.textContent = errorText(err.code, err.message);
  }
}

function markHint() {
  for (const n of document.querySelectorAll(".hinted")) n.classList.remove("hinted");
  if (!S.hints || !S.hint || !S.hint.data || !S.hint.data.action || !S.msg) return;
  const move = readMove(S.hint.data.action, S.msg.names[me()]);
  const want = move.hand.slice();
  for (const node of document.querySelectorAll("#hand .card")) {
    const i = want.indexOf(faceOf(node.dataset.card));
    if (i >= 0) { node.classList.add("hinted"); want.splice(i, 1); }
  }
  const button = document.querySelector(`#verbs button[data-verb="${CSS.escape(move.verb)}"]`);
  if (button) button.classList.add("hinted");
}

// -- drawing -------------------------------------------------------------------------------

function render() {
  const m = S.msg;
  if (!m) return;
  document.body.dataset.game = m.game;
  document.body.dataset.status = m.status;
  document.body.classList.toggle("spectator", me() === null);
  $("title").textContent = tableTitle(m.game, S.info && S.info.title, m.rules, S.info && S.info.preset);
  $("deal").textContent = m.deal ? t("r.deal", { n: m.deal }) : "";
  $("waiting").hidden = m.status !== "waiting";
  $("board").classList.toggle("is-waiting", m.status === "waiting");
  if (m.status === "waiting") renderWaiting();
  const table = m.table;
  const others = $("others");
  others.replaceChildren();
  $("middle-zones").replaceChildren();
  $("my-area").replaceChildren();
  if (table) {
    const mine = me();
    // Around the table in play order: the person at the bottom, the others clockwise from
    // their left (a spectator looks on from the first seat's place).
    const sides = {};
    for (const side of ["left", "top", "right", "bottom"]) {
      sides[side] = make("div", `seats seats-${side}`);
      sides[side].dataset.side = side;
      others.appendChild(sides[side]);
    }
    document.body.dataset.seats = String(table.names.length);
    for (const [q, side] of seatPlaces(table.names.length, mine)) {
      if (q === mine) continue;
      const panel = seatPanel(table, q, { seats: m.seats, me: mine, moment: m.moment,
        openHand: true, timer: timerFor(q) });
      panel.dataset.side = side;
      sides[side].appendChild(panel);
    }
    const mid = middle(table, S.touch.zone ? (z) => S.touch.zone(z, ctx()) : null);
    const winner = S.touch.winner ? S.touch.winner(ctx()) : null;
    if (winner) {
      const trick = mid.querySelector(".zone-trick");
      const zone = table.zones.find((z) => z.kind === "trick");
      if (trick && zone) markTrickWinner(trick, zone, winner);
    }
    $("middle-zones").appendChild(mid);
    if (mine !== null) renderMine(table, mine);
    wireDrops();
  }
  $("prompt").replaceChildren(richText("span", "",
    table && table.moment ? said(table.moment.say || table.moment.prompt) : ""));
  $("prompt").classList.toggle("asked", !!m.asked && S.decided !== m.counter);
  const touch = $("touch");
  touch.replaceChildren();
  const extra = S.touch.panel ? S.touch.panel(ctx()) : null;
  if (extra) touch.appendChild(extra);
  renderActions();
  renderLog();
  $("scoreboard").replaceChildren(scoreTable(m.scoreboard));
  $("result-button").hidden = !S.shownResult;
  updateTimers();
  markHint();
}

/** The turn timer, on the seat whose turn it is alone: a claim window's countdown is shown once,
 * on the claim's banner, to those who may claim. */
function timerFor(seat) {
  const m = S.msg;
  const turn = m.table && m.table.moment ? m.table.moment.turn : null;
  if (!m.moment || turn !== seat || !m.moment.actors.includes(seat)) return null;
  const span = make("span", "badge timer");
  if (m.moment.turn_deadline) span.dataset.deadline = m.moment.turn_deadline;
  return m.moment.turn_deadline ? span : null;
}

function renderMine(table, mine) {
  const area = $("my-area");
  const panel = seatPanel({ ...table, zones: table.zones.filter((z) => z.owner === mine) }, mine,
    { seats: S.msg.seats, me: mine, moment: S.msg.moment, timer: timerFor(mine) });
  panel.classList.add("mine");
  if (S.msg.asked && S.decided !== S.msg.counter) panel.classList.add("asked");
  // What the hand allows now, from the game's own cues (Hoola: points, the knock limit, a blast).
  if (table.cues && table.cues.length) {
    const cues = make("div", "cues");
    cues.id = "cues";
    cues.textContent = table.cues.map((c) => said(c)).join(" · ");
    panel.appendChild(cues);
  }
  area.appendChild(panel);
  const hand = $("hand");
  hand.replaceChildren();
  const usable = usableCards(S.moves);
  S.slots.forEach((slot, i) => {
    const card = cardElement(slot.code);
    card.dataset.slot = i;
    card.dataset.id = slot.id;
    card.draggable = true;
    if (S.picked.has(slot.id)) card.classList.add("picked");
    if (usable.has(faceOf(slot.code))) card.classList.add("usable");
    if (slot.fresh) card.classList.add("fresh");
    if (slot.groupStart && i > 0) card.classList.add("group-start");
    if (i < 20) card.appendChild(make("span", "key", `${i >= 10 ? "⇧" : ""}${(i + 1) % 10}`));
    card.addEventListener("click", () => togglePick(slot.id));
    card.addEventListener("dragstart", (e) => {
      S.dragging = slot.id;
      e.dataTransfer.setData("text/plain", String(slot.id));
      e.dataTransfer.effectAllowed = "move";
      card.classList.add("dragging");
    });
    card.addEventListener("dragend", () => { S.dragging = null; card.classList.remove("dragging"); });
    card.addEventListener("dragover", (e) => { e.preventDefault(); });
    card.addEventListener("drop", (e) => {
      e.preventDefault();
      e.stopPropagation();
      const from = S.slots.findIndex((s) => s.id === Number(e.dataTransfer.getData("text/plain")));
      if (from < 0 || from === i) return;
      const [moved] = S.slots.splice(from, 1);
      S.slots.splice(S.slots.findIndex((s) => s.id === slot.id) + (from < i ? 1 : 0), 0, moved);
      S.sort = "manual";
      render();
    });
    hand.appendChild(card);
  });
  hand.classList.toggle("empty", !S.slots.length);
}

function togglePick(id) {
  if (S.picked.has(id)) S.picked.delete(id); else S.picked.add(id);
  render();
}

function wireDrops() {
  const zones = S.msg.table.zones;
  for (const node of document.querySelectorAll("#board .zone[data-zone]")) {
    const zone = zones.find((z) => z.id === node.dataset.zone);
    if (!zone || !["discard", "meld", "trick"].includes(zone.kind)) continue;
    node.addEventListener("dragover", (e) => { e.preventDefault(); node.classList.add("drop-here"); });
    node.addEventListener("dragleave", () => node.classList.remove("drop-here"));
    node.addEventListener("drop", (e) => {
      e.preventDefault();
      node.classList.remove("drop-here");
      const slot = S.slots.find((s) => s.id === Number(e.dataTransfer.getData("text/plain")));
      if (slot) dropOn(slot, zone);
    });
    node.addEventListener("click", () => {
      const picked = S.slots.filter((s) => S.picked.has(s.id));
      if (picked.length === 1 && zone.kind === "meld") dropOn(picked[0], zone);
    });
  }
}

function dropOn(slot, zone) {
  const found = dropMoves(S.moves, slot.code, zone);
  if (found.length === 1) act(found[0]);
  else if (found.length > 1) openChooser(found);
  else toast(whyNot(zone.kind === "discard" ? "discard" : zone.kind === "trick" ? "play" : "add")
    || t("why.cards"));
}

function renderActions() {
  const m = S.msg;
  const verbs = $("verbs");
  verbs.replaceChildren();
  if (me() === null || m.status !== "playing") {
    $("actions").hidden = me() === null || m.status !== "playing";
    return;
  }
  $("actions").hidden = false;
  const order = S.touch.verbs || [];
  const shown = [];
  for (const v of S.touch.core || []) if (!shown.includes(v)) shown.push(v);
  for (const v of verbsOf(S.moves)) if (!shown.includes(v)) shown.push(v);
  shown.sort((a, b) => (order.includes(a) ? order.indexOf(a) : 99) - (order.includes(b) ? order.indexOf(b) : 99));
  const c = ctx();
  for (const verb of shown) {
    const b = make("button", "verb");
    b.dataset.verb = verb;
    b.textContent = S.touch.verbLabel ? S.touch.verbLabel(verb, c) : verb;
    const extra = S.touch.verbClass ? S.touch.verbClass(verb, c) : "";
    if (extra) b.classList.add(extra);
    const reason = whyNot(verb);
    b.setAttribute("aria-disabled", reason ? "true" : "false");
    b.dataset.legal = reason ? "false" : "true";
    b.classList.toggle("legal", !reason);
    b.title = glyphText(reason || "");
    const n = candidates(S.moves, verb, c.picked).length;
    if (!reason && n > 1) b.appendChild(make("span", "many", `×${n}`));
    b.addEventListener("click", () => clickVerb(verb));
    verbs.appendChild(b);
  }
  const pass = $("pass");
  const canPass = canAct() && m.can_pass;
  // Nothing to let pass where nothing could be taken (a seat's own discard).
  pass.hidden = !(m.can_pass && m.asked && S.moves.length);
  pass.setAttribute("aria-disabled", canPass ? "false" : "true");
  pass.dataset.legal = canPass ? "true" : "false";
  pass.title = canPass ? "" : t("why.decided");
  $("decided").hidden = !(S.decided === m.counter);
  const sorts = S.touch.sorts || ["suit", "rank", "manual"];
  $("sort").textContent = t(`b.sort.${S.sort}`);
  $("sort").dataset.sorts = sorts.join(" ");
  $("clear").hidden = S.picked.size === 0;
  $("hint-toggle").classList.toggle("on", S.hints);
  $("hint-toggle").setAttribute("aria-pressed", S.hints ? "true" : "false");
}

/** The log of this deal: the seat's whole history, its lines written as the table's own log
 * writes them where the page has seen those (the table's log may say more: the card taken from
 * a pile); a spectator has the table's log alone. */
function logLines(m) {
  const history = m.view && m.view.history ? m.view.history : null;
  const tail = m.table && m.table.log ? m.table.log : [];
  if (!history) return tail;
  if (!S.logCache || S.logCache.deal !== m.deal) S.logCache = { deal: m.deal, lines: [] };
  const cache = S.logCache.lines;
  const from = history.length - tail.length;
  tail.forEach((line, i) => {
    // The same action, said with more words: the history's line starts the log's.
    if (from + i >= 0 && (line === history[from + i] || line.startsWith(`${history[from + i]} `))) {
      cache[from + i] = line;
    }
  });
  return history.map((line, i) => (cache[i] && cache[i].startsWith(line) ? cache[i] : line));
}

function renderLog() {
  const m = S.msg;
  const lines = logLines(m).map((line) => toldLine(line, S.touch, { ...ctx(), view: null, moves: [] }));
  const log = $("log");
  const claims = (S.claims || []).filter((c) => c.deal === m.deal);
  const key = `${getLang()}:${m.deal}:${lines.length}:${claims.length}:${lines[lines.length - 1] || ""}`;
  if (log.dataset.key === key) return;
  log.dataset.key = key;
  log.replaceChildren();
  const start = Math.max(0, lines.length - 200);
  const claimLine = (c) => {
    const li = logLine(c.line);
    li.classList.add("claim-line", `claim-${c.result}`);
    li.dataset.claim = c.result;
    return li;
  };
  lines.forEach((line, i) => {
    if (i >= start) log.appendChild(logLine(line)).value = i + 1;
    for (const c of claims) if (c.at === i + 1 && i >= start) log.appendChild(claimLine(c));
  });
  // A claim whose line has not come yet waits at the end, for the next state alone: a line
  // that never came (the deal moved on) is not pinned under later ones.
  for (const c of claims) if (c.at > lines.length && m.counter <= c.counter + 1) log.appendChild(claimLine(c));
  log.scrollTop = log.scrollHeight;
}

function renderWaiting() {
  const m = S.msg;
  const box = $("waiting-seats");
  box.replaceChildren();
  const host = S.seat && S.seat.host;
  for (const s of m.seats) {
    const li = make("li", `wait-seat kind-${s.kind}`);
    li.appendChild(make("b", "", `${s.seat + 1}. ${s.name}`));
    li.appendChild(make("span", "badge", s.kind === "bot" ? `${t("s.bot")} ${botLevel(s.bot)}`.trim()
      : s.kind === "empty" ? t("t.empty") : s.connected ? "●" : t("s.away")));
    if (host && s.kind === "empty") {
      const sel = make("select", "bot-kind");
      for (const k of ["medium", ...SEAT_BOTS.filter((b) => b !== "medium")]) {
        const o = make("option", "", w(`web.bot.${k}`));
        o.value = k;
        sel.appendChild(o);
      }
      const b = make("button", "give-bot", t("w.givebot"));
      b.addEventListener("click", async () => {
        try {
          await api(`/api/tables/${encodeURIComponent(tid)}/seats/${s.seat}/bot`,
            { method: "POST", body: { bot: sel.value }, token: S.seat.token });
        } catch (err) { toast(errorText(err.code, err.message), "bad"); }
      });
      li.append(sel, b);
    }
    box.appendChild(li);
  }
  const origin = S.origin || location.origin;
  const invite = S.info && S.info.invite ? `${origin}/join/${tid}?invite=${S.info.invite}`
    : S.seat && S.seat.invite ? `${origin}/join/${tid}?invite=${S.seat.invite}` : "";
  $("invite-link").value = invite;
  $("invite-row").hidden = !invite;
  const start = $("start");
  start.hidden = !host;
  start.disabled = m.seats.some((s) => s.kind === "empty");
  $("wait-host").hidden = !!host;
}

// -- results -------------------------------------------------------------------------------

async function showResult(deal, final, paused = false) {
  if (deal < 0) return;
  const mine = me();
  let snap = null;
  try {
    const seat = mine === null ? "all" : String(mine);
    snap = await api(`/api/tables/${encodeURIComponent(tid)}/replay?deal=${deal}&step=-1&seat=${seat}`,
      { token: S.seat && S.seat.token });
  } catch (err) {
    snap = null;
  }
  S.shownResult = { deal, final, snap };
  drawResult();
  // The pause may have ended while the settlement was fetched: the next deal is on the table.
  if (paused && !(S.msg && S.msg.between && S.msg.between.deal === deal)) return;
  $("result").hidden = false;
  const next = $("result-continue") || $("result-rematch");  // Enter goes on, for the keyboard
  if (next) next.focus();
  $("result-button").hidden = false;
}

function drawResult() {
  const r = S.shownResult;
  if (!r) return;
  const body = $("result-body");
  body.replaceChildren();
  $("result-title").textContent = r.final ? t("res.final") : t("res.title", { n: r.deal + 1 });
  const snap = r.snap;
  if (snap) {
    const table = snap.table;
    const end = outcomeLine(table);
    if (end) body.appendChild(end);
    const told = S.touch.result ? S.touch.result(table, ctx()) : null;
    if (told) body.appendChild(told);
    const deal = scoreTable({ names: table.names, teams: table.teams, scores: table.scores });
    deal.id = "settlement";
    deal.querySelectorAll("tr[data-row]").forEach((tr) => { tr.dataset.name = tr.firstChild.textContent; });
    body.appendChild(deal);
    const payments = paymentsTable(table);
    if (payments) body.appendChild(payments);
    else if (snap.settlement && snap.settlement.length) {
      const ol = make("ul", "settlement-lines");
      for (const line of snap.settlement) ol.appendChild(logLine(line));
      body.appendChild(ol);
    }
    const hands = make("div", "result-hands");
    for (const z of table.zones) {
      if (z.kind === "hand" && z.cards && z.cards.length) hands.appendChild(zoneBox(z, { cls: "small" }));
    }
    body.appendChild(hands);
    body.appendChild(make("h3", "", t("res.score")));
    body.appendChild(scoreTable(snap.scoreboard));
  } else if (S.msg) {
    body.appendChild(scoreTable(S.msg.scoreboard));
  }
  const link = $("result-replay");
  link.hidden = !(S.msg && S.msg.status === "over");
  drawResultExtra();
  link.href = `/replay/${encodeURIComponent(tid)}`;
}

// -- timers --------------------------------------------------------------------------------

function updateTimers() {
  const m = S.msg;
  const now = serverNow();
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Math.ceil(Number(node.dataset.deadline) - now));
    node.replaceChildren(icon("timer"), t("timer.turn", { s: left }));
    node.classList.toggle("low", left <= 10);
  }
  const cd = $("countdown");
  if (m && m.moment && m.moment.window && m.moment.window_deadline && !m.moment.closed &&
      mayClaim()) {
    const left = Math.max(0, m.moment.window_deadline - now);
    cd.hidden = false;
    $("countdown-text").textContent = t("timer.claim", { s: left.toFixed(1) });
    const total = S.windowTotal && S.windowTotal.counter === m.counter ? S.windowTotal.total
      : (S.windowTotal = { counter: m.counter, total: Math.max(left, 0.1) }).total;
    $("countdown-fill").style.width = `${Math.min(100, (100 * left) / total)}%`;
  } else {
    cd.hidden = true;
  }
}

/** Whether this seat is in a window with something to take in it (the window's countdown is
 * theirs; the seat to move has its turn timer, the others nothing to decide). */
function mayClaim() {
  const m = S.msg;
  const turn = m.table && m.table.moment ? m.table.moment.turn : null;
  return !!(m.asked && m.can_pass && S.moves.length && me() !== turn);
}

// -- claims called out ---------------------------------------------------------------------

/** A claim out of turn that stood, called out to the whole table for a moment ("Alice: 땡큐!"). */
function announceClaim(msg) {
  S.announced.push(msg);
  drawAnnouncement(msg);
  const banner = $("announce");
  banner.hidden = false;
  clearTimeout(S.announceTimer);
  S.announceTimer = setTimeout(() => { banner.hidden = true; }, 2500);
}

function drawAnnouncement(msg) {
  const key = S.touch.claimWords || "claim.claimed";  // Hoola's players say "Thank you!"
  const words = msg.action.split(" ").slice(1).join(" ");
  const banner = $("announce");
  banner.replaceChildren(richText("span", "", t(key, { name: msg.name, action: words })));
  banner.dataset.seat = String(msg.seat);
}

// -- keys ----------------------------------------------------------------------------------

function onKey(e) {
  const target = e.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const chooserOpen = !$("chooser").hidden;
  if (e.key === "Escape") {
    e.preventDefault();
    if (chooserOpen) closeChooser();
    else if (!$("result").hidden) $("result").hidden = true;
    else if (S.picked.size) { S.picked.clear(); render(); }
    else passMoment();
    return;
  }
  if (chooserOpen) {
    if (/^[1-9]$/.test(e.key)) {
      const b = $("chooser-list").querySelectorAll("button")[Number(e.key) - 1];
      if (b) { e.preventDefault(); b.click(); }
    }
    return;
  }
  // 1-9 and 0 pick the first ten cards, Shift with them the next ten (a hand of 13-15).
  const digit = /^Digit([0-9])$/.exec(e.code || "") || (/^[0-9]$/.test(e.key) ? [0, e.key] : null);
  if (digit) {
    const i = (digit[1] === "0" ? 9 : Number(digit[1]) - 1) + (e.shiftKey ? 10 : 0);
    const slot = S.slots[i];
    if (slot) { e.preventDefault(); togglePick(slot.id); }
    return;
  }
  if (e.key === "Enter") {
    // A button of the play (a move, a choice, a dialog's) does its own; a top-bar button
    // clicked before (language, hints, sort) does not keep Enter from playing the cards.
    if (target && target.tagName === "BUTTON" && !target.closest(".topbar, #actions > .small")) return;
    e.preventDefault();
    if (target && target.tagName === "BUTTON") target.blur();
    const move = canAct() ? defaultMove(S.moves, pickedCodes()) : null;
    if (move) act(move);
    else if (canAct()) toast(pickedCodes().length ? t("why.cards") : w("web.why.pick"));
    return;
  }
  const key = e.key.toLowerCase();
  const verbKey = S.touch.keys && S.touch.keys[key];
  if (verbKey && canAct() && S.moves.some((x) => x.verb === verbKey)) {
    e.preventDefault();
    clickVerb(S.touch.keys[key]);
    return;
  }
  if (key === "s") { e.preventDefault(); cycleSort(); }
  else if (key === "h") { e.preventDefault(); toggleHints(); }
}

function cycleSort() {
  const sorts = S.touch.sorts || ["suit", "rank", "manual"];
  S.sort = sorts[(sorts.indexOf(S.sort) + 1) % sorts.length];
  if (S.sort === "manual") S.sort = sorts[0];
  applySort();
  render();
}

function toggleHints() {
  S.hints = !S.hints;
  localStorage.setItem("hoola.hints", S.hints ? "1" : "0");
  S.hint = null;
  render();
  maybeHint();
}

// -- little things -------------------------------------------------------------------------

/** A wrong table address: a page that says so, in place of an empty table. */
function noSuchTable() {
  document.body.classList.add("no-such-table");
  $("layout").hidden = true;
  const box = make("section", "panel no-table");
  box.id = "no-table";
  const draw = () => {
    box.replaceChildren(make("h1", "", w("web.notable.title")),
      make("p", "", w("web.notable.text", { id: tid })));
    const back = make("a", "button primary", w("web.notable.back"));
    back.href = "/";
    box.appendChild(back);
  };
  draw();
  onLangChange(draw);
  document.body.appendChild(box);
  document.title = w("web.notable.title");
}

export function toast(text, kind = "") {
  const box = richText("div", `toast ${kind}`, text);
  $("toasts").appendChild(box);
  setTimeout(() => box.remove(), 3500);
}

async function leave() {
  if (S.seat) {
    try {
      await api(`/api/tables/${encodeURIComponent(tid)}/leave`, { method: "POST", token: S.seat.token });
    } catch { /* the table may be over */ }
  }
  location.href = "/";
}

async function init() {
  applyLabels(document);
  langButton($("lang"));
  onLangChange(() => {
    render();
    drawResult();
    if (S.announced.length) drawAnnouncement(S.announced[S.announced.length - 1]);
    relabelSound();
    labelCards(document);
  });
  soundButton($("sound"));
  watchCards();
  initResult({ tid, msg: () => S.msg, seat: () => S.seat, send, toast,
    shown: () => S.shownResult, rated: () => !!(S.info && S.info.rated) });
  await wordsReady;
  await syncClock();
  // Invite links name an address friends can open, not this browser's loopback (the server
  // knows the machine's network address when it listens on every interface).
  try { S.origin = (await api("/api/origin")).origin; } catch { S.origin = null; }
  try {
    S.info = await api(`/api/tables/${encodeURIComponent(tid)}`);
    const named = S.info.rules || S.info.preset;
    $("howto").href = `/rules/${encodeURIComponent(S.info.game)}` +
      (named ? `?preset=${encodeURIComponent(named)}` : "");
    const games = await api("/api/games");
    const g = games.find((x) => x.name === S.info.game);
    if (g) {
      S.info.title = g.title;
      S.info.preset = g.presets.find((p) => p.name === (S.info.rules || S.info.preset)) || null;
    }
  } catch (err) {
    if (err.code === "no-table" || err.status === 404) noSuchTable();
    else $("conn").textContent = errorText(err.code, err.message);
    return;
  }
  if (!S.seat && !S.invite && S.info.invite) S.invite = S.info.invite;
  document.addEventListener("keydown", onKey);
  $("pass").addEventListener("click", passMoment);
  $("sort").addEventListener("click", cycleSort);
  $("clear").addEventListener("click", () => { S.picked.clear(); render(); });
  $("hint-toggle").addEventListener("click", toggleHints);
  $("leave").addEventListener("click", leave);
  $("chooser-cancel").addEventListener("click", closeChooser);
  $("result-close").addEventListener("click", () => { $("result").hidden = true; });
  $("result-button").addEventListener("click", () => { drawResult(); $("result").hidden = false; });
  $("start").addEventListener("click", async () => {
    try {
      await api(`/api/tables/${encodeURIComponent(tid)}/start`, { method: "POST", token: S.seat.token });
    } catch (err) { toast(errorText(err.code, err.message), "bad"); }
  });
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-link");
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
    toast(t("w.copied"));
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const value = input.value.trim();
    if (value && send({ type: "chat", text: value })) input.value = "";
  });
  for (const b of document.querySelectorAll(".tabs button")) {
    b.addEventListener("click", () => {
      for (const x of document.querySelectorAll(".tabs button")) x.classList.toggle("active", x === b);
      for (const s of document.querySelectorAll(".tab")) s.classList.toggle("active", s.id === `tab-${b.dataset.tab}`);
      b.classList.remove("unread");
    });
  }
  setInterval(updateTimers, 200);
  connect();
}

// A small hook for tests and tools: what the page shows, read-only.
window.hoola = {
  legal: () => S.moves.map((m) => m.text),
  state: () => S.msg,
  asked: () => !!canAct(),
  counter: () => (S.msg ? S.msg.counter : null),
  slots: () => S.slots.map((s) => s.code),
  claims: () => S.claims || [],
  announced: () => S.announced.map((a) => ({ ...a, text: $("announce").textContent })),
  motion: () => motionStats(),
  deals: () => dealsFlown(),
  sounds: () => ({ on: soundOn(), played: played() }),
  read: (text) => readMove(text, S.msg && me() !== null ? S.msg.names[me()] : null),
};

init();
