// The lobby's tournaments: the list (open for entries, in play, over) and the form that makes one
// of any format, game and preset; the tournament's own page is tournament.js's.

import { api, BOT_LEVELS, make } from "./api.js";
import { applyLabels, errorText, onLangChange, t } from "./i18n.js";
import { w } from "./words.js";

const $ = (id) => document.getElementById(id);
let games = [];

/** What this browser holds in a tournament: {creator, token, name}. */
export function savedEntry(id) {
  try { return JSON.parse(localStorage.getItem(`hoola.tournament.${id}`) || "{}"); } catch { return {}; }
}

export function saveEntry(id, more) {
  localStorage.setItem(`hoola.tournament.${id}`, JSON.stringify({ ...savedEntry(id), ...more }));
}

function fillGames() {
  const format = $("tn-format").value;
  const game = $("tn-game");
  const chosen = game.value;
  game.replaceChildren();
  for (const g of games) {
    // Blackpool's tournament is played at the game that has Blackpool's rules.
    if (format === "blackpool" && !g.presets.some((p) => p.name === "blackpool")) continue;
    const o = make("option", "", g.title);
    o.value = g.name;
    game.appendChild(o);
  }
  if ([...game.options].some((o) => o.value === chosen)) game.value = chosen;
  fillPresets();
  const swiss = format === "swiss";
  $("tn-rounds-row").hidden = !swiss;
  $("tn-size-row").hidden = format === "blackpool";
  if (format === "blackpool" && Number($("tn-entrants").value) < 8) $("tn-entrants").value = 8;
}

function fillPresets() {
  const g = games.find((x) => x.name === $("tn-game").value);
  const preset = $("tn-preset");
  preset.replaceChildren();
  if (!g) return;
  for (const p of g.presets) {
    const o = make("option", "", p.title || p.name);
    o.value = p.name;
    preset.appendChild(o);
  }
  preset.value = $("tn-format").value === "blackpool" ? "blackpool" : g.default_preset;
}

function item(row) {
  const li = make("li", "table-item tournament-item");
  li.dataset.id = row.id;
  const head = make("div", "table-head");
  const name = row.name || `${t(`tn.${row.format}`)} · ${row.game}`;
  const link = make("a", "quick-game", name);
  link.href = `/tournament/${encodeURIComponent(row.id)}`;
  head.append(link, make("span", "chip", t(`tn.${row.format}`)), make("span", "chip", row.rules),
    make("span", "muted", t(`tn.${row.status}`)));
  if (row.status === "open") head.append(make("span", "muted", t("tn.entered", { n: row.entrants, m: row.size })));
  if (row.winner) head.append(make("span", "chip", `🏆 ${row.winner}`));
  li.appendChild(head);
  return li;
}

async function loadList() {
  try {
    const rows = await api("/api/tournaments");
    const list = $("tn-list");
    list.replaceChildren(...rows.slice(0, 12).map(item));
    if (!rows.length) list.appendChild(make("li", "muted", t("tn.none")));
  } catch (err) {
    $("tn-error").textContent = errorText(err.code, err.message);
  }
}

async function create(e) {
  e.preventDefault();
  $("tn-error").textContent = "";
  const format = $("tn-format").value;
  const settings = {};
  if (format !== "blackpool") settings.table_size = Number($("tn-size").value);
  if (format === "swiss") settings.rounds = Number($("tn-rounds").value);
  if ($("tn-deals").value) settings.deals = Number($("tn-deals").value);
  let options = {};
  const text = $("tn-options").value.trim();
  if (text) {
    try { options = JSON.parse(text); } catch {
      $("tn-error").textContent = t("tn.options") + ": JSON";
      return;
    }
  }
  const bots = $("tn-bots").value;
  const body = { format, game: $("tn-game").value, preset: $("tn-preset").value, options, settings,
    name: $("tn-name").value.trim() || null, entrants: Number($("tn-entrants").value),
    bots: bots || null };
  if ($("tn-quick").checked) Object.assign(body, { bot_delay: 0, claim_seconds: 0.5, bot_reaction: [0, 0.1] });
  try {
    const made = await api("/api/tournaments", { method: "POST", body });
    saveEntry(made.id, { creator: made.token });
    location.href = made.url;
  } catch (err) {
    $("tn-error").textContent = errorText(err.code, err.message);
  }
}

/** The formats and the bots' strengths, in the page's language (the choices kept). */
function fillChoices() {
  const format = $("tn-format");
  const chosen = format.value || "swiss";
  format.replaceChildren();
  for (const f of ["swiss", "knockout", "blackpool"]) {
    const o = make("option", "", t(`tn.${f}`));
    o.value = f;
    format.appendChild(o);
  }
  format.value = chosen;
  const bots = $("tn-bots");
  const kind = bots.value;
  bots.replaceChildren();
  const none = make("option", "", t("tn.nobots"));
  none.value = "";
  bots.appendChild(none);
  for (const b of BOT_LEVELS) {
    const o = make("option", "", t("f.bot", { b: w(`web.bot.${b}`) }));
    o.value = b;
    bots.appendChild(o);
  }
  bots.value = kind;
}

async function init() {
  if (!$("tn-create")) return;
  try { games = await api("/api/games"); } catch { games = []; }
  $("tn-format").addEventListener("change", fillGames);
  $("tn-game").addEventListener("change", fillPresets);
  $("tn-create").addEventListener("submit", create);
  fillChoices();
  fillGames();
  applyLabels($("tn-panel"));
  onLangChange(() => { fillChoices(); loadList(); });
  await loadList();
}

init();
