// What the table does differently for one game, keyed by the game's name; a game with no entry
// is drawn generically from its table data and legal moves alone.

import capture from "./capture.js";
import hoola from "./hoola.js";
import kalookie from "./kalookie.js";
import { hasWords, w } from "../words.js";

const TOUCHES = { hoola, kalookie, capture };

/** The touches of ``game`` (an empty object when it has none). */
export function touchOf(game) {
  return TOUCHES[game] || {};
}

/** The name a table goes by, from the engine's preset info (``preset``: its name, title and
 * whether it is a game of its own): the game's title and the preset's ("Kalookie · British club
 * rules"), or, where the preset is a game of its own (the capture games), its title alone
 * ("Sedma"); in the page's language where the words have it. */
export function tableTitle(game, title, rules, preset = null) {
  if (!preset) return `${title || game} · ${rules}`;
  const key = `preset.${game}.${preset.name}`;
  const named = hasWords(key) ? w(key) : preset.title || preset.name;
  return preset.is_game ? named : `${title || game} · ${named}`;
}
