// The leaderboard of a game and table size (/leaderboard/{game}?players=N): the named accounts by
// their ratings' ordinals, provisional ones marked "?", and the bots' fixed ratings beside them.

import "./account-texts.js";
import { api, make } from "./api.js";
import { applyLabels, errorText, langButton, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let data = null;

function cell(value, cls = "") { return make("td", cls, value == null ? "" : String(value)); }

function render() {
  if (!data) return;
  const size = $("lb-size");
  size.replaceChildren();
  for (const n of data.sizes) {
    const o = make("option", "", String(n));
    o.value = n;
    if (n === data.players) o.selected = true;
    size.appendChild(o);
  }
  const rows = $("lb-rows");
  rows.replaceChildren();
  $("lb-none").hidden = data.rows.length > 0;
  for (const r of data.rows) {
    const tr = make("tr");
    tr.dataset.name = r.name;
    const who = make("td");
    const link = make("a", "", r.name);
    link.href = `/profile/${encodeURIComponent(r.name)}`;
    who.appendChild(link);
    tr.append(cell(r.rank, "num"), who,
      cell(r.text, `num rating${r.provisional ? " provisional" : ""}`),
      cell(t("p.uncertainty", { s: r.sigma.toFixed(1) }), "num"), cell(r.games, "num"));
    rows.appendChild(tr);
  }
  const anchors = $("lb-anchors");
  anchors.replaceChildren();
  for (const a of data.anchors) {
    const tr = make("tr", "bot");
    tr.append(cell(a.bot), cell(a.text, "num rating"));
    anchors.appendChild(tr);
  }
}

async function load(game, players) {
  $("lb-error").textContent = "";
  const query = players ? `?players=${encodeURIComponent(players)}` : "";
  try {
    data = await api(`/api/leaderboard/${encodeURIComponent(game)}${query}`);
    render();
  } catch (err) {
    $("lb-error").textContent = errorText(err.code, err.message);
  }
}

function go() {
  const game = $("lb-game").value;
  const players = $("lb-size").value;
  history.replaceState(null, "", `/leaderboard/${encodeURIComponent(game)}${players ? `?players=${players}` : ""}`);
  load(game, players);
}

async function init() {
  applyLabels(document);
  langButton($("lang"));
  onLangChange(render);
  const wanted = decodeURIComponent(location.pathname.split("/")[2] || "hoola");
  const players = new URLSearchParams(location.search).get("players");
  try {
    const games = await api("/api/games");
    const select = $("lb-game");
    for (const g of games) {
      const o = make("option", "", g.title);
      o.value = g.name;
      if (g.name === wanted) o.selected = true;
      select.appendChild(o);
    }
  } catch (err) {
    $("lb-error").textContent = errorText(err.code, err.message);
  }
  $("lb-game").addEventListener("change", () => { $("lb-size").replaceChildren(); go(); });
  $("lb-size").addEventListener("change", go);
  load(wanted, players);
}

init();
