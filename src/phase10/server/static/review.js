// A review of one player's decisions in a finished game, beside its replay: asked of the
// server (POST, then its progress polled), then shown as the server words it: the note on
// what the review could not know, every player's chance to win through the game (a chart,
// with the same numbers as a table), the mistakes (each steps the replay to its decision)
// and each hand summed up.
import { announce, api } from "./cards.js";
import { html, sentence, useEffect, useRef, useState } from "./ui.js";

const POLL_MS = 700;
// each seat's line has a colour and a dash of its own (style.css: .seat-line.s0 …), so
// the lines differ without colour too; the reviewed player's is thicker
const line = (i, review) => `seat-line s${i % 6}${i === review.player ? " reviewed" : ""}`;
const pct = (x) => `${Math.round(x * 100)}%`;

// The player asked for in the address (`?review=SEAT`), or null.
export function askedSeat() {
  const value = new URLSearchParams(location.search).get("review");
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

// reviewer: the seat the server reviews when none is named (the game's one person, if its
// record says who played each seat): the review a player most likely wants is of their own
export function ReviewPanel({ id, names, reviewer, step, goto, onReview }) {
  const asked = askedSeat();
  const [seat, setSeat] = useState(asked !== null && asked < names.length ? asked : reviewer);
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const run = useRef(0); // the current request's number: older answers are dropped
  const panel = useRef(null);

  // reveal: bring the panel into sight when the review (or why not) comes, for a review
  // asked for by the address (the table's "Review this game"), below the replay on a phone
  const show = () => setTimeout(() => panel.current?.scrollIntoView({ block: "start" }), 0);
  async function start(player, reveal = false) {
    const mine = ++run.current;
    setError(null);
    onReview(null);
    setStatus({ state: "running", done: 0, total: 0, player });
    announce(`Reviewing ${names[player]}'s decisions…`);
    history.replaceState(null, "", `${location.pathname}?review=${player}`);
    const url = `/api/records/${id}/review?player=${player}`;
    try {
      let now = await api(url, {});
      while (run.current === mine && now.state === "running") {
        setStatus(now);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (run.current !== mine) return;
        now = await api(url);
      }
      if (run.current !== mine) return;
      setStatus(now);
      if (now.state === "failed") setError(now.error);
      onReview(now.state === "done" ? now.review : null);
      if (reveal) show();
      if (now.state === "done") {
        const count = now.review.mistakes.length;
        announce(`The review of ${now.review.name}'s decisions is ready: ${count} mistake${count === 1 ? "" : "s"}.`);
      }
    } catch (failure) {
      if (run.current === mine) { setStatus(null); setError(failure.message); if (reveal) show(); }
    }
  }
  useEffect(() => {
    if (asked !== null && asked < names.length) {
      start(asked, true);
      show();
    }
    if (asked === null && location.hash === "#review") {
      panel.current?.scrollIntoView({ block: "start" });
      panel.current?.querySelector("select")?.focus();
      // a review of this player kept (or under way) is shown at once; none starts unasked
      api(`/api/records/${id}/review?player=${seat}`)
        .then((now) => { if (now.state !== "failed" && run.current === 0) start(seat); })
        .catch(() => {}); // (no_review: the form waits for the button)
    }
    return () => { run.current += 1; };
  }, []);

  const review = status?.state === "done" ? status.review : null;
  const running = status?.state === "running";
  return html`<section class="panel review" id="review" ref=${panel} aria-labelledby="review-title">
    <h2 id="review-title">Review${review ? ` of ${review.name}'s decisions` : ""}</h2>
    <p class="muted">The expert bot weighs each decision of one player against its own choice, seeing only what that player saw.</p>
    <div class="actions">
      <label class="inline">Player <select id="review-player" value=${seat} disabled=${running}
        onChange=${(event) => setSeat(Number(event.currentTarget.value))}>
        ${names.map((name, i) => html`<option key=${i} value=${i}>${name}</option>`)}</select></label>
      <button type="button" id="review-start" class="primary" disabled=${running}
        onClick=${() => start(seat)}>${review && review.player === seat ? "Review again" : "Review"}</button>
    </div>
    ${running && html`<${Progress} status=${status} name=${names[status.player]} />`}
    ${error && html`<p class="error" role="alert" id="review-error">${sentence(error)}</p>`}
    ${review && html`<${Shown} review=${review} step=${step} goto=${goto} />`}
  </section>`;
}

function Progress({ status, name }) {
  const known = status.total > 0;
  // the bar tells how far it is; a screen reader hears once that it started, and its end
  return html`<div class="review-progress">
    <label for="review-bar">Reviewing ${name}'s decisions${known ? `: move ${status.done} of ${status.total}` : "…"}</label>
    ${known ? html`<progress id="review-bar" max=${status.total} value=${status.done}></progress>`
      : html`<progress id="review-bar"></progress>`}
  </div>`;
}

function Shown({ review, step, goto }) {
  const mistakes = review.mistakes.map((i) => review.decisions[i]);
  return html`<div class="review-body">
    <p id="review-note" class="note">${review.note}</p>
    <p>${review.decisions.length} decisions weighed; ${mistakes.length === 0 ? "no mistake found" : `${mistakes.length} mistake${mistakes.length === 1 ? "" : "s"}`}.</p>
    <${Chart} review=${review} step=${step} mistakes=${mistakes} />
    <h3 id="mistakes-title">Mistakes${mistakes.length ? ", the costliest first" : ""}</h3>
    ${mistakes.length > 0 && html`<p class="muted">Each shows the replay just before it. Value lost is in the expert's units: making your phase this hand counts 1.</p>`}
    ${mistakes.length === 0 ? html`<p>None: at every decision the expert agreed, or did no better beyond the play-outs' noise.</p>`
      : html`<ol class="mistakes" aria-labelledby="mistakes-title">${mistakes.map((d) => html`<li key=${d.step}>
        <button type="button" class="mistake" aria-current=${d.step === step ? "step" : null}
          onClick=${() => goto(d.step)}>
          <span class="where">Hand ${d.hand} · action ${d.step + 1} · ${d.kind}</span>
          <span>Played: <strong>${d.played}</strong></span>
          <span>Expert: <strong>${d.best}</strong></span>
          <span class="reason">${sentence(d.reason)}.</span>
          <span class="lost">Value lost: ${d.loss.toFixed(2)}</span>
        </button></li>`)}</ol>`}
    <${Hands} review=${review} />
  </div>`;
}

function Hands({ review }) {
  return html`<h3 id="review-hands-title">Hand by hand</h3>
    <div class="scroll-x" tabindex="0" role="region" aria-labelledby="review-hands-title"><table class="scores review-hands">
      <thead><tr><th scope="col">Hand</th><th scope="col">Moves</th><th scope="col">Mistakes</th>
        <th scope="col">Phase</th><th scope="col">Points</th><th scope="col">Win chance</th></tr></thead>
      <tbody>${review.hands.map((h) => html`<tr key=${h.hand}><th scope="row">${h.hand}</th><td>${h.decisions}</td><td>${h.mistakes}${h.mistakes > 0 && ` (${h.lost.toFixed(2)})`}</td>
        <td>${h.made_phase === null ? "—" : h.made_phase ? html`✓<span class="sr-only"> made</span>` : "no"}</td>
        <td>${h.points ?? "—"}</td><td>${h.win_before === null ? "—" : `${pct(h.win_before)} → ${pct(h.win_after)}`}</td></tr>`)}</tbody>
    </table></div>
    <p class="muted scores-key">Moves: the decisions weighed. Beside the mistakes, in brackets, the value they gave up.</p>`;
}

// Every seat's chance to win, after each of the player's decisions: lines over the game's
// actions, the hands marked, the mistakes dotted on the player's line, the replay's step
// shown; the same numbers as a table for a screen reader, or anyone.
function Chart({ review, step, mistakes }) {
  const W = 400, H = 230, left = 50, right = 10, top = 22, bottom = 40;
  const points = review.chances;
  if (!points.length) return null;
  const last = Math.max(1, points.at(-1).step);
  const x = (s) => left + (Math.min(s, last) / last) * (W - left - right);
  const y = (p) => top + (1 - p) * (H - top - bottom);
  const names = review.players;
  const starts = points.filter((p, k) => k > 0 && p.hand !== points[k - 1].hand);
  // each hand's label as room allows after the one before ends: "hand 5", "5", or none
  // (a character of the labels is about 6.5 units wide)
  const width = (text) => text.length * 6.5 + 3;
  let free = -Infinity;
  const labels = starts.map((p, k) => {
    const at = x(p.step) + 3;
    if (at < free) return ""; // the label before runs over this one's place
    const next = k + 1 < starts.length ? x(starts[k + 1].step) + 3 : W;
    const text = at + width(`hand ${p.hand}`) <= next ? `hand ${p.hand}` : `${p.hand}`;
    free = at + width(text);
    return text;
  });
  const ticks = xTicks(last);
  const mistakeSteps = new Set(mistakes.map((d) => d.step));
  const change = names.map((n, i) => `${n} ${pct(points[0].wins[i])} to ${pct(points.at(-1).wins[i])}`).join("; ");
  return html`<figure class="chance-chart">
    <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title chart-desc" class="chart">
      <title id="chart-title">Each player's estimated chance to win, through the game</title>
      <desc id="chart-desc">From ${review.name}'s view, after each of their decisions, from the first to the end: ${change}. ${mistakes.length} mistake${mistakes.length === 1 ? "" : "s"} marked with a dot. The table below gives every number.</desc>
      ${[0, 0.25, 0.5, 0.75, 1].map((p) => html`<g key=${p} class="grid">
        <line x1=${left} x2=${W - right} y1=${y(p)} y2=${y(p)} />
        <text x=${left - 6} y=${y(p) + 4} text-anchor="end">${pct(p)}</text></g>`)}
      ${starts.map((p, k) => html`<g key=${`h${p.hand}`} class="hand-mark">
        <line x1=${x(p.step)} x2=${x(p.step)} y1=${top - 4} y2=${H - bottom} />
        ${labels[k] && html`<text x=${x(p.step) + 3} y=${top - 8}>${labels[k]}</text>`}</g>`)}
      ${ticks.map((t) => html`<text key=${`t${t}`} class="tick" x=${x(t)} y=${H - bottom + 16} text-anchor="middle">${t}</text>`)}
      <text class="axis" x=${left + (W - left - right) / 2} y=${H - 4} text-anchor="middle">Actions played</text>
      <text class="axis" transform=${`translate(11 ${top + (H - top - bottom) / 2}) rotate(-90)`} text-anchor="middle">Chance to win</text>
      <line class="now" x1=${x(step)} x2=${x(step)} y1=${top} y2=${H - bottom} />
      ${names.map((_, i) => html`<polyline key=${`s${i}`} class=${line(i, review)} points=${points.map((p) => `${x(p.step).toFixed(1)},${y(p.wins[i]).toFixed(1)}`).join(" ")} />`)}
      ${points.filter((p) => mistakeSteps.has(p.step)).map((p) => html`<circle key=${`m${p.step}`} class="mistake-dot"
        cx=${x(p.step)} cy=${y(p.wins[review.player])} r="5" />`)}
    </svg>
    <figcaption><ul class="legend">
      ${names.map((name, i) => html`<li key=${i}><svg width="28" height="10" aria-hidden="true"><line x1="0" x2="28" y1="5" y2="5"
        class=${line(i, review)} /></svg>
        ${name}${i === review.player ? " (reviewed)" : ""}</li>`)}
      <li><svg width="12" height="12" aria-hidden="true"><circle class="mistake-dot" cx="6" cy="6" r="5" /></svg> a mistake</li>
      <li><svg width="12" height="12" aria-hidden="true"><line class="now" x1="6" x2="6" y1="0" y2="12" /></svg> the replay's position</li>
    </ul></figcaption>
    <details><summary>The chances as a table</summary>
      <div class="scroll-x" tabindex="0" role="region" aria-label="Chances to win, as a table"><table class="scores">
        <thead><tr><th scope="col">Actions played</th><th scope="col">Hand</th>${names.map((n, i) => html`<th key=${i} scope="col">${n}</th>`)}</tr></thead>
        <tbody>${points.map((p, k) => html`<tr key=${k}><th scope="row">${p.step}${k === points.length - 1 && p.step === last ? " (the end)" : ""}</th>
          <td>${p.hand}</td>${p.wins.map((w, i) => html`<td key=${i}>${pct(w)}</td>`)}</tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}

// About five round numbers from 0 to `last`
function xTicks(last) {
  const raw = last / 5;
  const unit = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const stepSize = [1, 2, 5, 10].map((m) => m * unit).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let t = 0; t <= last; t += stepSize) ticks.push(t);
  return ticks;
}
