// Hoola (훌라): the games' own words, the "Thank you" (땡큐) claim during a window, why a move
// is not open yet, and the deal's mission (ruling 20: a feat and its multiplier, with its outcome
// at the end). Which move is legal is still the server's word.

import { make } from "../api.js";

const LABELS = {
  en: { draw: "Draw", take: "Take", meld: "Meld", add: "Add", discard: "Discard",
    knock: "Knock (Stop)", blast: "Blast", sevens: "Four sevens", play: "Play", drop: "Drop",
    thanks: "Thank you!",
    mission: "Mission", catalog: "the project's own list", achieved: "achieved",
    failed: "failed", "achieved.line": "Mission {feat} ×{n} achieved: every payment to the winner ×{n}",
    "failed.line": "Mission {feat} ×{n} failed: payments unchanged" },
  ko: { draw: "뽑기", take: "가져오기", meld: "등록", add: "붙이기", discard: "버리기",
    knock: "스톱", blast: "소빵/대빵", sevens: "포세븐", play: "참가", drop: "다이",
    thanks: "땡큐!",
    mission: "미션", catalog: "이 프로젝트가 정한 목록", achieved: "성공", failed: "실패",
    "achieved.line": "미션 {feat} ×{n} 성공: 이긴 사람이 받는 돈 모두 ×{n}",
    "failed.line": "미션 {feat} ×{n} 실패: 지불은 그대로" },
};

// What each feat asks, in Korean; in English the server's own words (the mission zone's label)
// are shown. The catalog is the project's own (ruling 20): every place showing a mission says so.
const FEATS_KO = {
  "thank-you": "차례가 아닐 때 버린 패를 가져와(땡큐) 이기기",
  hoola: "훌라로 이기기",
  quad: "같은 숫자 넉 장을 내 등록으로 바닥에 두고 끝내기",
  "long-run": "다섯 장 이상 이어진 내 등록 (같은 무늬)",
  corner: "K-A-2가 든 내 등록 (같은 무늬)",
  "two-sevens": "내 등록에 7 두 장 이상",
  "knock-low": "3점 이하로 스톱해서 이기기",
  blast: "소빵이나 대빵으로 이기기",
  quick: "세 번째 차례가 오기 전에 이기기",
  "no-take": "버린 패를 한 번도 가져오지 않고 이기기",
};
const FEAT_NAMES_KO = {
  "thank-you": "땡큐", hoola: "훌라", quad: "포카드", "long-run": "긴 연속", corner: "코너",
  "two-sevens": "세븐 둘", "knock-low": "낮은 스톱", blast: "소빵/대빵", quick: "빠른 승리",
  "no-take": "안 가져오기",
};

function word(key, lang) {
  return (LABELS[lang] || LABELS.en)[key] || LABELS.en[key] || key;
}

/** The deal's mission from the mission zone's label (seats, spectators and replays all have it):
 * "Mission quad ×3 (the project's own list): own a set of four on the table at the end", with
 * ": achieved" or ": failed" once play has ended. */
export function missionOf(zone) {
  const m = /^Mission (\S+) ×(\d+) \([^)]*\): (.*?)(?:: (achieved|failed))?$/.exec(zone.label || "");
  if (!m) return null;
  return { feat: m[1], multiplier: Number(m[2]), words: m[3], outcome: m[4] || null };
}

function featName(feat, lang) {
  return lang === "ko" && FEAT_NAMES_KO[feat] ? FEAT_NAMES_KO[feat] : feat;
}

/** The mission as a box in the middle of the table: feat, multiplier, what it asks, whose list
 * it is, and its outcome at the end; no card count (the zone holds no cards). */
function missionBox(zone, ctx) {
  const m = missionOf(zone);
  if (!m) return null;
  const lang = ctx.lang;
  const box = make("div", "zone zone-mission");
  box.dataset.zone = zone.id;
  box.dataset.kind = zone.kind;
  box.dataset.feat = m.feat;
  box.dataset.multiplier = String(m.multiplier);
  if (m.outcome) box.dataset.outcome = m.outcome;
  box.title = zone.label;
  const head = make("div", "zone-label mission-head");
  head.appendChild(make("span", "zone-name mission-name", `${word("mission", lang)} ${featName(m.feat, lang)}`));
  head.appendChild(make("b", "mission-times", `×${m.multiplier}`));
  box.appendChild(head);
  const words = lang === "ko" && FEATS_KO[m.feat] ? FEATS_KO[m.feat] : m.words;
  box.appendChild(make("div", "mission-words", words));
  box.appendChild(make("div", "mission-note", word("catalog", lang)));
  if (m.outcome) box.appendChild(make("div", `mission-outcome ${m.outcome}`, word(m.outcome, lang)));
  return box;
}

function claiming(ctx) {
  const v = ctx.view;
  return !!(v && v.claimable && v.current !== v.player && ctx.moves.some((m) => m.verb === "take"));
}

export default {
  claimWords: "claim.called",  // a claim is announced as the player's "Thank you!" (땡큐)
  core: ["draw", "take", "meld", "add", "discard", "knock"],
  verbs: ["draw", "take", "meld", "add", "discard", "knock", "blast", "sevens", "play", "drop"],
  keys: { d: "draw", t: "take", m: "meld", a: "add", x: "discard", k: "knock", b: "blast" },
  verbLabel(verb, ctx) {
    if (verb === "take" && claiming(ctx)) return word("thanks", ctx.lang);
    return word(verb, ctx.lang);
  },
  verbClass(verb, ctx) {
    return verb === "take" && claiming(ctx) ? "thank-you" : "";
  },
  whyNot(verb, ctx) {
    const v = ctx.view;
    if (!v || v.phase === "over") return null;
    if (v.current === v.player && !v.drawn && ["meld", "add", "discard"].includes(verb)) {
      return ctx.t("why.first");
    }
    return null;
  },
  zone(zone, ctx) {
    return zone.id === "mission" ? missionBox(zone, ctx) : null;
  },
  result(table, ctx) {
    const zone = (table.zones || []).find((z) => z.id === "mission");
    const m = zone ? missionOf(zone) : null;
    if (!m || !m.outcome) return null;
    const line = word(`${m.outcome}.line`, ctx.lang).replace("{feat}", featName(m.feat, ctx.lang))
      .replaceAll("{n}", String(m.multiplier));
    const p = make("p", `mission-result ${m.outcome}`, line);
    p.dataset.outcome = m.outcome;
    return p;
  },
};
