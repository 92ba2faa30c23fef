// Cards drawn as SVG from their notation ("7s", "Th", "JK", "JK=7h"), and sorted for a hand.
// Nothing here knows any game: a card is a rank and a suit, or a joker (standing for a card).

const SVG = "http://www.w3.org/2000/svg";
export const RANKS = "A23456789TJQK";
export const SUITS = "shdc";
const SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANK_TEXT = { T: "10" };

/** A card's parts: {rank, suit, joker, as (the card a joker stands for), code}; null if unread. */
export function parseCard(code) {
  if (typeof code !== "string") return null;
  const [face, stands] = code.split("=", 2);
  if (/^jk$/i.test(face)) {
    return { joker: true, rank: null, suit: null, as: stands ? parseCard(stands) : null, code };
  }
  const m = /^(10|[2-9TJQKA])([shdc])$/i.exec(face);
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  return { joker: false, rank, suit: m[2].toLowerCase(), as: null, code };
}

/** Whether a word of an action's notation is a card. */
export function isCard(word) {
  return parseCard(word) !== null;
}

/** The card as the hand holds it: a joker standing for a card is still the joker. */
export function faceOf(code) {
  return code.split("=", 1)[0].replace(/^jk$/i, "JK");
}

/** A card in words for buttons and logs: "7♥", "10♠", "JK=7♥". */
export function cardText(code) {
  const c = parseCard(code);
  if (!c) return code;
  if (c.joker) return c.as ? `JK=${cardText(c.as.code)}` : "JK";
  return `${RANK_TEXT[c.rank] || c.rank}${SYMBOL[c.suit]}`;
}

// A card code inside running text: "7h", "Td", "10s", "JK", "JK=7h", next to any punctuation
// ("Ah;", "[4s", "5c]") but not inside a word or a number. Ranks upper case, suits lower case,
// as the notation writes them, so English words ("as", "Is") stay words.
const CODE_IN_TEXT = /(?<![A-Za-z0-9=])(JK(?:=(?:10|[2-9TJQKA])[shdc])?|(?:10|[2-9TJQKA])[shdc])(?![A-Za-z0-9])/g;

/** Every card code in ``text`` as text with suit symbols: "[4s 5c]" -> "[4♠ 5♣]". */
export function glyphText(text) {
  return String(text).replace(CODE_IN_TEXT, (code) => cardText(code));
}

/** ``text`` as nodes, each card code a span in its suit's colour (class ``log-card``). */
export function cardsInText(text) {
  const out = document.createDocumentFragment();
  const s = String(text);
  let at = 0;
  for (const m of s.matchAll(CODE_IN_TEXT)) {
    if (m.index > at) out.appendChild(document.createTextNode(s.slice(at, m.index)));
    const c = parseCard(m[0]);
    const span = document.createElement("span");
    span.className = "log-card " + suitClass(c.joker ? null : c.suit);
    span.dataset.card = m[0];
    span.textContent = cardText(m[0]);
    out.appendChild(span);
    at = m.index + m[0].length;
  }
  if (at < s.length) out.appendChild(document.createTextNode(s.slice(at)));
  return out;
}

/** The suit's colour class: red hearts, diamonds; black spades, clubs (four colours optional). */
export function suitClass(suit) {
  return suit ? `suit-${suit}` : "suit-joker";
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

/** One card face as an SVG element (60 x 84 units, scaled by CSS). */
export function cardSVG(code) {
  const c = parseCard(code);
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }));
  if (!c) {
    svg.appendChild(el("text", { x: 30, y: 48, "text-anchor": "middle", class: "card-odd" }, code));
    svg.setAttribute("aria-label", code);
    return svg;
  }
  if (c.joker) {
    svg.classList.add("joker");
    svg.appendChild(el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, class: "joker-frame" }));
    svg.appendChild(el("text", { x: 30, y: 38, "text-anchor": "middle", class: "joker-star" },
      "\u2605"));
    svg.appendChild(el("text", { x: 30, y: 54, "text-anchor": "middle", class: "joker-word" },
      "JOKER"));
    svg.appendChild(el("text", { x: 7, y: 16, class: "corner joker-corner" }, "JK"));
    if (c.as) {
      svg.classList.add("wild");
      const g = el("g", { class: suitClass(c.as.suit) });
      g.appendChild(el("rect", { x: 8, y: 60, width: 44, height: 18, rx: 4, class: "wild-badge" }));
      g.appendChild(el("text", { x: 30, y: 74, "text-anchor": "middle", class: "wild-text" },
        "=" + cardText(c.as.code)));
      svg.appendChild(g);
    }
    svg.setAttribute("aria-label", c.as ? `joker as ${cardText(c.as.code)}` : "joker");
    return svg;
  }
  const g = el("g", { class: suitClass(c.suit) });
  const rank = RANK_TEXT[c.rank] || c.rank;
  g.appendChild(el("text", { x: 5, y: 17, class: "corner rank" + (rank.length > 1 ? " ten" : "") },
    rank));
  g.appendChild(el("text", { x: 5, y: 31, class: "corner pip" }, SYMBOL[c.suit]));
  g.appendChild(el("text", { x: 55, y: 79, "text-anchor": "end", class: "corner rank flip" +
    (rank.length > 1 ? " ten" : "") }, rank));
  if ("JQK".includes(c.rank)) {
    g.appendChild(el("rect", { x: 15, y: 20, width: 30, height: 44, rx: 3, class: "court" }));
    g.appendChild(el("text", { x: 30, y: 50, "text-anchor": "middle", class: "court-letter" },
      c.rank));
    g.appendChild(el("text", { x: 30, y: 62, "text-anchor": "middle", class: "court-pip" },
      SYMBOL[c.suit]));
  } else {
    g.appendChild(el("text", { x: 32, y: 58, "text-anchor": "middle", class: "center-pip" +
      (c.rank === "A" ? " ace" : "") }, SYMBOL[c.suit]));
  }
  svg.appendChild(g);
  svg.setAttribute("aria-label", cardText(code));
  return svg;
}

/** A card's back (a hidden card). */
export function backSVG() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", role: "img",
    "aria-label": "hidden card" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }));
  svg.appendChild(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }));
  svg.appendChild(el("path", { d: "M30 24 L42 42 L30 60 L18 42 Z", class: "card-back-mark" }));
  return svg;
}

/** A card element (div wrapping the SVG) with its code in data-card. */
export function cardElement(code, extra = "") {
  const div = document.createElement("div");
  div.className = "card " + extra;
  div.dataset.card = code;
  const c = parseCard(code);
  if (c && c.joker) div.classList.add("is-joker");
  if (c && c.as) div.classList.add("is-wild");
  div.title = cardText(code);
  div.appendChild(cardSVG(code));
  return div;
}

/** A hidden card element. */
export function backElement(extra = "") {
  const div = document.createElement("div");
  div.className = "card hidden-card " + extra;
  div.appendChild(backSVG());
  return div;
}

/** Sort key: by suit then rank (the records' order), or by rank then suit; jokers last. */
export function cardKey(code, byRank = false) {
  const c = parseCard(faceOf(code));
  if (!c) return [2, 0];
  if (c.joker) return [1, 0];
  const r = RANKS.indexOf(c.rank), s = SUITS.indexOf(c.suit);
  return [0, byRank ? r * 4 + s : s * 13 + r];
}

export function compareCards(a, b, byRank = false) {
  const ka = cardKey(a, byRank), kb = cardKey(b, byRank);
  return ka[0] - kb[0] || ka[1] - kb[1];
}
