// Preact with htm (vendored, no build step) and the small pieces every Preact page shares.
import { html, render, useEffect, useLayoutEffect, useRef, useState } from "./vendor/htm/standalone.module.js";
import { cardKind, cardLabel, MARKS, parseCard } from "./cards.js";

export { html, render, useEffect, useLayoutEffect, useRef, useState };

// A card's face. `as` "button" makes it selectable; `value` is a Wild's value in a group.
export function Card({ token, value = null, as = "span", small = false, extra = "", ...rest }) {
  const card = parseCard(token);
  const shown = card.wild ? card.value ?? value : null;
  const className = `card ${cardKind(card)}${small ? " small" : ""}${extra ? ` ${extra}` : ""}`;
  const face = card.skip ? html`<span class="rank">S</span>`
    : card.anti ? html`<span class="rank">A</span><span class="value">ANTI</span>`
    : card.wild ? html`<span class="rank">W</span>${shown && html`<span class="value">=${shown}</span>`}`
    : html`<span class="mark" aria-hidden="true">${MARKS[card.colour]}</span><span class="rank">${card.number}</span>`;
  if (as === "button") {
    return html`<button type="button" class=${className} aria-label=${cardLabel(token, value)} ...${rest}>${face}</button>`;
  }
  return html`<span class=${className} role="img" aria-label=${cardLabel(token, value)} ...${rest}>${face}</span>`;
}

// A fan of card backs: how many cards a player holds, without showing them.
export function Backs({ count }) {
  const shown = Math.min(count, 11);
  return html`<span class="backs" role="img" aria-label=${`${count} card${count === 1 ? "" : "s"}`}>
    ${Array.from({ length: shown }, (_, i) => html`<span class="back" key=${i}></span>`)}
    <span class="count" aria-hidden="true">${count}</span></span>`;
}

export { announce, say as notice } from "./cards.js";

// text from the server, as a sentence: its first letter capital
export const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// the log's lines without the blank ones between hands
export function tidyLog(lines) {
  return lines.filter((line) => line.trim());
}

