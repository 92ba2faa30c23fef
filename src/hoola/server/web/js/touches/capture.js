// The capture games (Hola, Sedma, ...): the trick in the middle with its current winner, and the
// leader's choice to fight on or stop.

import { make } from "../api.js";
import { w } from "../words.js";

const LABELS = {
  en: { play: "Play", fight: "Fight on", stop: "Stop",
    winning: "{who} is winning the trick", led: "{who} led" },
  ko: { play: "내기", fight: "계속 싸우기", stop: "스톱",
    winning: "{who}이(가) 트릭을 이기는 중", led: "{who} 선" },
};

function word(key, lang) {
  return (LABELS[lang] || LABELS.en)[key] || LABELS.en[key] || key;
}

function deciding(ctx) {
  return ctx.moves.some((m) => m.verb === "stop");
}

export default {
  core: ["play"],
  verbs: ["play", "stop"],
  keys: { p: "play", s: "stop" },
  verbLabel(verb, ctx) {
    if (verb === "play" && deciding(ctx)) return word("fight", ctx.lang);
    return word(verb, ctx.lang);
  },
  winner(ctx) {
    const v = ctx.view;
    if (v && v.winning !== null && v.winning !== undefined && v.names) return v.names[v.winning];
    return null;
  },
  panel(ctx) {
    const v = ctx.view;
    const box = make("div", "touch-trick");
    if (v && v.trick && v.trick.length && v.winning !== null && v.winning !== undefined) {
      box.appendChild(make("span", "", word("winning", ctx.lang).replace("{who}", v.names[v.winning])));
    }
    if (deciding(ctx)) {
      // Stopping gives the trick to whoever is winning it: the question says whose it is.
      const mine = v && v.winning === v.player;
      box.appendChild(make("b", "fight-or-stop", mine ? w("web.fight.mine")
        : w("web.fight.theirs", { who: v && v.names ? v.names[v.winning] : "" })));
    }
    return box.childNodes.length ? box : null;
  },
};
