// Legal moves as the server lists them (record notation, "B take 9d with 9s 9h"), read only to
// present them: the verb, the cards from the hand each uses, the meld or card it goes on. Which
// moves are legal is the server's word alone: a move is legal when it is in view.legal.

import { cardText, faceOf, isCard } from "./cards.js";

const HAND_AFTER = ["with"];        // take 9d with 9s 9h: the hand's cards follow "with"
const HAND_BEFORE = ["on", "for", "to"];  // add 6c on 7c, swap 9c for JK on m6

/** One legal move read: {text, verb, words, hand (cards from hand, faces), target, label}. */
export function readMove(text, myName) {
  let words = text.trim().split(/\s+/);
  if (myName && words[0] === myName) words = words.slice(1);
  const verb = (words[0] || "").toLowerCase();
  const args = words.slice(1);
  const lower = args.map((w) => w.toLowerCase());
  let hand;
  const after = lower.findIndex((w) => HAND_AFTER.includes(w));
  const before = lower.findIndex((w) => HAND_BEFORE.includes(w));
  if (after >= 0) hand = args.slice(after + 1).filter(isCard);
  else if (before >= 0) hand = args.slice(0, before).filter(isCard);
  else hand = args.filter(isCard);
  let target = null;
  const on = lower.lastIndexOf("on");
  if (on >= 0 && on + 1 < args.length) target = args[on + 1];
  return { text, verb, args, hand: hand.map(faceOf), named: hand, target,
    label: args.map((w) => (isCard(w) ? cardText(w) : w)).join(" ") };
}

function counts(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

/** Whether the move uses every picked card (as many times as picked). */
export function usesAll(move, picked) {
  const have = counts(move.hand);
  for (const [card, n] of counts(picked)) if ((have.get(card) || 0) < n) return false;
  return true;
}

/** Whether the move uses exactly the picked cards. */
export function usesExactly(move, picked) {
  return move.hand.length === picked.length && usesAll(move, picked);
}

/** The moves of ``verb`` that use every picked card; a verb that uses no card of the hand (a
 * draw, a knock) stays open whatever is picked. */
export function candidates(moves, verb, picked) {
  const of = moves.filter((m) => m.verb === verb);
  if (of.length && of.every((m) => !m.hand.length)) return of;
  return of.filter((m) => usesAll(m, picked));
}

/** What a click on a verb's button does: {act: move} when one move is meant, {choose: [...]}
 * when several are (a chooser lists them), null when none. */
export function pick(moves, verb, picked) {
  const found = candidates(moves, verb, picked);
  if (!found.length) return null;
  if (found.length === 1) return { act: found[0] };
  if (picked.length) {
    const exact = found.filter((m) => usesExactly(m, picked));
    if (exact.length === 1) return { act: exact[0] };
    if (exact.length > 1) return { choose: exact };
  }
  return { choose: found };
}

/** The move Enter plays: the only one using exactly the picked cards (none when nothing is
 * picked: Enter never plays a move the player did not point at, on any turn). */
export function defaultMove(moves, picked) {
  if (!picked.length) return null;
  const exact = moves.filter((m) => usesExactly(m, picked));
  return exact.length === 1 ? exact[0] : null;
}

/** The verbs of the moves, in the order they first appear. */
export function verbsOf(moves) {
  const out = [];
  for (const m of moves) if (!out.includes(m.verb)) out.push(m.verb);
  return out;
}

/** The cards of the hand that some move uses (to light them up). */
export function usableCards(moves) {
  const out = new Set();
  for (const m of moves) for (const c of m.hand) out.add(c);
  return out;
}

/** The moves that put a card of the hand on a zone (dragged there): add on a meld, discard on
 * the pile, play to the trick. */
export function dropMoves(moves, card, zone) {
  const face = faceOf(card);
  const uses = (m) => m.hand.length === 1 && m.hand[0] === face;
  if (zone.kind === "discard") return moves.filter((m) => m.verb === "discard" && uses(m));
  if (zone.kind === "trick") return moves.filter((m) => m.verb === "play" && uses(m));
  if (zone.kind === "meld") {
    const cards = (zone.cards || []).map((c) => c.toLowerCase());
    return moves.filter((m) => m.verb === "add" && uses(m) && m.target &&
      (m.target.toLowerCase() === zone.id.toLowerCase() ||
       cards.includes(m.target.toLowerCase())));
  }
  return [];
}
