// What the table does differently for one game, keyed by the game's name; a game with no entry
// is drawn generically from its table data and legal moves alone.

import capture from "./capture.js";
import hoola from "./hoola.js";
import kalookie from "./kalookie.js";

const TOUCHES = { hoola, kalookie, capture };

/** The touches of ``game`` (an empty object when it has none). */
export function touchOf(game) {
  return TOUCHES[game] || {};
}

/** The name a table goes by: the game's title and its rules ("Kalookie · british"), or, for a
 * family whose presets are games of their own (the capture games), the preset's game ("Sedma"). */
export function tableTitle(game, title, rules) {
  const touch = touchOf(game);
  const own = touch.title ? touch.title(rules) : null;
  return own || `${title || game} · ${rules}`;
}
