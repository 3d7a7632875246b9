// Cards, groups and small page helpers shared by every page.

export const COLOURS = { R: "red", B: "blue", G: "green", Y: "yellow" };
export const MARKS = { R: "●", B: "■", G: "▲", Y: "◆" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The one live region (in index.html, never redrawn): each new text is read out once.
let lastSaid = "";
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text || text === lastSaid) return;
  lastSaid = text;
  region.textContent = text;
}

// A visible message (an error, a refusal) that is also read out.
export function say(text) {
  const status = document.getElementById("status");
  if (status) status.textContent = text ?? "";
  if (text) announce(text);
}

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || data.error || response.statusText);
  return data;
}

// "R7" -> {colour: "R", number: 7}; "W=5" -> {wild: true, value: "5"}; "S" -> {skip: true};
// "A" (the Anti-phase card) -> {anti: true}
export function parseCard(token) {
  if (token.startsWith("W")) return { wild: true, value: token.includes("=") ? token.split("=")[1] : null };
  if (token === "S") return { skip: true };
  if (token === "A") return { anti: true };
  return { colour: token[0], number: Number(token.slice(1)) };
}

export function cardLabel(token, value = null) {
  const card = parseCard(token);
  if (card.skip) return "Skip";
  if (card.anti) return "Anti-phase card";
  if (card.wild) {
    const shown = card.value ?? value;
    return shown ? `Wild as ${COLOURS[shown] ?? shown}` : "Wild";
  }
  return `${COLOURS[card.colour]} ${card.number}`;
}

// the class a card's face is drawn with
export function cardKind(card) {
  return card.skip ? "skip" : card.wild ? "wild" : card.anti ? "anti" : COLOURS[card.colour];
}

// A card's face: colour, number or W/S/A, and the colour-blind mark.
export function cardFace(token, { value = null, tag = "span", attrs = {} } = {}) {
  const card = parseCard(token);
  const face = el(tag, { class: `card ${cardKind(card)}`, "aria-label": cardLabel(token, value), ...attrs });
  if (card.skip) face.append(el("span", { class: "rank", text: "S" }));
  else if (card.anti) face.append(el("span", { class: "rank", text: "A" }), el("span", { class: "value", text: "ANTI" }));
  else if (card.wild) {
    face.append(el("span", { class: "rank", text: "W" }));
    const shown = card.value ?? value;
    if (shown) face.append(el("span", { class: "value", text: `=${shown}` }));
  } else {
    face.append(el("span", { class: "mark", "aria-hidden": "true", text: MARKS[card.colour] + card.colour }));
    face.append(el("span", { class: "rank", text: String(card.number) }));
  }
  return face;
}

// Which phase a seat is on: the one laid this hand (ticked), the one declared, the next
// one, or none left. `short` leaves out what the phase needs.
export function phaseText(view, s, short = false) {
  const name = (n) => short ? `Phase ${n}` : `Phase ${n}: ${view.phase_sequence[n - 1]}`;
  const count = view.phase_sequence.length;
  // phases in any order: which are done says more than a "next" phase, which there is not
  const any = view.rules?.phase_order === "any";
  const done = any && s.completed ? `${s.completed.length}/${count} done${s.completed.length && !short ? ` (${s.completed.join(", ")})` : ""}` : "";
  const also = done ? ` · ${done}` : "";
  if (s.laid !== null && s.laid !== undefined) return `${name(s.laid)} ✓${also}`;
  if (s.declared) return `Declared ${s.declared}${short ? "" : `: ${view.phase_sequence[s.declared - 1]}`}${also}`;
  if (any) return s.completed?.length === count ? "All phases done" : `Phases ${done}`;
  return s.phase <= count ? name(s.phase) : "All phases done";
}

// A group as laid: its cards with each Wild's value, and what kind of group it is.
export function groupInfo(group) {
  const kind = group.kind.replace("_", " ");
  let value = null;
  let caption = kind;
  if (group.number !== null && group.kind === "set") { value = String(group.number); caption = `set of ${group.number}s`; }
  if (group.color) { value = value ?? group.color; caption = `${COLOURS[group.color]} ${kind}`; }
  if (group.parity) { value = value ?? group.parity; caption = `${group.parity} ${kind}`; }
  return { value, caption };
}

export function groupCards(meld) {
  const info = groupInfo(meld.group);
  const tokens = meld.faces.split(" ");
  return el("span", { class: "cards" }, tokens.map((t) => cardFace(t, { value: info.value })));
}

export function hands(text) {
  return text ? text.split(" ") : [];
}

const ORDER = { R: 0, B: 1, G: 2, Y: 3 };

// A card in the hand is known by its text and which copy of it it is ("R7#1"): the key
// stays the same while other cards come and go, so focus and selection stay on it.
export function handCards(text, sortBy) {
  const seen = {};
  const cards = hands(text).map((token, index) => {
    seen[token] = (seen[token] ?? 0) + 1;
    return { token, index, key: `${token}#${seen[token]}` };
  });
  if (sortBy === "dealt") return cards;
  // Wilds, Skips, then the Anti-phase card after the numbered cards (as the engine sorts them)
  const key = (t) => t === "A" ? [3, 0, 0] : t === "S" ? [2, 0, 0] : t.startsWith("W") ? [1, 0, 0]
    : sortBy === "number" ? [0, Number(t.slice(1)), ORDER[t[0]]] : [0, ORDER[t[0]], Number(t.slice(1))];
  return cards.sort((a, b) => {
    const x = key(a.token), y = key(b.token);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

export function setColourBlind(on) {
  document.body.classList.toggle("colour-blind", on);
  localStorage.setItem("phase10:colour-blind", on ? "1" : "0");
  const toggle = document.getElementById("cb-toggle");
  if (toggle) toggle.setAttribute("aria-pressed", String(on));
}

export function initColourBlind() {
  setColourBlind(localStorage.getItem("phase10:colour-blind") === "1");
  document.getElementById("cb-toggle")?.addEventListener("click", () =>
    setColourBlind(!document.body.classList.contains("colour-blind")));
}
