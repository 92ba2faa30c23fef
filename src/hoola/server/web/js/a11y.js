// What a screen reader hears at the table: every card named in words ("seven of spades", "스페이드
// 7"), whatever draws it (a MutationObserver labels each card as it comes into the page), and a
// live region that reads out what happens (a move, your turn, a claim, a bot standing in).

import { isCard, parseCard } from "./cards.js";
import { getLang } from "./i18n.js";
import { w } from "./words.js";

const RANK_EN = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
const SUIT_EN = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_KO = { A: "에이스", T: "10", J: "잭", Q: "퀸", K: "킹" };
const SUIT_KO = { s: "스페이드", h: "하트", d: "다이아몬드", c: "클로버" };

/** A card in words, in the page's language: "seven of spades", "스페이드 7", "joker as ten of
 * hearts"; a code that is no card is returned as it is. */
export function cardName(code, lang = getLang()) {
  const c = parseCard(code);
  if (!c) return String(code);
  const ko = lang === "ko";
  if (c.joker) {
    if (!c.as) return ko ? "조커" : "joker";
    return ko ? `조커 (${cardName(c.as.code, lang)})` : `joker as ${cardName(c.as.code, lang)}`;
  }
  if (ko) return `${SUIT_KO[c.suit]} ${RANK_KO[c.rank] || c.rank}`;
  return `${RANK_EN[c.rank]} of ${SUIT_EN[c.suit]}`;
}

/** A face-down card in words. */
export function hiddenName(lang = getLang()) {
  return lang === "ko" ? "뒤집힌 카드" : "face-down card";
}

// A card code inside running text, as cards.js finds it, to be read out as words.
const CODE = /(?<![A-Za-z0-9=])(JK(?:=(?:10|[2-9TJQKA])[shdc])?|(?:10|[2-9TJQKA])[shdc])(?![A-Za-z0-9])/g;
const GLYPH = /(?<![A-Za-z0-9])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])/g;
const FROM_GLYPH = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };

/** ``text`` with its cards (codes or glyphs) in words, for the live region. */
export function spoken(text) {
  return String(text).replace(CODE, (code) => cardName(code))
    .replace(GLYPH, (_, rank, suit) => cardName(`${rank === "10" ? "T" : rank}${FROM_GLYPH[suit]}`));
}

/** Cards in words, as one list: "three of spades, four of spades and five of spades". */
function cardList(codes) {
  const names = codes.map((c) => cardName(c));
  if (names.length < 2) return names.join("");
  return w("web.say.and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** A move in record notation ("Alice discard Td", "Bob add 6s on m2") as a sentence in the
 * page's language ("Alice discards the ten of diamonds"); a line it does not know is read with
 * its cards in words. */
export function moveWords(line) {
  const [who, verb, ...args] = String(line).trim().split(/\s+/);
  const low = args.map((a) => a.toLowerCase());
  const card = args[0];
  const said = (key, more = {}) => w(`web.say.${key}`, { who, ...more });
  const meld = (target) => (/^m\d+$/i.test(target) ? { id: target.slice(1) } : null);
  switch (verb) {
    case "draw":
      if (!args.length) return said("draw");
      if (args.length === 1 && isCard(card)) return said("draw-card", { card: cardName(card) });
      break;
    case "take":
      if (!args.length) return said("take-top");
      if (args.length === 1 && isCard(card)) return said("take", { card: cardName(card) });
      if (low[1] === "with" && args.slice(2).every(isCard)) {
        return said("take-with", { card: cardName(card), cards: cardList(args.slice(2)) });
      }
      if (low[1] === "for" && ["blast", "sevens"].includes(low[2])) {
        return said(`take-${low[2]}`, { card: cardName(card) });
      }
      break;
    case "meld":
      if (args.length && args.every(isCard)) return said("meld", { cards: cardList(args) });
      break;
    case "add":
      if (args.length === 3 && low[1] === "on" && isCard(card)) {
        const m = meld(args[2]);
        if (m) return said("add", { card: cardName(card), ...m });
        if (isCard(args[2])) return said("add-on", { card: cardName(card), on: cardName(args[2]) });
      }
      break;
    case "swap": {
      const cards = args.slice(0, -4);
      if (args.length >= 5 && low.slice(-4, -1).join(" ") === "for jk on" && cards.every(isCard)) {
        const target = args[args.length - 1];
        const m = meld(target);
        if (m) return said("swap", { cards: cardList(cards), ...m });
        if (isCard(target)) return said("swap-on", { cards: cardList(cards), on: cardName(target) });
      }
      break;
    }
    case "discard": case "play": case "swap-upcard":
      if (args.length === 1 && isCard(card)) return said(verb, { card: cardName(card) });
      if (verb === "play" && !args.length) return said("play-on");
      break;
    case "dark":
      if (!args.length) return said("dark");
      if (args.length === 1 && isCard(card)) return said("dark-card", { card: cardName(card) });
      break;
    case "say":
      if (args.length === 1) return said("say", { word: args[0] });
      break;
    case "knock": case "blast": case "sevens": case "drop": case "stop": case "warn":
    case "buy-in": case "retire":
      if (!args.length) return said(verb);
      break;
    default:
      break;
  }
  return spoken(line);
}

/** Give one card element its name (and a picked card of the hand its state). */
function label(card) {
  const code = card.dataset.card;
  const name = code ? cardName(code) : hiddenName();
  card.setAttribute("aria-label", name);
  const inHand = !!card.closest("#hand");
  card.setAttribute("role", inHand ? "button" : "img");
  if (inHand) card.setAttribute("aria-pressed", card.classList.contains("picked") ? "true" : "false");
  for (const svg of card.querySelectorAll("svg")) svg.setAttribute("aria-hidden", "true");
}

/** Name every card under ``root``. */
export function labelCards(root = document) {
  for (const card of root.querySelectorAll(".card")) label(card);
}

/** Keep naming the cards that come into the page (and name them anew when the language
 * changes: call it again). */
export function watchCards() {
  labelCards(document);
  const seen = new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.classList.contains("card")) label(node);
        labelCards(node);
      }
    }
  });
  seen.observe(document.body, { childList: true, subtree: true });
}

/** Read ``text`` out (the live region; its cards in words). */
export function announce(text) {
  say(text && spoken(text));
}

/** Read out moves given in record notation, each as a sentence (moveWords). */
export function announceMoves(lines) {
  say(lines.map(moveWords).join(". "));
}

let saying = null;  // what this task has said so far: read out together when it ends

function say(words) {
  if (!words || !document.getElementById("live")) return;
  // A move and "Your turn" said at once are read as one: the second would replace the first
  // before a screen reader heard it.
  if (!saying) {
    saying = [];
    queueMicrotask(() => {
      const region = document.getElementById("live");
      // A new node each time, so the same words twice are read twice.
      const line = document.createElement("div");
      line.textContent = saying.join(". ");
      saying = null;
      if (region) region.replaceChildren(line);
    });
  }
  saying.push(words);
}
