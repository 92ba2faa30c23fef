// Kalookie: the hand held in runs and sets, the initial meld's count toward its target (40 or
// 51), and the words of the game.

import { make } from "../api.js";
import { faceOf, parseCard, RANKS, SUITS, compareCards } from "../cards.js";
import { w } from "../words.js";

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

/** Whether natural cards form a run of a suit or a set of a rank (no card twice). */
function meldish(codes) {
  const cards = codes.map((c) => parseCard(c));
  if (codes.length < 3 || cards.some((c) => !c || c.joker)) return false;
  if (new Set(cards.map((c) => c.rank)).size === 1) return new Set(cards.map((c) => c.suit)).size === cards.length;
  if (new Set(cards.map((c) => c.suit)).size !== 1) return false;
  const ranks = cards.map((c) => RANKS.indexOf(c.rank)).sort((a, b) => a - b);
  const high = ranks.map((r) => (r === 0 ? 13 : r)).sort((a, b) => a - b);
  const run = (rs) => rs.every((r, i) => i === 0 || r === rs[i - 1] + 1);
  return run(ranks) || run(high);
}

/** The legal melds that together use exactly the picked cards (a few melds at most), or null. */
function cover(picked, melds, depth = 0) {
  if (!picked.length) return [];
  if (depth > 4) return null;
  for (const m of melds) {
    const left = picked.slice();
    if (!m.hand.every((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; })) continue;
    const rest = cover(left, melds, depth + 1);
    if (rest) return [m, ...rest];
  }
  return null;
}

/** What the picked cards are worth toward the initial meld, across several melds: the legal
 * melds they make (a joker at the card it stands for), else their runs and sets. */
function pickedValue(ctx, rules) {
  if (!ctx.picked.length) return { value: 0, melds: null };
  const melds = cover(ctx.picked, ctx.moves.filter((m) => m.verb === "meld"));
  if (melds) return { value: melds.reduce((n, m) => n + (meldValue(m.named, rules) || 0), 0), melds };
  const value = groups(ctx.picked).filter(meldish).reduce((n, g) => n + (meldValue(g, rules) || 0), 0);
  return { value, melds: null };
}

/** The initial meld's count so far this turn and its target, as the engine says them. */
function opening(ctx) {
  const find = (s) => {
    if (!s || typeof s !== "object") return null;
    if (s.key === "kalookie.opening") return s.args;
    for (const v of Object.values(s.args || {})) { const got = find(v); if (got) return got; }
    return null;
  };
  const m = ctx.table && ctx.table.moment;
  const args = find(m && m.say);
  const v = ctx.view;
  const rules = v && typeof v.rules === "string" ? v.rules : "";
  const need = (ctx.options && ctx.options.initial_meld) || NEED[rules] || 40;
  return args ? { value: Number(args.value), need: Number(args.need) } : { value: 0, need };
}

function opens(ctx) {
  const v = ctx.view;
  return !!(v && v.opened && v.phase === "play" && !v.opened[v.player] && v.current === v.player && v.drawn);
}

export default {
  core: ["draw", "take", "meld", "add", "discard"],
  verbs: ["draw", "take", "meld", "add", "swap", "discard", "warn", "swap-upcard", "buy-in", "retire"],
  keys: { d: "draw", t: "take", m: "meld", a: "add", x: "discard", w: "warn" },
  sorts: ["groups", "suit", "rank", "manual"],
  groups,
  verbLabel(verb, ctx) { return word(verb, ctx.lang); },
  /** Why Meld is refused while opening: what the picked melds add up to, of the target. */
  whyNot(verb, ctx) {
    if (verb !== "meld" || !opens(ctx) || !ctx.picked.length) return null;
    const { value, melds } = pickedValue(ctx, ctx.view.rules);
    if (melds || !value) return null;
    const o = opening(ctx);
    return w("web.why.open", { value: o.value + value, need: o.need });
  },
  /** Several melds picked at once: the first of them to lay now (the rest stay picked). */
  several(verb, ctx) {
    if (verb !== "meld" || ctx.picked.length < 6) return null;
    const melds = cover(ctx.picked, ctx.moves.filter((m) => m.verb === "meld"));
    return melds && melds.length > 1 ? melds[0] : null;
  },
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
    const o = opening(ctx);
    need = o.need;
    // The count moves with the picked cards, across every meld they make.
    const value = o.value + (opens(ctx) ? pickedValue(ctx, rules).value : 0);
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
