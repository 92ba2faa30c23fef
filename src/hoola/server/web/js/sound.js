// The table's sound cues (made by scripts/make_sounds.py, shipped in /static/sounds/): on or off
// by the speaker button in the top bar, remembered in localStorage. Off is honoured at once (a
// cue playing stops). A page with no audio device plays nothing and goes on: every failure to
// play is swallowed.

import { icon } from "./icons.js";
import { t } from "./i18n.js";

export const CUES = ["discard", "turn", "claim", "thankyou", "out", "trick"];
const KEY = "hoola.sound";

const state = { on: localStorage.getItem(KEY) !== "0", played: [], audio: {} };

function reflect(button) {
  document.body.dataset.sound = state.on ? "on" : "off";
  if (!button) return;
  button.replaceChildren(icon(state.on ? "sound-on" : "sound-off"));
  button.setAttribute("aria-pressed", state.on ? "true" : "false");
  const label = t(state.on ? "sound.on" : "sound.off");
  button.setAttribute("aria-label", label);
  button.title = label;
  button.classList.toggle("on", state.on);
}

/** Whether cues are on. */
export function soundOn() { return state.on; }

/** Turn the cues on or off, and remember it. */
export function setSound(on) {
  state.on = !!on;
  localStorage.setItem(KEY, state.on ? "1" : "0");
  if (!state.on) {
    for (const a of Object.values(state.audio)) {
      try { a.pause(); a.currentTime = 0; } catch { /* no audio here */ }
    }
  }
  reflect(document.getElementById("sound"));
}

/** Wire the top bar's speaker button. */
export function soundButton(button) {
  reflect(button);
  button.addEventListener("click", () => setSound(!state.on));
}

/** Relabel the button (the page's language changed). */
export function relabelSound() { reflect(document.getElementById("sound")); }

/** Play cue ``name`` if sound is on (each cue asked is listed in ``played`` for tests). */
export function cue(name) {
  if (!state.on || !CUES.includes(name)) return;
  state.played.push(name);
  try {
    let audio = state.audio[name];
    if (!audio) {
      audio = state.audio[name] = new Audio(`/static/sounds/${name}.wav`);
      audio.preload = "auto";
    }
    audio.currentTime = 0;
    const p = audio.play();
    if (p && typeof p.catch === "function") p.catch(() => {});
  } catch { /* no audio device, or not allowed yet: silence */ }
}

/** The cues asked for so far (sound on). */
export function played() { return state.played.slice(); }
