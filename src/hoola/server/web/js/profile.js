// A profile: the account's games played, its ratings per game and table size, its recent finished
// games to replay or download (/profile/{name}; /profile is the account signed in).

import "./account-texts.js";
import { api, make } from "./api.js";
import { applyLabels, errorText, getLang, langButton, onLangChange, t } from "./i18n.js";
import { onAccount } from "./account.js";
import { tableTitle } from "./touches/index.js";

const $ = (id) => document.getElementById(id);
let data = null;

function cell(value, cls = "") { return make("td", cls, value == null ? "" : String(value)); }

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(getLang() === "ko" ? "ko-KR" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" }) : "";
}

function render() {
  if (!data) return;
  const a = data.account;
  $("p-title").textContent = t("p.title", { name: a.name }) + (a.guest ? ` (${t("acc.guest.badge")})` : "");
  $("p-info").textContent = `${t("p.games", { n: data.games })} · ${t("p.since", { d: when(a.created) })}`;
  const ratings = $("p-ratings").querySelector("tbody");
  ratings.replaceChildren();
  if (!data.ratings.length) {
    const tr = make("tr");
    const td = cell(t("p.none"), "muted");
    td.colSpan = 5;
    tr.appendChild(td);
    ratings.appendChild(tr);
  }
  for (const r of data.ratings) {
    const tr = make("tr");
    tr.dataset.game = r.game;
    tr.dataset.players = r.players;
    const link = make("a", "", r.game);
    link.href = `/leaderboard/${encodeURIComponent(r.game)}?players=${r.players}`;
    const name = make("td");
    name.appendChild(link);
    tr.append(name, cell(r.players, "num"),
      cell(r.text, `num rating${r.provisional ? " provisional" : ""}`),
      cell(t("p.uncertainty", { s: r.sigma.toFixed(1) }), "num"), cell(r.games, "num"));
    ratings.appendChild(tr);
  }
  const recent = $("p-recent").querySelector("tbody");
  recent.replaceChildren();
  if (!data.recent.length) {
    const tr = make("tr");
    const td = cell(t("p.norecent"), "muted");
    td.colSpan = 6;
    tr.appendChild(td);
    recent.appendChild(tr);
  }
  for (const g of data.recent) {
    const tr = make("tr");
    tr.dataset.table = g.table_id;
    const change = g.change == null ? "" : `${g.change > 0 ? "+" : ""}${g.change.toFixed(1)}`;
    const links = make("td", "row");
    const replay = make("a", "button", t("t.replay"));
    replay.href = `/replay/${g.table_id}`;
    const record = make("a", "button", t("t.record"));
    record.href = `/api/tables/${g.table_id}/record`;
    record.setAttribute("download", `${g.table_id}.toml`);
    links.append(replay, record);
    tr.append(cell(tableTitle(g.game, null, g.rules)), cell(g.players, "num"), cell(when(g.finished)),
      cell(g.rated ? (g.place ?? "") : t("p.unrated"), "num"),
      cell(change, `num change${g.change > 0 ? " up" : g.change < 0 ? " down" : ""}`), links);
    recent.appendChild(tr);
  }
}

async function load() {
  $("p-error").textContent = "";
  let name = decodeURIComponent(location.pathname.split("/")[2] || "");
  try {
    if (!name) {
      const me = (await api("/api/account/me")).account;
      if (!me) { $("p-title").textContent = t("p.signedout"); data = null; return; }
      name = me.name;
    }
    data = await api(`/api/accounts/${encodeURIComponent(name)}`);
    render();
  } catch (err) {
    $("p-error").textContent = errorText(err.code, err.message);
  }
}

applyLabels(document);
langButton($("lang"));
onLangChange(render);
onAccount(() => { if (!location.pathname.split("/")[2]) load(); });
load();
