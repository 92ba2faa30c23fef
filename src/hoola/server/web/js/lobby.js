// The lobby: practice against bots in one click, the open tables, a new table, joining from an
// invite link (/join/{table}?invite=...), and the finished games to replay.

import { api, BOT_LEVELS, SEAT_BOTS, make, savedName, savedSeat, saveName, saveSeat } from "./api.js";
import { applyLabels, errorText, langButton, onLangChange, t } from "./i18n.js";
import { tableExtras } from "./account.js";
import { tableTitle } from "./touches/index.js";
import { botLevel, hasWords, w, wordsReady } from "./words.js";

const $ = (id) => document.getElementById(id);
let GAMES = [];

const PRACTICE = [
  { key: "hoola", game: "hoola", players: 3, label: "Hoola 훌라" },
  { key: "kalookie", game: "kalookie", players: 3, label: "Kalookie" },
  { key: "sedma", game: "sedma", players: 2, label: "Sedma" },
  { key: "hola", game: "hola", players: 4, label: "Hola" },
];

function toast(text, kind = "") {
  const box = make("div", `toast ${kind}`, text);
  $("toasts").appendChild(box);
  setTimeout(() => box.remove(), 4000);
}

function myName() {
  const name = ($("c-name").value || savedName() || "").trim();
  return /^[A-Za-z0-9_-]{1,24}$/.test(name) ? name : "Player";
}

function presetOf(g, name) {
  return g ? g.presets.find((p) => p.name === name) || null : null;
}

function gameOf(name) {
  return GAMES.find((g) => g.name === name) ||
    GAMES.find((g) => g.presets.some((p) => p.name === name));
}

async function practice(entry, level) {
  const game = gameOf(entry.game);
  const others = Math.max(1, Math.min(entry.players, game ? game.max_players : 2) - 1);
  const name = myName();
  try {
    const made = await api("/api/tables", { method: "POST", body: {
      game: entry.game, name, seats: Array.from({ length: others }, () => ({ bot: level })),
      turn_seconds: 0, claim_seconds: 5, bot_delay: 0.6, result_seconds: 20, public: false } });
    saveSeat(made.table_id, { token: made.token, seat: 0, name, host: true, invite: made.invite });
    await api(`/api/tables/${made.table_id}/start`, { method: "POST", token: made.token });
    location.href = `/table/${made.table_id}`;
  } catch (err) {
    toast(errorText(err.code, err.message), "bad");
  }
}

/** The page that tells how to play ``game`` under ``preset``. */
function rulesHref(game, preset) {
  return `/rules/${encodeURIComponent(game)}${preset ? `?preset=${encodeURIComponent(preset)}` : ""}`;
}

function linkPracticeRules() {
  $("practice-howto").href = rulesHref($("practice-game").value || "hoola");
}

function fillPractice() {
  const sel = $("practice-game");
  sel.replaceChildren();
  for (const p of PRACTICE) {
    if (!gameOf(p.game)) continue;
    const o = make("option", "", p.label);
    o.value = p.key;
    sel.appendChild(o);
  }
  const level = $("practice-level");
  level.replaceChildren();
  for (const k of BOT_LEVELS) {
    const o = make("option", "", `${t("f.strength")}: ${w(`web.bot.${k}`)}`);
    o.value = k;
    if (k === "medium") o.selected = true;
    level.appendChild(o);
  }
  const quick = $("quick");
  quick.replaceChildren();
  for (const p of PRACTICE) {
    if (!gameOf(p.game)) continue;
    const b = make("button", "quick-game", p.label);
    b.dataset.game = p.key;
    b.addEventListener("click", () => practice(p, $("practice-level").value || "medium"));
    quick.appendChild(b);
  }
  linkPracticeRules();
}

// -- the create form ----------------------------------------------------------------------

function fillCreate() {
  const game = $("c-game");
  game.replaceChildren();
  for (const g of GAMES) {
    const o = make("option", "", g.title);
    o.value = g.name;
    game.appendChild(o);
  }
  game.addEventListener("change", onGame);
  $("c-preset").addEventListener("change", onPreset);
  $("c-players").addEventListener("change", onPlayers);
  onGame();
}

function onGame() {
  const g = gameOf($("c-game").value);
  const preset = $("c-preset");
  preset.replaceChildren();
  for (const p of g.presets) {
    const o = make("option", "", presetTitle(g, p));
    o.value = p.name;
    preset.appendChild(o);
  }
  const players = $("c-players");
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    const o = make("option", "", String(n));
    o.value = n;
    if (n === Math.min(Math.max(g.min_players, 3), g.max_players)) o.selected = true;
    players.appendChild(o);
  }
  onPreset();
  onPlayers();
}

/** A preset's name for people, in the page's language ("Battle rules", "Sedma"). */
export function presetTitle(g, p) {
  const key = `preset.${g.name}.${p.name}`;
  return hasWords(key) ? w(key) : p.title || p.name;
}

function onPreset() {
  const g = gameOf($("c-game").value);
  const p = g.presets.find((x) => x.name === $("c-preset").value);
  $("c-howto").href = rulesHref(g.name, p ? p.name : null);
  $("c-meaning").textContent = p ? presetMeaning(g, p) : "";
  loadRules(g.name, p ? p.name : null);
}

/** What a preset plays like, in the page's language (the engine's English otherwise). */
function presetMeaning(g, p) {
  const key = `preset-meaning.${g.name}.${p.name}`;
  return hasWords(key) ? w(key) : p.meaning || "";
}

/** What an option means, in the page's language, with the preset's value. */
function optionMeaning(game, o) {
  const key = `option.${game}.${o.key}`;
  const meaning = hasWords(key) ? w(key) : o.meaning;
  return `${meaning} (${w("web.f.options.default", { value: o.toml })})`;
}

/** The form's meanings again, after the language changed. */
function rewriteMeanings() {
  const g = gameOf($("c-game").value);
  const p = g && g.presets.find((x) => x.name === $("c-preset").value);
  $("c-meaning").textContent = p ? presetMeaning(g, p) : "";
  $("c-rules-title").textContent = w("web.f.options");
  $("c-json-title").textContent = w("web.f.json");
  if (!RULES) return;
  for (const o of RULES.options) {
    const doc = $("c-rule-options").querySelector(`.option-row[data-option="${o.key}"] .option-doc`);
    if (doc) doc.textContent = optionMeaning(RULES.game, o);
  }
}

// -- the preset's options, as a form ---------------------------------------------------------

let RULES = null;  // the game's rule book under the chosen preset (GET /api/rules/{game})

async function loadRules(game, preset) {
  const box = $("c-rule-options");
  $("c-rules-title").textContent = w("web.f.options");
  $("c-json-title").textContent = w("web.f.json");
  try {
    const got = await api(`/api/rules/${encodeURIComponent(game)}?preset=${encodeURIComponent(preset || "")}`);
    if ($("c-game").value !== game || ($("c-preset").value || null) !== preset) return;
    RULES = got;
  } catch (err) {
    RULES = null;
    box.replaceChildren(make("p", "error", errorText(err.code, err.message)));
    return;
  }
  box.replaceChildren();
  for (const o of RULES.options) box.appendChild(optionRow(RULES.game, o));
  box.dataset.preset = preset || "";  // which preset the form shows (the tests wait for it)
}

/** One option: its name, an input fit for its values (a switch, a list, a number), its
 * meaning in the rules' words; set to the preset's value. */
function optionRow(game, o) {
  const row = make("div", "option-row");
  row.dataset.option = o.key;
  const id = `opt-${o.key}`;
  const label = make("label", "option-name", o.key.replaceAll("_", " "));
  label.htmlFor = id;
  row.appendChild(label);
  const quoted = [...o.values.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const numbers = /^\d+(, \d+)+$/.test(o.values) ? o.values.split(", ").map(Number) : null;
  let input;
  if (o.values === "true, false") {
    input = make("input");
    input.type = "checkbox";
    input.checked = o.value === true;
  } else if ((quoted.length && !/number/.test(o.values)) || numbers) {
    input = make("select");
    for (const v of numbers || quoted) {
      const opt = make("option", "", String(v));
      opt.value = JSON.stringify(v);
      input.appendChild(opt);
    }
    input.value = JSON.stringify(o.value);
  } else {
    input = make("input");
    input.type = "text";
    input.value = typeof o.value === "object" ? JSON.stringify(o.value) : String(o.value);
  }
  input.id = id;
  input.dataset.preset = JSON.stringify(o.value);
  row.appendChild(input);
  row.appendChild(make("p", "option-doc", optionMeaning(game, o)));
  return row;
}

/** The options the form sets differently from the preset. */
function formOptions() {
  const out = {};
  for (const row of $("c-rule-options").querySelectorAll(".option-row")) {
    const input = row.querySelector("input, select");
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else {
      const text = input.value.trim();
      try { value = JSON.parse(text); } catch { value = text; }
    }
    if (JSON.stringify(value) !== input.dataset.preset) out[row.dataset.option] = value;
  }
  return out;
}

function onPlayers() {
  const n = Number($("c-players").value);
  const list = $("c-seats");
  const old = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren();
  for (let q = 1; q < n; q++) {
    const li = make("li", "seat-spec");
    li.appendChild(make("span", "", t("f.seat", { n: q + 1 })));
    const sel = make("select");
    sel.name = `seat-${q}`;
    sel.setAttribute("aria-label", t("f.seat", { n: q + 1 }));
    const person = make("option", "", t("f.person"));
    person.value = "";
    sel.appendChild(person);
    for (const k of SEAT_BOTS) {
      const o = make("option", "", t("f.bot", { b: w(`web.bot.${k}`) }));
      o.value = k;
      sel.appendChild(o);
    }
    sel.value = old[q - 1] !== undefined ? old[q - 1] : "medium";
    li.appendChild(sel);
    list.appendChild(li);
  }
}

async function create(e) {
  e.preventDefault();
  $("c-error").textContent = "";
  const name = ($("c-name").value || "").trim();
  let options = formOptions();
  const text = $("c-options").value.trim();
  if (text) {  // the experts' JSON goes on top of the form
    try { options = { ...options, ...JSON.parse(text) }; } catch { $("c-error").textContent = "Rule options: not JSON"; return; }
  }
  const seats = [...$("c-seats").querySelectorAll("select")].map((s) => (s.value ? { bot: s.value } : {}));
  const body = { game: $("c-game").value, preset: $("c-preset").value, name, seats, options,
    turn_seconds: Number($("c-turn").value || 0), claim_seconds: Number($("c-claim").value || 0),
    bot_delay: Number($("c-delay").value || 0), result_seconds: Number($("c-result").value || 0),
    public: $("c-public").checked };
  const deals = $("c-deals").value;
  if (deals) body.deals = Number(deals);
  const seed = $("c-seed").value;
  if (seed) body.seed = Number(seed);
  try {
    Object.assign(body, await tableExtras());  // rated, with the account's session
    const made = await api("/api/tables", { method: "POST", body });
    saveName(name);
    saveSeat(made.table_id, { token: made.token, seat: 0, name: made.name || name, host: true,
      invite: made.invite });
    location.href = `/table/${made.table_id}`;
  } catch (err) {
    $("c-error").textContent = errorText(err.code, err.message);
  }
}

// -- tables -------------------------------------------------------------------------------

function tableItem(row, finished) {
  const li = make("li", "table-item");
  li.dataset.table = row.table_id;
  const g = gameOf(row.game);
  const head = make("div", "table-head");
  const [title, rules] = tableTitle(row.game, g && g.title, row.rules, presetOf(g, row.rules)).split(" · ");
  head.appendChild(make("b", "", title));
  if (rules) head.appendChild(make("span", "muted", ` · ${rules}`));
  head.appendChild(make("span", `badge status-${row.status}`, t(`t.${row.status}`)));
  if (row.rated) head.appendChild(make("span", "badge rated", t("acc.rated.badge")));
  li.appendChild(head);
  const seats = make("div", "table-seats");
  for (const s of row.seats) {
    const chip = make("span", `chip kind-${s.kind}`,
      s.kind === "empty" ? t("t.empty") : s.kind === "bot" ? `${s.name} (${botLevel(s.bot) || t("s.bot")})` : s.name);
    seats.appendChild(chip);
  }
  li.appendChild(seats);
  const buttons = make("div", "row");
  if (finished) {
    const a = make("a", "button", t("t.replay"));
    a.href = `/replay/${row.table_id}`;
    const r = make("a", "button", t("t.record"));
    r.href = `/api/tables/${row.table_id}/record`;
    r.setAttribute("download", `${row.table_id}.toml`);
    buttons.append(a, r);
  } else {
    const mine = savedSeat(row.table_id);
    if (mine) {
      const a = make("a", "button primary", t("t.back"));
      a.href = `/table/${row.table_id}`;
      buttons.appendChild(a);
    } else if (row.seats.some((s) => s.kind === "empty") && row.invite) {
      const a = make("a", "button primary join-link", t("t.join"));
      a.href = `/join/${row.table_id}?invite=${encodeURIComponent(row.invite)}`;
      buttons.appendChild(a);
    }
    if (row.invite) {
      const w = make("a", "button watch-link", t("t.watch"));
      w.href = `/table/${row.table_id}?invite=${encodeURIComponent(row.invite)}`;
      buttons.appendChild(w);
    }
  }
  li.appendChild(buttons);
  return li;
}

async function loadTables() {
  try {
    const [open, done] = await Promise.all([api("/api/tables"), api("/api/history")]);
    const list = $("tables");
    list.replaceChildren();
    if (!open.length) list.appendChild(make("li", "muted", t("lobby.none")));
    for (const row of open) list.appendChild(tableItem(row, false));
    const hist = $("history");
    hist.replaceChildren();
    if (!done.length) hist.appendChild(make("li", "muted", t("lobby.nohistory")));
    for (const row of done.slice(0, 30)) hist.appendChild(tableItem(row, true));
  } catch (err) {
    toast(errorText(err.code, err.message), "bad");
  }
}

// -- joining from an invite -----------------------------------------------------------------

async function showJoin(tid, invite) {
  const panel = $("join");
  panel.hidden = false;
  // An invite opens the join form alone: the rest of the lobby is a click on "Hoola" away.
  document.body.classList.add("lobby-joining");
  for (const section of document.querySelectorAll("main.lobby > section")) {
    if (section !== panel) section.classList.add("not-joining");
  }
  $("join-title").textContent = t("join.title", { id: tid });
  $("join-name").value = savedName();
  const mine = savedSeat(tid);
  if (mine) {
    $("join-back").hidden = false;
    $("join-back").href = `/table/${tid}`;
  }
  try {
    const row = await api(`/api/tables/${encodeURIComponent(tid)}`);
    const g = gameOf(row.game);
    $("join-info").textContent = `${tableTitle(row.game, g && g.title, row.rules, presetOf(g, row.rules))} · ` +
      row.seats.map((s) => (s.kind === "empty" ? t("t.empty") : s.name)).join(", ");
    if (!row.seats.some((s) => s.kind === "empty")) {
      $("join-play").disabled = true;
      $("join-error").textContent = t("join.full");
    }
  } catch (err) {
    $("join-error").textContent = errorText(err.code, err.message);
  }
  $("join-play").addEventListener("click", async () => {
    const name = $("join-name").value.trim();
    $("join-error").textContent = "";
    try {
      const got = await api(`/api/tables/${encodeURIComponent(tid)}/join`, { method: "POST",
        body: { invite, name } });
      saveName(name);
      saveSeat(tid, { token: got.token, seat: got.seat, name: got.name || name, host: false,
        invite });
      location.href = `/table/${tid}`;
    } catch (err) {
      $("join-error").textContent = errorText(err.code, err.message);
    }
  });
  $("join-watch").addEventListener("click", () => {
    location.href = `/table/${tid}?invite=${encodeURIComponent(invite)}`;
  });
}

async function init() {
  applyLabels(document);
  langButton($("lang"));
  await wordsReady;
  try { GAMES = await api("/api/games"); } catch (err) { toast(errorText(err.code, err.message), "bad"); return; }
  if (!$("c-name").value) $("c-name").value = savedName();
  fillPractice();
  fillCreate();
  onLangChange(() => {
    fillPractice(); onPlayers(); loadTables();
    const g = gameOf($("c-game").value);
    for (const o of $("c-preset").options) {
      const p = g && g.presets.find((x) => x.name === o.value);
      if (p) o.textContent = presetTitle(g, p);
    }
    rewriteMeanings();
  });
  $("practice-game").addEventListener("change", linkPracticeRules);
  $("practice-go").addEventListener("click", () => {
    const p = PRACTICE.find((x) => x.key === $("practice-game").value) || PRACTICE[0];
    practice(p, $("practice-level").value || "medium");
  });
  $("create").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadTables);
  const parts = location.pathname.split("/");
  if (parts[1] === "join" && parts[2]) {
    showJoin(decodeURIComponent(parts[2]), new URLSearchParams(location.search).get("invite") || "");
  }
  loadTables();
  setInterval(loadTables, 5000);
}

init();
