// The table drawn from the server's table data (zones with kind, owner, cards or count, label,
// note; scores; the moment; the teams): any game, no game's rules. Used by the live table and by
// replays.

import { backElement, cardElement, cardText, cardsInText } from "./cards.js";
import { make } from "./api.js";
import { t } from "./i18n.js";
import { botLevel, said } from "./words.js";

export const OWNED = ["hand", "meld", "captured"];

/** A row of cards (or backs for hidden cards, at most ``maxBacks`` drawn). */
export function cardRow(zone, { maxBacks = 12, cls = "" } = {}) {
  const row = make("div", "cards " + cls);
  if (zone.cards) {
    const players = zone.kind === "trick" && zone.note ? zone.note.split(/\s+/) : null;
    zone.cards.forEach((code, i) => {
      const card = cardElement(code);
      if (players && players[i]) {
        const wrap = make("div", "trick-card");
        wrap.dataset.player = players[i];
        wrap.appendChild(card);
        wrap.appendChild(make("div", "trick-who", players[i]));
        row.appendChild(wrap);
      } else {
        row.appendChild(card);
      }
    });
  } else {
    const n = Math.min(zone.count || 0, maxBacks);
    for (let i = 0; i < n; i++) row.appendChild(backElement());
  }
  return row;
}

/** One zone as a box: its label, its cards, its count. */
export function zoneBox(zone, opts = {}) {
  const box = make("div", `zone zone-${zone.kind}`);
  box.dataset.zone = zone.id;
  box.dataset.kind = zone.kind;
  if (zone.note) box.dataset.note = zone.note;
  const head = make("div", "zone-label");
  head.appendChild(richText("span", "zone-name", zoneLabel(zone)));
  // A pile holding no card is a notice on the table (Hoola's mission): its label, no count.
  const notice = zone.kind === "pile" && !zone.count && !(zone.cards && zone.cards.length);
  if (zone.kind !== "meld" && !notice) head.appendChild(make("span", "zone-count", `${zone.count}`));
  box.appendChild(head);
  if (zone.kind === "stock") {
    const pile = make("div", "cards stock-pile");
    if (zone.count > 0) pile.appendChild(backElement());
    pile.appendChild(make("div", "stock-count", String(zone.count)));
    box.appendChild(pile);
  } else if (zone.kind === "discard" && zone.cards && !opts.spread) {
    const pile = make("div", "cards discard-pile");
    const shown = zone.cards.slice(-4);
    shown.forEach((code, i) => {
      const card = cardElement(code, i === shown.length - 1 ? "top" : "under");
      pile.appendChild(card);
    });
    if (!zone.cards.length) pile.appendChild(make("div", "empty-pile", "—"));
    box.appendChild(pile);
    box.title = zone.cards.map(cardText).join(" ");
  } else if (!notice) {
    box.appendChild(cardRow(zone, opts));
  }
  return box;
}

function zoneLabel(zone) {
  if (zone.kind === "stock") return t("s.stock");
  if (zone.kind === "discard") return t("s.discard");
  return zone.say ? said(zone.say) : zone.label;
}

/** The seats' score figures: each score line with one value a seat, or one a team. */
export function seatScores(table, seat) {
  const out = [];
  for (const s of table.scores || []) {
    const label = s.say ? said(s.say) : s.label;
    if (s.values.length === table.names.length) out.push([label, s.values[seat]]);
    else if (table.teams && s.values.length === table.teams.length) {
      const team = table.teams.findIndex((tm) => tm.includes(seat));
      if (team >= 0) out.push([label, s.values[team]]);
    }
  }
  return out;
}

/** The team index of a seat (null when everyone plays alone). */
export function teamOf(teams, seat) {
  if (!teams) return null;
  const i = teams.findIndex((tm) => tm.includes(seat));
  return i >= 0 ? i : null;
}

// Which side of the table each other seat sits on, by how many others there are: one across,
// two either side, and from three on the first on the left, the last on the right, the rest
// across (six: two a side).
const SIDES = {
  1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"],
  4: ["left", "top", "top", "right"], 5: ["left", "top", "top", "top", "right"],
  6: ["left", "left", "top", "top", "right", "right"],
};

/** The seats around the table in play order as ``[seat, side]``: ``me`` (a spectator: the first
 * seat) at the bottom, then the others clockwise from its left, up the left side, across the
 * top and down the right. Partners of 2x2 sides face each other. */
export function seatPlaces(n, me) {
  const bottom = me === null || me === undefined ? 0 : me;
  const others = [];
  for (let k = 1; k < n; k++) others.push((bottom + k) % n);
  const sides = SIDES[others.length] || others.map(() => "top");
  return [[bottom, "bottom"], ...others.map((q, i) => [q, sides[i]])];
}

/** One seat's panel: name, state, card count, scores, and its melds/captured piles/open hand. */
export function seatPanel(table, seat, info) {
  const { seats = null, me = null, moment = null, openHand = true, timer = null } = info;
  const panel = make("section", "seat");
  panel.dataset.seat = seat;
  const team = teamOf(table.teams, seat);
  if (team !== null) panel.classList.add(`team-${team}`);
  const m = table.moment || {};
  const acting = (moment && moment.actors ? moment.actors : m.actors || []).includes(seat);
  if (m.turn === seat && m.phase !== "over") panel.classList.add("turn");
  if (acting) panel.classList.add("acting");
  const head = make("header", "seat-head");
  const name = make("span", "seat-name", table.names[seat] || `#${seat + 1}`);
  head.appendChild(name);
  const s = seats && seats[seat];
  if (seat === me) head.appendChild(make("span", "badge you", t("s.you")));
  if (s && s.kind === "bot") head.appendChild(make("span", "badge bot", `${t("s.bot")} ${botLevel(s.bot)}`.trim()));
  if (s && s.kind === "person" && !s.connected && seat !== me) {
    head.appendChild(make("span", "badge away", t("s.away")));
  }
  const hand = (table.zones || []).find((z) => z.kind === "hand" && z.owner === seat);
  if (hand) {
    const count = make("span", "badge count", hand.count === 1 ? t("s.card") : t("s.cards", { n: hand.count }));
    count.dataset.count = hand.count;
    if (hand.count === 1) count.classList.add("last-card");  // one card left: flagged
    head.appendChild(count);
    if (hand.note === "out") panel.classList.add("out");
  }
  if (m.turn === seat && m.phase !== "over") head.appendChild(make("span", "badge turn", t("s.turn")));
  if (timer) head.appendChild(timer);
  panel.appendChild(head);
  const scores = seatScores(table, seat);
  if (scores.length) {
    const line = make("div", "seat-scores");
    for (const [label, value] of scores) {
      const item = make("span", "seat-score");
      item.appendChild(make("span", "score-label", label));
      item.appendChild(make("b", "", value));
      line.appendChild(item);
    }
    panel.appendChild(line);
  }
  if (hand && seat !== me) {
    const row = hand.cards && openHand ? cardRow(hand, { cls: "open-hand small" })
      : cardRow({ ...hand, cards: null }, { maxBacks: 8, cls: "backs small" });
    row.dataset.zone = hand.id;
    panel.appendChild(row);
  }
  const owned = (table.zones || []).filter((z) => z.owner === seat && z.kind !== "hand");
  if (owned.length) {
    const area = make("div", "owned");
    for (const z of owned) area.appendChild(zoneBox(z, { cls: "small" }));
    panel.appendChild(area);
  }
  return panel;
}

/** The middle of the table: every zone nobody owns (stock, discards, trick, piles, upcard).
 * ``drawZone(zone)``, a game's touch, may draw a zone its own way (an element, or null for the
 * generic box). */
export function middle(table, drawZone = null) {
  const area = make("div", "middle-zones");
  const order = ["stock", "discard", "upcard", "trick", "pile", "captured", "meld", "hand"];
  // The settlement is the result's table, not a box on the table.
  const zones = (table.zones || []).filter((z) => (z.owner === null || z.owner === undefined) &&
    z.id !== "settlement");
  zones.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const z of zones) {
    const box = (drawZone && drawZone(z)) || zoneBox(z);
    if (z.kind === "trick") markTrickWinner(box, z);
    area.appendChild(box);
  }
  return area;
}

/** Mark the trick card of the player now winning (the label says "X winning"). */
export function markTrickWinner(box, zone, winnerName = null) {
  let who = winnerName;
  if (!who) {
    const m = /(\S+) winning/.exec(zone.label || "");
    if (m) who = m[1];
  }
  if (!who) return;
  for (const node of box.querySelectorAll(".trick-card")) {
    if (node.dataset.player === who && !node.classList.contains("winning")) {
      node.classList.add("winning");
      node.appendChild(make("div", "winning-tag", t("s.winning")));
    }
  }
}

/** A score table (a match's scoreboard or a deal's scores) as an HTML table. */
export function scoreTable(board) {
  const wrap = make("div", "scoreboard");
  if (!board) return wrap;
  const table = make("table", "scores");
  const names = board.names || [];
  const teams = board.teams;
  const head = make("tr");
  head.appendChild(make("th", "", ""));
  for (const s of board.scores || []) head.appendChild(make("th", "", s.say ? said(s.say) : s.label));
  table.appendChild(head);
  const byTeam = teams && (board.scores || []).every((s) => s.values.length === teams.length) &&
    (board.scores || []).length > 0;
  const rows = byTeam ? teams.map((tm) => tm.map((q) => names[q]).join(" + ")) : names;
  rows.forEach((who, i) => {
    const tr = make("tr");
    tr.dataset.row = i;
    tr.appendChild(make("th", "", who));
    for (const s of board.scores || []) {
      const v = s.values.length === rows.length ? s.values[i]
        : teams && s.values.length === teams.length && !byTeam ? s.values[teamOf(teams, i)] : "";
      const td = make("td", "", v);
      td.dataset.label = s.label;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  });
  wrap.appendChild(table);
  const notes = [];
  for (const z of board.zones || []) notes.push(z.say ? said(z.say) : z.label);
  if (board.moment && board.moment.prompt) notes.push(said(board.moment.say || board.moment.prompt));
  for (const n of notes) wrap.appendChild(richText("div", "score-note", n));
  return wrap;
}

// Small words of the notation, as signs on a page not in English ("Bob 붙이기 6♣ → m2").
const SIGNS = { on: "→", with: "+", for: ":" };

/** A log line in the page's language (``ctx.lang``): English keeps the record's notation;
 * another language writes its verb in the game's own word (``touch.verbLabel``, as on the
 * buttons) and its small words as signs. Names and cards stay as they are. */
export function toldLine(line, touch, ctx) {
  if (ctx.lang === "en" || !touch || !touch.verbLabel) return line;
  const words = line.split(" ");
  if (words.length < 2 || !(touch.verbs || []).includes(words[1])) return line;
  return [words[0], touch.verbLabel(words[1], ctx), ...words.slice(2).map((x) => SIGNS[x] || x)]
    .join(" ");
}

/** A log line with its cards written with suit symbols. */
export function logLine(text) {
  const li = make("li", "log-line");
  li.appendChild(cardsInText(text));
  return li;
}

/** An element holding ``text`` with its cards written with suit symbols. */
export function richText(tag, cls, text) {
  const node = make(tag, cls);
  node.appendChild(cardsInText(text));
  return node;
}
