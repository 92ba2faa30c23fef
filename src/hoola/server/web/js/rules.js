// How to play a game under a preset (/rules/{game}?preset=...): the game's title, a picker of its
// presets and the primer. The English primer is the engine's (GET /api/rules/{game}); the Korean
// one is howto.ko.json, by game and preset name, with "*" for the presets that share one text
// (a test checks that it covers every game and preset).

import { api } from "./api.js";
import { addTexts, applyLabels, errorText, getLang, langButton, onLangChange, t } from "./i18n.js";
import { hasWords, w, wordsReady } from "./words.js";

addTexts({
  en: { "rules.game.hoola": "Hoola (훌라)", "rules.game.kalookie": "Kalookie",
    "rules.game.capture": "Capture games" },
  ko: { "rules.game.hoola": "훌라", "rules.game.kalookie": "칼루키",
    "rules.game.capture": "캡처 게임" },
});

const $ = (id) => document.getElementById(id);
let KOREAN = {};
let book = null;  // the game's rule book under the chosen preset

const koreanReady = fetch("/static/howto.ko.json")
  .then((got) => (got.ok ? got.json() : {}))
  .then((data) => { KOREAN = data; })
  .catch(() => {});

function rulesHref(game, preset) {
  return `/rules/${encodeURIComponent(game)}${preset ? `?preset=${encodeURIComponent(preset)}` : ""}`;
}

function presetTitle(p) {
  const key = `preset.${book.game}.${p.name}`;
  return hasWords(key) ? w(key) : p.title || p.name;
}

function koreanPrimer() {
  const texts = KOREAN[book.game] || {};
  return texts[book.preset] || texts["*"] || null;
}

function render() {
  if (!book) return;
  const preset = book.presets.find((p) => p.name === book.preset);
  const key = `rules.game.${book.game}`;
  // A preset that is a game of its own (each capture game) is known by its own name.
  $("r-title").textContent = preset && preset.is_game ? presetTitle(preset)
    : (t(key) === key ? book.title : t(key));
  document.title = `Hoola · ${$("r-title").textContent}`;
  const picker = $("r-preset");
  picker.replaceChildren();
  for (const p of book.presets) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = presetTitle(p);
    o.selected = p.name === book.preset;
    picker.appendChild(o);
  }
  const korean = getLang() === "ko" ? koreanPrimer() : null;
  $("r-meaning").textContent = getLang() === "ko" ? "" : (preset && preset.meaning) || "";
  const box = $("r-howto");
  box.textContent = korean || book.how_to_play;
  box.lang = korean ? "ko" : "en";
  box.dataset.preset = book.preset;
}

async function load(game, preset) {
  try {
    const query = preset ? `?preset=${encodeURIComponent(preset)}` : "";
    book = await api(`/api/rules/${encodeURIComponent(game)}${query}`);
    $("r-error").textContent = "";
  } catch (err) {
    $("r-error").textContent = errorText(err.code, err.message);
    return;
  }
  render();
}

async function init() {
  applyLabels(document);
  langButton($("lang"));
  onLangChange(render);
  await Promise.all([wordsReady, koreanReady]);
  const game = decodeURIComponent(location.pathname.split("/")[2] || "hoola");
  await load(game, new URLSearchParams(location.search).get("preset"));
  $("r-preset").addEventListener("change", () => {
    const preset = $("r-preset").value;
    history.replaceState(null, "", rulesHref(book.game, preset));
    load(book.game, preset);
  });
}

init();
