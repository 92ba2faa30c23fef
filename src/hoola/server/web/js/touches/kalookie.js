// Kalookie: the hand held in runs and sets, the initial meld's count toward its target (40 or
// 51), and the words of the game.

import { make } from "../api.js";
import { faceOf, parseCard, RANKS, SUITS, compareCards } from "../cards.js";

const LABELS = {
  en: { draw: "Draw", take: "Take", meld: "Meld", add: "Add", swap: "Swap joker", discard: "Discard",
    warn: "Warn", "buy-in": "Buy in", retire: "Retire", "swap-upcard": "Swap upcard",
    open: "Initial meld: {value} of {need}", toopen: "To open: melds worth {need}",
    pick: "picked meld ≈ {value}", opened: "Opened" },
  ko: { draw: "뽑기", take: "가져오기", meld: "등록", add: "붙이기", swap: "조커 교환", discard: "버리기",
    warn: "경고", "buy-in": "바이인", retire: "포기", "swap-upcard": "업카드 교환",
    open: "첫 등록: {need} 중 {value}", toopen: "첫 등록: {need}점 이상", pick: "고른 조합 ≈ {value}점",
    opened: "등록함" },
};
const NEED = { blackpool: 51, "north-american": 51, scarne: 51 };
const ACE = { "north-american": 15 };

function word(key, lang) {
  return (LABELS[lang] || LABELS.en)[key] || LABELS.en[key] || key;
}

/** A hand as Kalookie players hold it: runs of a suit, sets of a rank, the rest, jokers last. */
export function groups(cards) {
  const natural = [], jokers = [], odd = [];
  for (const code of cards) {
    const c = parseCard(faceOf(code));
    if (!c) odd.push(code); else if (c.joker) jokers.push(code); else natural.push(code);
  }
  let left = natural.slice();
  const out = [];
  const rankOf = (code) => RANKS.indexOf(parseCard(code).rank);
  for (const suit of SUITS) {
    for (;;) {
      const run = longestRun(left.filter((c) => parseCard(c).suit === suit), rankOf);
      if (run.length < 3) break;
      out.push(run);
      for (const c of run) left.splice(left.indexOf(c), 1);
    }
  }
  for (let r = 0; r < 13; r++) {
    const bySuit = new Map();
    for (const c of left) if (rankOf(c) === r && !bySuit.has(parseCard(c).suit)) bySuit.set(parseCard(c).suit, c);
    if (bySuit.size >= 3) {
      const set = [...bySuit.values()];
      out.push(set);
      for (const c of set) left.splice(left.indexOf(c), 1);
    }
  }
  left.sort((a, b) => compareCards(a, b));
  if (left.length) out.push(left);
  if (odd.length) out.push(odd);
  if (jokers.length) out.push(jokers);
  return out;
}

function longestRun(cards, rankOf) {
  const byRank = new Map();
  for (const c of cards) if (!byRank.has(rankOf(c))) byRank.set(rankOf(c), c);
  if (byRank.has(0)) byRank.set(13, byRank.get(0));
  let best = [], run = [];
  for (let r = 0; r < 14; r++) {
    run = byRank.has(r) ? [...run, r] : [];
    if (run.length > best.length) best = run;
  }
  if (best.includes(0) && best.includes(13)) best = best[0] === 0 ? best.slice(1) : best;
  return best.map((r) => byRank.get(r));
}

/** A meld's points as Kalookie counts them toward the initial meld (jokers at the card they
 * stand for, a low ace 1, courts 10): an estimate shown beside the server's own count. */
export function meldValue(named, rules) {
  const ace = ACE[rules] || 11;
  const cards = named.map((code) => {
    const c = parseCard(code);
    return c && c.joker ? c.as : c;
  });
  if (cards.some((c) => !c)) return null;
  const ranks = cards.map((c) => RANKS.indexOf(c.rank));
  const run = new Set(cards.map((c) => c.suit)).size === 1 && new Set(ranks).size === ranks.length;
  const low = run && ranks.includes(0) && ranks.includes(1);
  return ranks.reduce((sum, r) => sum + (r === 0 ? (low ? 1 : ace) : Math.min(r + 1, 10)), 0);
}

export default {
  core: ["draw", "take", "meld", "add", "discard"],
  verbs: ["draw", "take", "meld", "add", "swap", "discard", "warn", "swap-upcard", "buy-in", "retire"],
  keys: { d: "draw", t: "take", m: "meld", a: "add", x: "discard", w: "warn" },
  sorts: ["groups", "suit", "rank", "manual"],
  groups,
  verbLabel(verb, ctx) { return word(verb, ctx.lang); },
  panel(ctx) {
    const v = ctx.view;
    if (!v || !v.opened || v.phase !== "play") return null;
    const box = make("div", "touch-open");
    const me = v.player;
    const rules = typeof v.rules === "string" ? v.rules : "";
    let need = (ctx.options && ctx.options.initial_meld) || NEED[rules] || 40;
    if (v.opened[me]) {
      box.appendChild(make("span", "opened", word("opened", ctx.lang)));
      return box;
    }
    const m = /(\d+) of (\d+)/.exec(v.prompt || "");
    let value = 0;
    if (m) { value = Number(m[1]); need = Number(m[2]); }
    const bar = make("div", "open-bar");
    const fill = make("div", "open-fill");
    fill.style.width = `${Math.min(100, (100 * value) / need)}%`;
    bar.appendChild(fill);
    const label = make("span", "open-label", value ? word("open", ctx.lang)
      .replace("{value}", value).replace("{need}", need) : word("toopen", ctx.lang).replace("{need}", need));
    label.dataset.value = value;
    label.dataset.need = need;
    box.appendChild(label);
    box.appendChild(bar);
    const melds = ctx.moves.filter((mv) => mv.verb === "meld" && ctx.picked.length &&
      mv.hand.length === ctx.picked.length);
    const exact = melds.find((mv) => mv.hand.slice().sort().join() === ctx.picked.slice().sort().join());
    if (exact) {
      const est = meldValue(exact.named, rules);
      if (est !== null) box.appendChild(make("span", "open-pick", word("pick", ctx.lang).replace("{value}", est)));
    }
    return box;
  },
};
