// Small icons drawn as inline SVG, as the cards are: an emoji or a symbol from a font shows as
// an empty box on a machine without that font.

const SVG = "http://www.w3.org/2000/svg";

// Paths on a 16 x 16 grid, drawn in the text's colour (currentColor).
const PATHS = {
  hint: [  // a light bulb
    ["path", { d: "M8 1.5a4.5 4.5 0 0 0-2.6 8.2c.4.3.6.7.6 1.2V12h4v-1.1c0-.5.2-.9.6-1.2A4.5 4.5 0 0 0 8 1.5z",
      fill: "currentColor" }],
    ["rect", { x: 6, y: 12.8, width: 4, height: 1.2, rx: 0.5, fill: "currentColor" }],
    ["rect", { x: 6.6, y: 14.4, width: 2.8, height: 1.1, rx: 0.5, fill: "currentColor" }],
  ],
  timer: [  // a stopwatch
    ["circle", { cx: 8, cy: 9, r: 5.6, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }],
    ["rect", { x: 6.5, y: 1, width: 3, height: 1.5, rx: 0.5, fill: "currentColor" }],
    ["path", { d: "M8 9V5.5", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }],
  ],
  first: [["rect", { x: 2.5, y: 3, width: 2, height: 10, fill: "currentColor" }],
    ["path", { d: "M13.5 3v10L5.5 8z", fill: "currentColor" }]],
  prev: [["path", { d: "M12 3v10L4 8z", fill: "currentColor" }]],
  next: [["path", { d: "M4 3v10l8-5z", fill: "currentColor" }]],
  last: [["path", { d: "M2.5 3v10l8-5z", fill: "currentColor" }],
    ["rect", { x: 11.5, y: 3, width: 2, height: 10, fill: "currentColor" }]],
  "sound-on": [  // a speaker with two waves
    ["path", { d: "M2 6h3l4-3.5v11L5 10H2z", fill: "currentColor" }],
    ["path", { d: "M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6.2 6.2 0 0 1 0 9", fill: "none",
      stroke: "currentColor", "stroke-width": 1.4, "stroke-linecap": "round" }],
  ],
  "sound-off": [  // a speaker, crossed out
    ["path", { d: "M2 6h3l4-3.5v11L5 10H2z", fill: "currentColor" }],
    ["path", { d: "M11 5.5l4 5M15 5.5l-4 5", fill: "none", stroke: "currentColor",
      "stroke-width": 1.4, "stroke-linecap": "round" }],
  ],
};

/** The icon ``name`` (hint, timer, first, prev, next, last, sound-on, sound-off) as an inline
 * SVG element, hidden from screen readers (its button or text says what it is). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [tag, attrs] of PATHS[name] || []) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    svg.appendChild(node);
  }
  return svg;
}
