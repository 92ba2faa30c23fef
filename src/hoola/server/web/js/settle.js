// A finished deal's settlement as a table: who pays whom, how much, and why (the rule's reason
// for each amount, then what multiplies it), every figure the engine's. Games without payments
// between seats (the capture games) list what each side scores and why.

import { make } from "./api.js";
import { cardsInText } from "./cards.js";
import { said, w } from "./words.js";

function sideName(table, seat) {
  if (seat === null || seat === undefined) return w("web.set.bank");
  const team = table.teams ? table.teams.find((tm) => tm.includes(seat)) : null;
  return team && team.length > 1 ? team.map((q) => table.names[q]).join(" + ") : table.names[seat];
}

function cell(tag, cls, text) {
  const node = make(tag, cls);
  node.appendChild(cardsInText(text));
  return node;
}

/** How the deal ended, in the page's language (an element, or null). */
export function outcomeLine(table) {
  const said0 = (table.outcome || [])[0] || (table.moment && (table.moment.say || table.moment.prompt));
  if (!said0) return null;
  return cell("p", "result-end", said(said0));
}

/** The settlement table (an element), or null when the table has no settlement lines. */
export function paymentsTable(table) {
  const lines = table.settlement || [];
  if (!lines.length) return null;
  const scores = lines.every((p) => p.payer === null || p.payer === undefined);
  const box = make("div", "payments-box");
  box.appendChild(make("h3", "", w("web.set.title")));
  const tab = make("table", "payments");
  tab.id = "payments";
  const head = make("tr");
  if (!scores) head.appendChild(make("th", "", w("web.set.payer")));
  head.appendChild(make("th", "", scores ? "" : w("web.set.payee")));
  head.appendChild(make("th", "", scores ? w("web.set.scores") : w("web.set.amount")));
  head.appendChild(make("th", "", w("web.set.why")));
  tab.appendChild(head);
  for (const p of lines) {
    const tr = make("tr", "payment");
    tr.dataset.payer = p.payer === null || p.payer === undefined ? "" : String(p.payer);
    tr.dataset.payee = p.payee === null || p.payee === undefined ? "" : String(p.payee);
    tr.dataset.amount = p.amount;
    if (!scores) tr.appendChild(make("td", "payer", sideName(table, p.payer)));
    tr.appendChild(make("td", "payee", sideName(table, p.payee)));
    tr.appendChild(make("td", "amount", p.amount));
    const why = make("td", "why");
    for (const part of p.why || []) why.appendChild(cell("span", "why-part", said(part)));
    tr.appendChild(why);
    tab.appendChild(tr);
  }
  box.appendChild(tab);
  return box;
}
