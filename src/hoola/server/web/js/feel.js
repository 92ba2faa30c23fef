// What each new state does besides being drawn: the cards that moved fly (motion.js), the seat
// that acted lights up, the cues sound (sound.js), and the live region reads the move out
// (a11y.js). The page calls before() with the state it shows, draws the next one, then after().

import { announce, announceMoves } from "./a11y.js";
import { t } from "./i18n.js";
import { animate, dealt, lightSeat, markActor, snapshot } from "./motion.js";
import { cue } from "./sound.js";

const F = { mayClaim: false, asked: false, actors: [], away: new Map() };
const AWAY_TOLD = 60000;  // ms before a person still away is said to be again

function linesOf(msg) {
  if (!msg) return [];
  if (msg.view && msg.view.history) return msg.view.history;
  return (msg.table && msg.table.log) || [];
}

function seatOf(msg, line) {
  const first = String(line || "").split(/\s+/)[0];
  const q = (msg.names || []).indexOf(first);
  return q >= 0 ? q : null;
}

/** Note where things are before ``msg`` (the state shown now) gives way to the next. */
export function before(msg, me) {
  return { msg, snap: snapshot(msg && msg.table, me) };
}

/** The new state ``msg`` is drawn: fly, light, sound and tell. ``info``: ``me``, whether this
 * seat is asked to move in its turn (``myTurn``) or may claim in a window (``mayClaim``). */
export function after(token, msg, info) {
  const prev = token ? token.msg : null;
  // A deal that starts while the page looks on: the first, once the host starts, or the next,
  // after the pause for the result (or straight after the last, at a table that does not wait).
  const newDeal = !!(prev && msg.table && msg.status === "playing" && !msg.between &&
    (!prev.table || prev.deal !== msg.deal));
  const sameDeal = !!(prev && prev.table && msg.table && prev.deal === msg.deal);
  let moved = [];
  if (sameDeal && msg.counter !== prev.counter) {
    moved = animate(token.snap, msg.table, info.me);
    const before = linesOf(prev), now = linesOf(msg);
    if (now.length > before.length) {
      const fresh = now.slice(before.length);
      const actor = seatOf(msg, fresh[fresh.length - 1]);
      if (actor !== null) {
        lightSeat(actor);
        F.actors.push(actor);
        F.actors = F.actors.slice(-4);
      }
      announceMoves(fresh);
    }
    sounds(moved, prev, msg);
  } else if (!sameDeal) {
    F.actors = [];
    // Dealt from the stock (a deal the page finds under way, on opening it, simply shows).
    if (newDeal) dealt(msg.table, info.me);
  }
  markActor();
  const myTurn = !!info.myTurn;
  if (myTurn && !F.asked) {
    cue("turn");
    announce(t("live.turn"));
  }
  if (info.mayClaim && !F.mayClaim) {
    cue("claim");
    announce(t("live.claim"));
  }
  F.asked = myTurn;
  F.mayClaim = !!info.mayClaim;
}

function kindOf(msg, id) {
  const z = ((msg.table && msg.table.zones) || []).find((x) => x.id === id);
  return z ? z.kind : null;
}

function sounds(moved, prev, msg) {
  const toTable = moved.some((m) => ["discard", "trick"].includes(kindOf(msg, m.to) || kindOf(prev, m.to)));
  const fromTrick = moved.some((m) => (kindOf(prev, m.from) || kindOf(msg, m.from)) === "trick" &&
    kindOf(msg, m.to) !== "trick");
  // Out: a hand emptied in a game with a discard pile (a capture game's hands empty as they
  // play out, which is no going out).
  const rummy = (msg.table.zones || []).some((z) => z.kind === "discard");
  const emptied = rummy && (prev.table.zones || []).some((z) => {
    const now = (msg.table.zones || []).find((x) => x.id === z.id);
    const had = z.cards ? z.cards.length : z.count || 0;
    const has = now ? (now.cards ? now.cards.length : now.count || 0) : 0;
    return z.kind === "hand" && had > 0 && has === 0;
  });
  if (emptied) cue("out");
  else if (fromTrick) cue("trick");
  else if (toTable) cue("discard");
}

/** A claim out of turn stood (``claimed``): its cue, and who it skipped, if anyone (the seats
 * after the one who discarded, up to the claimer). */
export function claimed(msg, names) {
  cue("thankyou");
  const n = names.length;
  // The claimer's own take is the newest actor; the discarder the one before it.
  const actors = F.actors.slice();
  if (actors.length && actors[actors.length - 1] === msg.seat) actors.pop();
  const from = actors.length ? actors[actors.length - 1] : null;
  if (from === null || from === msg.seat) return null;
  const skipped = [];
  for (let q = (from + 1) % n; q !== msg.seat && skipped.length < n; q = (q + 1) % n) {
    skipped.push(names[q]);
  }
  if (!skipped.length) return null;
  const line = t("skip.claim", { name: msg.name, skipped: skipped.join(", ") });
  announce(line);
  return line;
}

/** A bot played a person's turn (``standin``): the words to show and read out, or null for a
 * person still away who was said to be a moment ago (every turn of theirs would say it again). */
export function stoodIn(msg) {
  const away = msg.reason === "away";
  const now = Date.now();
  if (away && now - (F.away.get(msg.seat) || 0) < AWAY_TOLD) return null;
  if (away) F.away.set(msg.seat, now);
  const line = t(away ? "standin.away" : "standin.time", { name: msg.name });
  announce(line);
  return line;
}
