// A finished game, step by step or hand by hand, every hand shown; the end of each hand
// gets its banner (who went out, the hand's scores). A review of any player's decisions
// (review.js) sits beside it: each mistake steps the replay to its decision.
import { api, groupInfo, hands, phaseText } from "./cards.js";
import { deadPage } from "./dead.js";
import { ReviewPanel } from "./review.js";
import { Card, html, render, sentence, tidyLog, useLayoutEffect, useRef } from "./ui.js";

export async function replayPage(main, id) {
  document.title = `Phase 10 — replay of game ${id}`;
  const frames = new Map();
  const frame = async (step) => {
    if (!frames.has(step)) frames.set(step, await api(`/api/records/${id}/replay?step=${step}`));
    return frames.get(step);
  };
  let first;
  try { first = await frame(0); } catch (error) {
    // the server's "there is no finished game …" or an id that is no number says nothing more
    const why = /^(there is no finished game\b|path\.)/.test(error.message) ? "" : `: ${error.message}`;
    return deadPage(main, { title: "There is no such replay", text: `No finished game has the id “${id}”${why}. Its link may be mistyped.` });
  }
  const total = first.total;
  const index = Array.isArray(first.hand_index) ? first.hand_index : null;
  const ends = [0]; // ends[k]: the step that ended hand k (0: the start)
  // the step at which hand k ended: the first step whose results count k hands (a search)
  async function handEnd(k) {
    if (ends[k] !== undefined) return ends[k];
    let lo = 1, hi = total;
    if ((await frame(total)).view.hand_results.length < k) return total;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((await frame(mid)).view.hand_results.length >= k) hi = mid; else lo = mid + 1;
    }
    ends[k] = lo;
    return lo;
  }
  let busy = false;
  let reviewed = null; // the review shown, once done: its decisions are marked in the replay
  const onReview = (review) => { reviewed = review; if (current) show(current.step); };
  let pending = null; // a step asked for while another was being drawn: drawn next
  let reveal = false;
  // a mistake chosen in the review: its position, in sight (on a phone the review is below)
  const goto = (step) => { reveal = true; show(step); };
  function revealStep() {
    reveal = false;
    const title = document.getElementById("replay-title");
    const box = title?.getBoundingClientRect();
    if (box && (box.top < 0 || box.top > innerHeight * 0.5)) title.scrollIntoView({ block: "start" });
  }
  async function show(step) {
    if (busy) { pending = step; return; }
    busy = true;
    try {
      step = Math.max(0, Math.min(total, step));
      const now = await frame(step);
      const nav = { start: () => show(0), back: () => show(step - 1), next: () => show(step + 1), end: () => show(total) };
      let ended;
      let actor;
      if (index) {
        // the server's hand index: each hand's first and last step, and its result
        ended = index.find((h) => h.end === step)?.result ?? null;
        actor = now.actor_name ?? null;
        nav.prevHand = () => show(index.filter((h) => h.end < step).at(-1)?.end ?? 0);
        nav.nextHand = () => show(index.find((h) => h.end > step)?.end ?? total);
      } else {
        // an older server: search the hands' ends, and name the player to move before the step
        const before = step > 0 ? await frame(step - 1) : null;
        const done = now.view.hand_results.length;
        ended = before && before.view.hand_results.length < done ? now.view.hand_results.at(-1) : null;
        actor = now.actor_name ?? (before ? before.view.seats[before.view.current]?.name : null);
        const go = async (target) => show(await target);
        nav.prevHand = () => go(handEnd(step === ends[done] && done > 0 ? done - 1 : done));
        nav.nextHand = () => go(handEnd(done + 1));
      }
      current = { nav, step };
      const decision = reviewed?.decisions.find((d) => d.step === step) ?? null;
      render(html`<${Replay} id=${id} frame=${now} actor=${actor} ended=${ended} nav=${nav}
        review=${html`<${ReviewPanel} key="review" id=${id} names=${now.view.seats.map((s) => s.name)} reviewer=${now.review_player} step=${step} goto=${goto} onReview=${onReview} />`}
        decision=${decision} reviewedName=${reviewed?.name} />`, main);
      if (reveal && pending === null) revealStep();
    } catch (error) {
      document.getElementById("status").textContent = error.message;
    } finally {
      busy = false;
      if (pending !== null) { const next = pending; pending = null; show(next); }
    }
  }
  let current = null;
  document.addEventListener("keydown", (event) => {
    if (!current || event.target.closest?.("input, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { ArrowLeft: "back", ArrowRight: "next", Home: "start", End: "end", PageUp: "prevHand", PageDown: "nextHand", b: "prevHand", n: "nextHand" };
    if (event.key in keys) { event.preventDefault(); current.nav[keys[event.key]](); }
  });
  main.replaceChildren();
  await show(0);
}

// The step in words, as the log says it ("Alice discards a Skip on Bob"), not in the
// engine's notation ("discard S>p1"): the newest log line that starts with the actor.
function said(log, actor) {
  if (!actor || !Array.isArray(log)) return null;
  for (let k = log.length - 1; k >= 0; k--) {
    const text = log[k].trim().replace(/^(turn \d+|deal): /, "");
    if (text !== log[k].trim() && text.startsWith(`${actor} `)) return text;
  }
  return null;
}

function Replay({ id, frame, actor, ended, nav, review, decision, reviewedName }) {
  const view = frame.view;
  const names = view.seats.map((s) => s.name);
  const top = view.discard_pile ? view.discard_pile.split(" ").at(-1) : null;
  const button = (key, label, shortcut, disabled) => html`<button type="button" id=${`replay-${key}`} disabled=${disabled}
    aria-keyshortcuts=${shortcut} onClick=${nav[key]}>${label}</button>`;
  const atEnd = frame.step >= frame.total;
  return html`<div class=${`replay-page${review ? " with-review" : ""}`}><div class="replay-main">
    <section class="panel replay-controls" aria-labelledby="replay-title">
      <h1 id="replay-title">Replay of game ${id} · hand ${view.hand_number}</h1>
      <p id="replay-step" role="status">Action ${frame.step} of ${frame.total}${frame.action ? `: ${said(frame.log, actor) ?? `${actor ? `${actor} ` : ""}${frame.action}`}` : ""}</p>
      <div class="actions" role="group" aria-label="Step through the game">
        ${button("start", "« Start", "Home", frame.step === 0)}
        ${button("prevHand", "◀◀ Hand", "PageUp", frame.step === 0)}
        ${button("back", "◀ Back", "ArrowLeft", frame.step === 0)}
        ${button("next", "Next ▶", "ArrowRight", atEnd)}
        ${button("nextHand", "Hand ▶▶", "PageDown", atEnd)}
        ${button("end", "End »", "End", atEnd)}
        <a href="#review" class="button" id="replay-to-review">Review…</a>
      </div>
      ${decision && html`<p id="replay-decision" class=${`decision${decision.mistake ? " was-mistake" : ""}`}>
        Next, ${reviewedName}'s decision (action ${decision.step + 1})${decision.mistake ? ", a mistake" : ""}. Played: <strong>${decision.played}</strong>${
          decision.played === decision.best ? "" : decision.mistake ? html`; the expert: <strong>${decision.best}</strong>`
          : html`; the expert leans to <strong>${decision.best}</strong>, by less than a mistake`}.${" "}${sentence(decision.reason)}.</p>`}
    </section>
    ${ended && html`<section class="banner" aria-labelledby="replay-hand-end">
      <h2 id="replay-hand-end">End of hand ${ended.hand}: ${(ended.went_out ?? null) === null ? `nobody went out (${ended.reason})` : `${names[ended.went_out]} went out`}</h2>
      <p>${names.map((n, i) => `${n} ${ended.points[i] === null ? "—" : `+${ended.points[i]}`} (${ended.totals[i]})${ended.advanced.includes(i) ? " ✓" : ""}`).join(" · ")}</p>
    </section>`}
    <div class="felt replay">
      <section class="opponents" aria-label="Players">
        ${view.seats.map((s, i) => html`<section key=${i} class=${`seat${i === view.current ? " current" : ""}`} aria-label=${s.name}>
          <div class="seat-head"><span class="name">${s.name}</span>${i === view.dealer && html`<span class="badge dealer">Dealer</span>`}
            ${s.pending_skip && html`<span class="badge skip">Skipped next turn</span>`}</div>
          <p class="phase">${phaseText(view, s, true)} · ${s.score} pts</p>
          <div class="cards replay-hand" role="group" aria-label=${`${s.name}'s hand`}>${frame.hands[i]
            ? hands(frame.hands[i]).map((t, k) => html`<${Card} key=${k} token=${t} small=${true} />`)
            : html`<span class="empty">no cards left</span>`}</div>
          <ul class="groups">${view.melds.map((m, gid) => ({ m, gid })).filter((x) => x.m.owner === i).map(({ m, gid }) => html`<li key=${gid}>
            <span class="meld-view" aria-label=${`${groupInfo(m.group).caption}: ${m.faces}`}>${m.faces.split(" ").map((t, k) => html`<${Card} key=${k} token=${t} value=${groupInfo(m.group).value} small=${true} />`)}</span></li>`)}</ul>
        </section>`)}
      </section>
      <section class="centre" aria-label="Piles">
        <span class="pile"><span class="back big" aria-hidden="true"></span><span class="pile-count">${view.draw_size} to draw</span></span>
        <span class="pile">${top ? html`<${Card} token=${top} />` : html`<span class="empty">empty</span>`}<span class="pile-count">discard</span></span>
      </section>
    </div>
    <${ReplayLog} lines=${frame.log} />
    </div>
    ${review}
  </div>`;
}

function ReplayLog({ lines }) {
  const list = useRef(null);
  useLayoutEffect(() => { if (list.current) list.current.scrollTop = list.current.scrollHeight; });
  return html`<section class="panel log" aria-labelledby="replay-log-title"><h2 id="replay-log-title">Log</h2>
    <ol id="log" ref=${list} tabindex="0" aria-label="What happened, newest last">
      ${tidyLog(lines).map((l, k) => html`<li key=${k} class=${l.startsWith("    ") ? "row" : l.startsWith("  ") ? "" : "head"}>${l.startsWith("    ") ? l.slice(4) : l.trim()}</li>`)}
    </ol></section>`;
}
