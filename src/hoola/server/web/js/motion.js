// Cards that move, from the states the page already receives: before a new state is drawn the
// page notes where every card and zone is (snapshot), after it is drawn the two tables are
// compared zone by zone and each card that changed zones flies from where it was to where it is
// now (FLIP, with the Web Animations API); a card nobody may see flies as a back. The seat that
// acted is lit for a moment. Under prefers-reduced-motion nothing moves: the new state simply
// shows.

import { backElement, cardElement, faceOf } from "./cards.js";

const DURATION = 260;  // ms: quick enough never to hold up play
const MOST = 10;       // cards flown for one state at most (a showdown or a deal just shows)
const LIT = 1200;      // ms the acting seat stays lit
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

const M = { flights: 0, deals: 0, actor: null, litUntil: 0 };

/** Whether cards move (the person has not asked for reduced motion). */
export function motionOn() {
  return !(reduced && reduced.matches);
}

function reflect() {
  document.body.dataset.motion = motionOn() ? "on" : "off";
}
reflect();
if (reduced && reduced.addEventListener) {
  reduced.addEventListener("change", () => {
    reflect();
    if (!motionOn()) for (const a of document.getAnimations()) a.finish();
  });
}

function handZone(table, me) {
  if (!table || me === null || me === undefined) return null;
  const z = (table.zones || []).find((x) => x.kind === "hand" && x.owner === me);
  return z ? z.id : null;
}

/** The element drawing zone ``id`` (the page's own hand is #hand). */
function zoneElement(id, table, me) {
  if (id === handZone(table, me)) return document.getElementById("hand");
  const found = document.querySelectorAll(`#board [data-zone="${CSS.escape(id)}"]`);
  if (found.length) return found[found.length - 1];
  const zone = table && (table.zones || []).find((z) => z.id === id);
  if (zone && zone.owner !== null && zone.owner !== undefined) {
    return document.querySelector(`#board .seat[data-seat="${zone.owner}"]`);
  }
  return null;
}

function cardsIn(node) {
  return node ? [...node.querySelectorAll(".card")] : [];
}

/** Where every card and zone of ``table`` is drawn now, before the next state is drawn. */
export function snapshot(table, me) {
  const snap = { table, me, cards: new Map(), zones: new Map() };
  if (!table) return snap;
  for (const zone of table.zones || []) {
    const node = zoneElement(zone.id, table, me);
    if (!node) continue;
    snap.zones.set(zone.id, rectOf(node));
    for (const card of cardsIn(node)) {
      const key = `${zone.id}|${card.dataset.card ? faceOf(card.dataset.card) : "?"}`;
      if (!snap.cards.has(key)) snap.cards.set(key, []);
      snap.cards.get(key).push(rectOf(card));
    }
  }
  return snap;
}

function rectOf(node) {
  const r = node.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

function count(list) {
  const m = new Map();
  for (const c of list) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

/** The cards that changed zones from ``before`` to ``after`` (two tables of one deal):
 * ``[{card, from, to}]``, ``card`` null for a card neither table shows. */
export function moves(before, after) {
  if (!before || !after) return [];
  const old = new Map((before.zones || []).map((z) => [z.id, z]));
  const now = new Map((after.zones || []).map((z) => [z.id, z]));
  const gone = [];   // [zoneId, card|null]
  const came = [];
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(id), b = now.get(id);
    const ca = a && a.cards ? a.cards.map(faceOf) : null;
    const cb = b && b.cards ? b.cards.map(faceOf) : null;
    const na = a ? (ca ? ca.length : a.count || 0) : 0;
    const nb = b ? (cb ? cb.length : b.count || 0) : 0;
    if (ca && cb) {
      const ma = count(ca), mb = count(cb);
      for (const [c, k] of mb) for (let i = (ma.get(c) || 0); i < k; i++) came.push([id, c]);
      for (const [c, k] of ma) for (let i = (mb.get(c) || 0); i < k; i++) gone.push([id, c]);
    } else if (nb > na) {
      // Cards come to a zone shown to nobody (or only now shown): known by number alone,
      // except those now shown that were not there before.
      for (let i = na; i < nb; i++) came.push([id, cb ? cb[i] : null]);
    } else if (na > nb) {
      for (let i = nb; i < na; i++) gone.push([id, ca ? ca[i] : null]);
    }
  }
  const kind = (id) => ((now.get(id) || old.get(id) || {}).kind);
  const out = [];
  const take = (i) => gone.splice(i, 1)[0];
  // Shown cards first: the same card gone from one zone and come to another.
  for (let k = came.length - 1; k >= 0; k--) {
    const [to, card] = came[k];
    if (card === null) continue;
    const i = gone.findIndex(([from, c]) => c === card && from !== to);
    if (i >= 0) { out.push({ card, from: take(i)[0], to }); came.splice(k, 1); }
  }
  // Then cards from or to where nobody sees them: to a hand, from the stock first; to the
  // table, from a hand first.
  for (const [to, card] of came) {
    const toHand = kind(to) === "hand";
    const order = gone.map((g, i) => [i, kind(g[0])]).filter(([i]) => gone[i][0] !== to)
      .sort((x, y) => rank(x[1], toHand) - rank(y[1], toHand));
    if (!order.length) continue;
    const [i] = order[0];
    const [from, was] = take(i);
    out.push({ card: card || was, from, to });
  }
  return out;
}

function rank(kind, toHand) {
  if (toHand) return kind === "stock" ? 0 : kind === "discard" || kind === "upcard" ? 1 : 2;
  return kind === "hand" ? 0 : kind === "stock" ? 1 : 2;
}

/** Fly every card that moved from ``snap`` (taken before drawing) to the table drawn now. */
export function animate(snap, table, me) {
  if (!motionOn() || !snap || !snap.table || !table) return [];
  const found = moves(snap.table, table);
  if (!found.length || found.length > MOST) return found;
  const used = new Set();
  for (const move of found) {
    const from = sourceRect(snap, move);
    const node = zoneElement(move.to, table, me);
    if (!from || !node) continue;
    const target = move.card ? cardsIn(node).reverse()
      .find((c) => !used.has(c) && c.dataset.card && faceOf(c.dataset.card) === move.card) : null;
    if (target) {
      used.add(target);
      flip(target, from);
    } else {
      fly(move.card, from, rectOf(node));
    }
  }
  return found;
}

function sourceRect(snap, move) {
  const list = move.card ? snap.cards.get(`${move.from}|${move.card}`) : null;
  if (list && list.length) return list.pop();
  const backs = snap.cards.get(`${move.from}|?`);
  if (backs && backs.length) return backs[backs.length - 1];
  const zone = snap.zones.get(move.from);
  if (!zone) return null;
  return { left: zone.left + zone.width / 2 - 20, top: zone.top + zone.height / 2 - 28,
    width: 40, height: 56 };
}

/** A card drawn at its new place, moved back to where it was and let go (FLIP). */
function flip(node, from, { delay = 0, id = "fly" } = {}) {
  const to = node.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left - to.left, dy = from.top - to.top;
  const s = from.width ? from.width / to.width : 1;
  const end = getComputedStyle(node).transform;
  const rest = end && end !== "none" ? end : "";
  node.style.transformOrigin = "top left";
  const a = node.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${s}) ${rest}`.trim(), zIndex: 20 },
    { transform: rest || "none", zIndex: 20 },
  ], { duration: DURATION, delay, fill: "backwards", easing: "cubic-bezier(.2,.7,.3,1)", id });
  M.flights++;
  a.finished.then(() => { node.style.transformOrigin = ""; }, () => {});
}

/** A card (or a back) flown over the table to a place where it is not drawn (a hidden hand). */
function fly(card, from, to, { delay = 0, id = "fly" } = {}) {
  const ghost = card ? cardElement(card, "flying") : backElement("flying");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`,
    width: `${Math.max(24, from.width)}px`, zIndex: 40, pointerEvents: "none", margin: "0" });
  document.body.appendChild(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const a = ghost.animate([
    { transform: "translate(0, 0)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.3 },
  ], { duration: DURATION, delay, fill: "backwards", easing: "cubic-bezier(.2,.7,.3,1)", id });
  M.flights++;
  const done = () => ghost.remove();
  a.finished.then(done, done);
}

const DEAL_SPAN = 700;  // ms: the whole deal, however many cards
const DEAL_BACKS = 3;   // backs flown to each other hand (a hidden hand is drawn as a count)

/** A new deal drawn: its cards fly from the stock to the hands, one round after another as a
 * dealer deals (the page's own hand card by card, a few backs to each other seat). The number
 * of cards flown. */
export function dealt(table, me) {
  if (!motionOn() || !table) return 0;
  const zones = table.zones || [];
  const stock = zones.find((z) => z.kind === "stock");
  const pile = stock ? zoneElement(stock.id, table, me) : null;
  const from = deckRect(pile || document.getElementById("middle") || document.getElementById("board"));
  if (!from) return 0;
  const own = [...document.querySelectorAll("#hand .card")];
  const others = zones.filter((z) => z.kind === "hand" && z.id !== handZone(table, me))
    .map((z) => zoneElement(z.id, table, me)).filter((node) => node);
  const rounds = Math.max(own.length, others.length ? DEAL_BACKS : 0);
  const order = [];
  for (let r = 0; r < rounds; r++) {
    if (r < DEAL_BACKS) for (const seat of others) order.push({ seat });
    if (r < own.length) order.push({ card: own[r] });
  }
  if (!order.length) return 0;
  const step = Math.min(40, (DEAL_SPAN - DURATION) / order.length);
  order.forEach((one, i) => {
    const timing = { delay: Math.round(i * step), id: "deal" };
    if (one.card) flip(one.card, from, timing);
    else fly(null, from, rectOf(one.seat), timing);
  });
  M.deals++;
  return order.length;
}

/** Where the deck is drawn: the stock's top card, or a card's size in the middle of ``node``. */
function deckRect(node) {
  if (!node) return null;
  const cards = cardsIn(node);
  if (cards.length) return rectOf(cards[cards.length - 1]);
  const r = rectOf(node);
  if (!r.width) return null;
  return { left: r.left + r.width / 2 - 20, top: r.top + r.height / 2 - 28, width: 40, height: 56 };
}

/** Light ``seat`` as the one that just acted. */
export function lightSeat(seat) {
  if (seat === null || seat === undefined) return;
  M.actor = seat;
  M.litUntil = Date.now() + LIT;
  markActor();
  setTimeout(markActor, LIT + 20);
}

/** Put the light on the acting seat's panel again (the panels are drawn anew with each state). */
export function markActor() {
  const lit = M.actor !== null && Date.now() < M.litUntil;
  for (const node of document.querySelectorAll("#board .seat")) {
    node.classList.toggle("acted", lit && node.dataset.seat === String(M.actor));
  }
}

/** What the page's motion has done, for tests: cards flown, and whether motion is on. */
export function motionStats() {
  return { flights: M.flights, on: motionOn() };
}

/** How many deals the page has dealt with motion (for tests). */
export function dealsFlown() {
  return M.deals;
}
