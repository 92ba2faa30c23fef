// The games' own sentences (prompts, refusals, settlement lines) written from their keys and
// arguments in the page's language. The engine sends {key, args, text}; words.json holds every
// key in English and Korean (a test checks that every key a game says is there in both). Cards
// in the arguments stay in notation here: the page draws them as glyphs (cardsInText).

import { getLang } from "./i18n.js";

let WORDS = { en: {}, ko: {} };

/** Settles once the words are loaded (a page awaits it before drawing the game's words; its
 * own labels need not wait). Offline, each sentence's English text is still there. */
export const wordsReady = fetch("/static/words.json")
  .then((got) => (got.ok ? got.json() : null))
  .then((data) => { if (data) WORDS = data; })
  .catch(() => {});

/** A sentence ({key, args, text}, or plain text) in the current language. */
export function said(s) {
  if (s === null || s === undefined) return "";
  if (typeof s === "string") return s;
  const lang = getLang();
  const template = (WORDS[lang] || {})[s.key] ?? WORDS.en[s.key];
  if (template === undefined) return s.text || "";
  const args = s.args || {};
  return template.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = args[name];
    if (v === undefined || v === null) return whole;
    return typeof v === "object" ? said(v) : String(v);
  });
}

/** The page's own sentence ``key`` (a words.json key) with ``args``. */
export function w(key, args = {}) {
  return said({ key, args, text: key });
}

/** A bot's strength for people: its level's word; an engine's own kind (expert, ismcts) says
 * nothing more than "bot". */
export function botLevel(kind) {
  return kind && hasWords(`web.bot.${kind}`) ? w(`web.bot.${kind}`) : "";
}

/** Whether ``key`` has words in the current language. */
export function hasWords(key) {
  return key in ((WORDS[getLang()] || {})) || key in WORDS.en;
}
