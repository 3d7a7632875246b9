// A dice table (Phase 10 Dice): the ten dice, those set aside apart, the buttons, the score
// sheet and the log. Everything the player may do is in the view's legal actions; this file
// only sends the chosen one back (a die is kept or taken back by clicking it).
import { html } from "./ui.js";
import { Bar, Log } from "./table-view.js";

const COLOUR_NAMES = { R: "red", O: "orange", G: "green", B: "blue" };

// a face's text (O10, GW) as its colour letter and its value
function face(token) {
  return token ? { colour: token[0], value: token.slice(1) } : null;
}

// what the hint says of a die: "keep" (have it set aside before the next roll), "roll", or null
function advised(client, entry) {
  const keep = client.diceHint?.hint.keep;
  if (!keep || !entry.face) return null;
  return keep.includes(entry.index) ? "keep" : "roll";
}

function Die({ client, entry }) {
  const legal = client.state.dice.view.legal_actions;
  const keep = `keep ${entry.die}`;
  const unkeep = `unkeep ${entry.die}`;
  const action = legal.includes(keep) ? keep : legal.includes(unkeep) ? unkeep : null;
  const f = face(entry.face);
  const what = action === keep ? ": set it aside" : action === unkeep ? ": take it back to roll" : "";
  const advice = advised(client, entry);
  const said = advice === "keep" ? " (the hint keeps it)" : "";
  const cls = `die ${f ? COLOUR_NAMES[f.colour] : "blank"} ${entry.high ? "high" : "low"}${action ? " live" : ""}${advice === "keep" ? " advised" : ""}`;
  return html`<button type="button" class=${cls} data-die=${entry.die} data-face=${entry.face ?? ""}
    aria-label=${`${entry.label}${said}${what}`} aria-pressed=${String(entry.kept)} disabled=${!action}
    onClick=${() => action && client.act(action)}>
    ${f ? html`<span class="letter" aria-hidden="true">${f.colour}</span><span class="value" aria-hidden="true">${f.value}</span>`
      : html`<span class="value" aria-hidden="true">–</span>`}
    <span class="name" aria-hidden="true">${entry.die}</span>
    ${advice === "keep" && html`<span class="tag" aria-hidden="true">keep</span>`}
  </button>`;
}

function Dice({ client }) {
  const { dice } = client.state.dice;
  const loose = dice.filter((d) => !d.kept);
  const kept = dice.filter((d) => d.kept);
  return html`<div class="dice-area">
    <section class="dice-tray" aria-labelledby="rolled-title">
      <h2 id="rolled-title">Rolled</h2>
      <div class="dice" id="rolled">${loose.map((d) => html`<${Die} key=${d.die} client=${client} entry=${d} />`)}</div>
    </section>
    <section class="dice-tray kept" aria-labelledby="kept-title">
      <h2 id="kept-title">Set aside</h2>
      <div class="dice" id="kept">${kept.length ? kept.map((d) => html`<${Die} key=${d.die} client=${client} entry=${d} />`)
        : html`<p class="muted">No dice set aside.</p>`}</div>
    </section>
  </div>`;
}

function Buttons({ client }) {
  const { view } = client.state.dice;
  const legal = view.legal_actions;
  if (!legal.length) return null;
  const button = (action, label, key, primary = false) => legal.includes(action) && html`<button type="button"
    id=${`dice-${action}`} class=${primary ? "primary" : ""} aria-keyshortcuts=${key} onClick=${() => client.act(action)}>
    ${label} <kbd aria-hidden="true">${key}</kbd></button>`;
  const rolls = view.rolls_left;
  return html`<div class="actions dice-actions">
    ${button("roll", view.stage === "roll" ? "Roll all ten" : `Roll (${rolls} left)`, "r", !view.way)}
    ${button("score", view.way ? `Score ${view.way.score}` : "Score", "o", true)}
    ${button("pass", "Pass", "p")}
    <button type="button" id="dice-hint-button" aria-keyshortcuts="?" onClick=${() => client.send({ type: "hint" })}>
      Hint <kbd aria-hidden="true">?</kbd></button>
  </div>`;
}

// The hint of the terminal game's ?: what to do and why; the dice it keeps wear a "keep" tag.
function Hint({ client }) {
  const hint = client.diceHint;
  if (!hint) return null;
  return html`<div class="hint dice-hint" id="dice-hint" role="status" aria-label="Hint">
    <p>${hint.text}</p>
    ${hint.hint.keep && html`<p class="muted">The dice to keep are tagged “keep”.</p>`}
    <button type="button" class="small" onClick=${() => { client.diceHint = null; client.draw(); }}>Close the hint</button>
  </div>`;
}

function Way({ view }) {
  if (!view.way) return null;
  const groups = view.way.groups.map((g) => g.join(" ")).join(" + ");
  return html`<p class="way" id="way">${`The dice make the phase: ${groups} (${view.way.score} points)`}</p>`;
}

// The score sheet: each player's points for each phase, their phase now and total.
function Sheet({ client }) {
  const { view } = client.state.dice;
  const phases = client.state.table.options.phase_sequence;
  const done = (s, k) => s.scores[k] === null ? "" : String(s.scores[k]);
  return html`<section class="panel scores-panel" aria-labelledby="sheet-title">
    <h2 id="sheet-title">Score sheet</h2>
    <div class="scroll-x" tabindex="0" role="region" aria-label="Score sheet by phase"><table class="scores dice-sheet" id="dice-sheet">
      <thead><tr><th scope="col">Phase</th>${view.seats.map((s, i) => html`<th scope="col" key=${i}>${s.name}</th>`)}</tr></thead>
      <tbody>
        ${phases.map((text, k) => html`<tr key=${k}><th scope="row" title=${text}>${k + 1}</th>
          ${view.seats.map((s, i) => html`<td key=${i} class=${s.phase === k + 1 ? "now" : ""}>${done(s, k)}${s.phase === k + 1 ? html`<span class="sr-only"> (working on it)</span><span aria-hidden="true">◀</span>` : ""}</td>`)}</tr>`)}
        <tr><th scope="row">Bonuses</th>${view.seats.map((s, i) => html`<td key=${i}>${s.bonuses.map((b) => b === "five_phase" ? "Five Phase +40" : "First Finish +40").join(", ")}</td>`)}</tr>
        <tr class="total"><th scope="row">Total</th>${view.seats.map((s, i) => html`<td key=${i}>${s.total}</td>`)}</tr>
      </tbody>
    </table></div>
  </section>`;
}

function Players({ client }) {
  const { view } = client.state.dice;
  const table = client.state.table;
  const over = view.stage === "game_over";
  return html`<ul class="dice-players" aria-label="Players">
    ${view.order.map((i) => {
      const s = view.seats[i];
      const who = table.seats[i];
      const current = i === view.current && !over;
      return html`<li key=${i} class=${current ? "current" : ""} aria-current=${current ? "true" : null}>
        ${current && html`<span aria-hidden="true">▶ </span>`}<span class="name">${s.name}</span>
        ${who.kind === "bot" && html` <span class="badge bot">bot</span>`}
        ${who.stand_in && html` <span class="badge bot">bot plays for them</span>`}
        ${i === table.host && html` <span class="badge host">host</span>`}
        <span class="muted"> · ${s.phase > 10 ? "all phases done" : `phase ${s.phase}`} · ${s.total} pts</span>
      </li>`;
    })}</ul>`;
}

function Results({ client }) {
  const { view } = client.state.dice;
  const table = client.state.table;
  const names = view.winners.map((w) => view.seats[w].name).join(" and ");
  const asked = table.rematch ?? [];
  const seated = client.seat !== null && client.seat !== undefined;
  const mine = seated && asked.includes(client.seat);
  return html`<section class="panel results" aria-labelledby="winner">
    <h2 id="winner">${names} won</h2>
    <p class="totals" id="dice-totals">${view.seats.map((s) => `${s.name} ${s.total}`).join(" · ")}</p>
    <div class="actions">
      ${seated && html`<button type="button" id="rematch" class="primary" disabled=${mine}
        onClick=${() => client.send({ type: "rematch" })}>${mine ? "Rematch asked: waiting for the others" : "Rematch"}</button>`}
      ${table.record_id && html`<a class="button" href=${`/api/records/${table.record_id}`}>The game's record</a>`}
    </div>
  </section>`;
}

export function DicePage({ client }) {
  const { state } = client;
  const { view, prompt, phase } = state.dice;
  const over = view.stage === "game_over";
  const mine = view.legal_actions.length > 0;
  return html`<div class=${`table-page dice-page${view.viewer === null ? " watching" : ""}`}>
    <${Bar} client=${client} />
    <div class="felt dice-felt">
      ${over && html`<${Results} client=${client} />`}
      <${Players} client=${client} />
      ${!over && html`<p class="dice-phase" id="dice-phase">${view.seats[view.current].name}: phase ${view.seats[view.current].phase}, ${phase}${view.last_try ? " (last try)" : ""}</p>`}
      <p id="turn" class=${mine ? "yours" : ""}>${prompt}</p>
      ${!over && html`<${Dice} client=${client} />`}
      <${Way} view=${view} />
      <${Buttons} client=${client} />
      <${Hint} client=${client} />
    </div>
    <aside class="side">
      <${Sheet} client=${client} />
      <${Log} lines=${state.log} />
    </aside>
  </div>`;
}
