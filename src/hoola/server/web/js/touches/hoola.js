// Hoola (훌라): the games' own words, the "Thank you" (땡큐) claim during a window, and why a move
// is not open yet. Which move is legal is still the server's word.

import { make } from "../api.js";
import { cardText } from "../cards.js";

const LABELS = {
  en: { draw: "Draw", take: "Take", meld: "Meld", add: "Add", discard: "Discard",
    knock: "Knock (Stop)", blast: "Blast", sevens: "Four sevens", play: "Play", drop: "Drop",
    thanks: "Thank you!", claimable: "Thank you? You may take {card}, or let it go" },
  ko: { draw: "뽑기", take: "가져오기", meld: "등록", add: "붙이기", discard: "버리기",
    knock: "스톱", blast: "소빵/대빵", sevens: "포세븐", play: "참가", drop: "다이",
    thanks: "땡큐!", claimable: "땡큐? {card}을(를) 가져오거나 넘기세요" },
};

function word(key, lang) {
  return (LABELS[lang] || LABELS.en)[key] || LABELS.en[key] || key;
}

function claiming(ctx) {
  const v = ctx.view;
  return !!(v && v.claimable && v.current !== v.player && ctx.moves.some((m) => m.verb === "take"));
}

export default {
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
  panel(ctx) {
    if (!claiming(ctx)) return null;
    const box = make("div", "touch-claim");
    box.appendChild(make("b", "", word("claimable", ctx.lang)
      .replace("{card}", cardText(ctx.view.claimable))));
    return box;
  },
};
