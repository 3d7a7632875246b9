// The table, drawn with Preact: opponents around the top, the piles in the centre, you at
// the bottom. Every element has a stable key, so a state message (a bot moves every 0.6 s)
// updates the page in place: focus, open panels and scroll positions stay where they are.
import { groupInfo, handCards, phaseText } from "./cards.js";
import { Backs, Card, html, notice, tidyLog, useEffect, useLayoutEffect, useRef, useState } from "./ui.js";
import { Actions } from "./table-actions.js";
import { DicePage } from "./dice-view.js";

export function TablePage({ client }) {
  const { state } = client;
  const table = state.table;
  if (table.status !== "lobby" && state.dice) return html`<${DicePage} client=${client} />`;
  if (table.status === "lobby" || !state.view) {
    return html`<div class="table-page lobby-page"><${Bar} client=${client} lobby=${true} /><${Lobby} client=${client} /></div>`;
  }
  const view = state.view;
  const me = view.viewer;
  const n = view.seats.length;
  const over = view.stage === "game_over";
  // the others in turn order after you, so the table reads round from your left; once the
  // game is over your hand goes, and your seat (your last groups) leads the others
  const others = me === null ? view.seats.map((_, i) => i)
    : over ? Array.from({ length: n }, (_, k) => (me + k) % n)
    : Array.from({ length: n - 1 }, (_, k) => (me + 1 + k) % n);
  // the hand's last move, as the server words it, marked on the seat that made it;
  // `version` keys the mark, so it is drawn afresh for each move
  const last = state.last_move && { ...state.last_move, version: state.version };
  return html`<div class=${`table-page${me === null ? " watching" : ""}`}>
    <${Bar} client=${client} />
    <div class="felt">
      ${over && html`<${Results} client=${client} />`}
      <section class=${`opponents n${others.length}`} aria-label=${me === null || over ? "Players" : "Opponents"}>
        ${others.map((i) => html`<${Seat} key=${i} client=${client} i=${i} last=${last} />`)}
      </section>
      <${Centre} client=${client} />
      ${client.banner && html`<${Banner} client=${client} result=${client.banner} />`}
      ${me !== null && !over && html`<${Mine} client=${client} last=${last} />`}
    </div>
    <aside class="side">
      <${Log} lines=${state.log} />
      <${Scores} view=${view} />
    </aside>
  </div>`;
}

export function Bar({ client, lobby = false }) {
  const table = client.state.table;
  const invite = `${location.origin}/t/${table.id}`;
  const mine = client.token ? `${invite}#token=${client.token}` : null;
  const links = html`
    <label class="link">Invite link <input id="invite" readonly value=${invite} /></label>
    <button type="button" class="small" id="copy-invite" onClick=${() => copyInvite(invite)}>Copy</button>
    ${mine && html`<label class="link">Your seat link (rejoin from any device; keep it private)
      <input id="seat-link" readonly value=${mine} /></label>`}`;
  return html`<section class="table-bar" aria-label="Table">
    <h1>Table ${table.id} <span class="preset">${table.options.kind === "dice" ? "Phase 10 Dice" : table.options.preset}</span></h1>
    ${client.turnLeft !== null && html`<p id="timer" role="timer">${Math.round(client.turnLeft)} s left in this turn</p>`}
    ${table.last_game && table.status !== "over" && html`<p class="last-game">Last game: ${table.last_game.winner_names.join(" and ")} won
      ${table.last_game.record_id && (table.options.kind === "dice"
        ? html` · <a href=${`/api/records/${table.last_game.record_id}`}>its record</a>`
        : html` · <a href=${`/replay/${table.last_game.record_id}`}>replay it</a>`)}</p>`}
    ${lobby ? html`<div class="links">${links}</div>`
      : html`<details class="links"><summary>Invite</summary>${links}</details>`}
    <${RulesPanel} sentences=${table.options.rules_text} />
  </section>`;
}

function copyInvite(invite) {
  const done = navigator.clipboard ? navigator.clipboard.writeText(invite) : Promise.reject(new Error("no clipboard"));
  const said = (text) => {
    notice(text);
    // (gone after a while, unless something else has been said since)
    setTimeout(() => { if (document.getElementById("status")?.textContent === text) notice(""); }, 4000);
  };
  done.then(() => said("Invite link copied."), () => said("Could not copy: select the link and copy it."));
}

// The rules in play in sentences, as the server words them (the same as the terminal's r page).
function RulesPanel({ sentences }) {
  if (!sentences || !sentences.length) return null;
  return html`<details class="rules-panel" id="rules-panel"><summary>Rules</summary>
    <ul>${sentences.map((text, k) => html`<li key=${k}>${text}</li>`)}</ul></details>`;
}

// the host's buttons for one seat: remove its player, give it to a bot, make its player host.
// What a player cannot undo (their link stops working, or the host's role is theirs) is
// asked once more on the button itself, for a few seconds.
function SeatControls({ client, s }) {
  const table = client.state.table;
  const [armed, arm] = useState(null);
  useEffect(() => {
    if (!armed) return undefined;
    const later = setTimeout(() => arm(null), 4000);
    return () => clearTimeout(later);
  }, [armed]);
  if (client.seat !== table.host || s.seat === table.host) return null;
  const lobby = table.status === "lobby";
  const button = (type, label, ask = null) => html`<button type="button" id=${`${type}-${s.seat}`}
    class=${`seat-control small${armed === type ? " armed" : ""}`}
    onClick=${() => {
      if (ask && armed !== type) return arm(type);
      arm(null);
      client.send({ type, seat: s.seat });
    }}>${armed === type ? ask : label}</button>`;
  const human = s.kind === "human";
  return html`<span class="seat-controls">
    ${human && lobby && button("remove_player", "Remove", `Remove ${s.name}? Press again`)}
    ${(s.kind === "open" && lobby || human) && button("seat_bot", lobby ? "Give to a bot" : "Let a bot play",
      human ? `${s.name}'s seat to a bot for good? Press again` : null)}
    ${human && button("hand_over", "Make host", `Make ${s.name} the host? Press again`)}</span>`;
}

function Lobby({ client }) {
  const table = client.state.table;
  const host = client.seat === table.host;
  // the server lists each game's bots (the presets); until they come, the table's own
  const kinds = (table.options.kind === "dice" ? client.diceBotKinds : client.botKinds)
    || [{ spec: table.options.bots, label: table.options.bots }];
  return html`<section class="panel lobby" aria-labelledby="lobby-title">
    <h2 id="lobby-title">Waiting to start</h2>
    <ul id="lobby-seats">
      ${table.seats.map((s) => html`<li key=${s.seat}>
        ${s.kind === "open" ? `Seat ${s.seat + 1}: open (${/^[aeiou]/.test(table.options.bots) ? "an" : "a"} ${table.options.bots} bot if nobody joins) `
          : `Seat ${s.seat + 1}: ${s.name}${s.seat === table.host ? " (host)" : ""}${s.kind === "bot" ? ` (bot: ${s.bot})` : s.connected ? "" : " (not connected)"} `}
        <${SeatControls} client=${client} s=${s} /></li>`)}
    </ul>
    ${client.seat !== null && client.seat !== undefined && !host &&
      html`<button type="button" id="leave" onClick=${() => client.send({ type: "leave" })}>Leave the table</button>`}
    ${host ? html`<label>Bots <select id="bots" onChange=${(e) => client.send({ type: "bots", bots: e.target.value })}>
        ${kinds.map((b) => html`<option key=${b.spec} value=${b.spec} selected=${b.spec === table.options.bots}>${b.label}</option>`)}
      </select></label>
      <button type="button" id="start" class="primary" onClick=${() => client.send({ type: "start" })}>Start the game</button>`
      : html`<p>The host starts the game.</p>`}
  </section>`;
}

function Seat({ client, i, last }) {
  const { view, table } = client.state;
  const s = view.seats[i];
  const who = table.seats[i];
  const current = i === view.current && view.stage !== "game_over";
  const away = who.away ?? (who.kind === "human" && !who.connected);
  const marked = last && last.seat === i;
  const cls = `seat${current ? " current" : ""}${marked ? " last" : ""}${away ? " away" : ""}${view.players_in_hand.includes(i) ? "" : " out"}`;
  return html`<section class=${cls} aria-label=${`${s.name}${current ? ", to play" : ""}`} aria-current=${current ? "true" : null}>
    <div class="seat-head">
      <span class="name">${current && html`<span aria-hidden="true">▶ </span>`}${s.name}</span>
      ${i === view.viewer && html`<span class="badge you">you</span>`}
      ${i === view.dealer && html`<span class="badge dealer" title="Dealer">Dealer</span>`}
      ${who.kind === "bot" && html`<span class="badge bot">bot</span>`}
      ${away && html`<span class="badge away">away</span>`}
      ${who.stand_in && html`<span class="badge bot" title="A bot plays this player's turns until they are back">bot plays for them</span>`}
      ${i === table.host && html`<span class="badge host">host</span>`}
    </div>
    <div class="seat-body">
      <${Backs} count=${s.hand_size} />
      <span class="score">${s.score} pts</span>
    </div>
    <p class="phase">${phaseText(view, s)}</p>
    ${s.gave_up && html`<p class="badge gave-up" key="gave-up">Gave up the phase</p>`}
    ${s.pending_skip && html`<p class="badge skip" key="skip">Skipped next turn</p>`}
    <${SavePile} view=${view} i=${i} />
    ${marked && html`<p class=${`last-move ${last.kind}`} key=${`m${last.version}`}>${last.text}</p>`}
    <${Groups} client=${client} owner=${i} last=${last} />
    <${SeatControls} client=${client} s=${who} />
  </section>`;
}

// A player's save pile (rules save_pile): how many cards, and which when the piles are public.
function SavePile({ view, i }) {
  const s = view.seats[i];
  if (view.rules.save_pile === "off" && !s.saved_count) return null;
  const cards = s.saved ? s.saved.split(" ").filter(Boolean) : [];
  return html`<p class="saved-count">Save pile: ${s.saved_count}${s.saved_this_hand ? " (one saved this hand)" : ""}
    ${cards.map((t, k) => html` <${Card} key=${k} token=${t} small=${true} />`)}</p>`;
}

// Your own save pile beside your hand: a tap on a card takes it back when the server allows it.
function MySaved({ client }) {
  const view = client.state.view;
  const legal = client.legal;
  if (view.rules.save_pile === "off" && !view.saved) return null;
  const cards = view.saved ? view.saved.split(" ") : [];
  const s = view.seats[view.viewer];
  const note = cards.length ? (s.saved_this_hand ? "saved this hand" : "") : "empty";
  return html`<div class="my-saved" role="group" aria-labelledby="my-saved-title">
    <span id="my-saved-title" class="my-saved-title">Your save pile${note && html` <span class="muted">(${note})</span>`}</span>
    ${cards.map((t, k) => {
      const take = legal?.take_saved.find((e) => e.card === t);
      return take
        ? html`<${Card} as="button" key=${`${k}${t}`} token=${t} small=${true} extra="can-take" data-saved=${t}
            aria-label=${take.label} onClick=${() => client.act(take.action)} />`
        : html`<${Card} key=${`${k}${t}`} token=${t} small=${true} data-saved=${t} />`;
    })}
  </div>`;
}

// the groups a player laid, in front of them; with a card selected, a tap hits it there
function Groups({ client, owner, last }) {
  const view = client.state.view;
  const legal = client.legal;
  const mine = view.melds.map((meld, gid) => ({ meld, gid })).filter((m) => m.meld.owner === owner);
  if (!mine.length) return null;
  return html`<ul class="groups" aria-label=${`${view.seats[owner].name}'s groups`}>
    ${mine.map(({ meld, gid }) => {
      const info = groupInfo(meld.group);
      const open = legal?.hits.find((g) => g.group === gid);
      const fresh = last && last.groups.includes(gid);
      return html`<li key=${gid}>
        <button type="button" class=${`meld${open ? " can-hit" : ""}`} data-group=${gid} disabled=${!open}
          onClick=${() => client.hit(gid)}
          aria-label=${`${view.seats[meld.owner].name}'s ${info.caption}: ${meld.faces}${open ? ". Hit the selected card here" : ""}`}>
          <span class="caption">${info.caption}</span>
          <span class=${`cards${fresh ? " fresh" : ""}`} key=${`${gid}-${meld.text}`}>
            ${meld.faces.split(" ").map((t, k) => html`<${Card} key=${k} token=${t} value=${info.value} small=${true} />`)}
          </span>
        </button></li>`;
    })}</ul>`;
}

function Centre({ client }) {
  const { view } = client.state;
  const legal = client.legal;
  const pile = view.discard_pile ? view.discard_pile.split(" ") : [];
  const top = pile.at(-1) ?? null;
  const draw = legal?.draw.find((d) => d.action === "draw");
  const take = legal?.draw.find((d) => d.action === "take");
  const canDiscard = !!(legal && (legal.discards.length || legal.skips.length || legal.anti.length));
  const current = view.seats[view.current]?.name;
  const prompt = view.stage === "game_over" ? "The game is over."
    : legal?.turn ? `Your turn: ${stopped(legal.prompt)}` : legal?.prompt ? stopped(legal.prompt) : `${current} is playing.`;
  // on a phone your hand floats over the foot of the page, and a big table's seats can push
  // the piles under it: when your turn comes they are brought into sight above it (unless
  // you have scrolled past them, to read the log, say)
  const box = useRef(null);
  const turn = !!legal?.turn;
  // On a desk the hand stays in the page: a tall table (a hand's result still open, groups
  // laid) can push your buttons under the fold, so they are brought up, the piles kept in sight.
  const banner = !!client.banner;
  // and again as your hand's panel grows within the turn (the drawn card, a warning)
  const grown = `${view.stage}:${view.hand.length}:${client.warning ?? ""}`;
  useLayoutEffect(() => {
    const mine = document.querySelector(".mine");
    if (!turn || !box.current || !mine) return;
    const piles = box.current.getBoundingClientRect();
    if (piles.top < 0) return;
    if (getComputedStyle(mine).position === "sticky") {
      const hand = mine.getBoundingClientRect();
      if (piles.bottom > hand.top) window.scrollBy(0, Math.min(piles.top, piles.bottom - hand.top + 8));
      return;
    }
    const buttons = mine.querySelector(".actions")?.getBoundingClientRect();
    if (buttons && buttons.bottom > innerHeight) window.scrollBy(0, Math.min(piles.top, buttons.bottom - innerHeight + 8));
  }, [turn, banner, grown]);
  return html`<section class="centre" aria-label="Draw and discard piles" ref=${box}>
    <button type="button" id="draw-pile" class=${`pile draw${draw ? " live" : ""}`} disabled=${!draw}
      onClick=${() => client.act("draw")} aria-label=${`Draw pile, ${view.draw_size} cards${draw ? ": draw a card (d)" : ""}`}>
      <span class="back big" aria-hidden="true"></span><span class="pile-count" aria-hidden="true">${view.draw_size}</span>
    </button>
    <button type="button" id="discard-pile" class=${`pile discard${take || canDiscard ? " live" : ""}`} disabled=${!(take || canDiscard) || (!top && !canDiscard)}
      onClick=${() => take ? client.act("take") : client.discard()}
      aria-label=${top ? `Discard pile, top card ${top}${take ? `: ${take.label} (t)` : canDiscard ? ": discard the selected card (x)" : ""}` : "Discard pile, empty"}>
      ${top ? html`<${Card} token=${top} key=${`top${pile.length}`} extra="landed" />` : html`<span class="empty">empty</span>`}
    </button>
    <p id="turn" class=${legal?.turn ? "yours" : ""}>${prompt}</p>
  </section>`;
}

// (a full stop at the end, where the text has none)
const stopped = (text) => /[.!?]$/.test(text) ? text : `${text}.`;

function Mine({ client, last }) {
  const { view, progress } = client.state;
  const me = view.viewer;
  const s = view.seats[me];
  const cards = handCards(view.hand, client.sortBy);
  const marked = last && last.seat === me;
  // a hint, a choice to make or a hand's result to read: on a phone the panel stops
  // floating over the table while it is open (style.css)
  const open = client.hint || client.choices || client.banner;
  return html`<section class=${`mine${client.legal?.turn ? " my-turn" : ""}${open ? " expanded" : ""}`} aria-label="You">
    <div class="mine-head">
      <p id="progress" class="progress">${progress?.label ?? phaseText(view, s)}</p>
      <span class="score">${s.name} · ${s.score} pts</span>
      ${me === view.dealer && html`<span class="badge dealer">Dealer</span>`}
      ${s.pending_skip && html`<span class="badge skip">Skipped next turn</span>`}
      ${s.gave_up && html`<span class="badge gave-up">Gave up the phase</span>`}
      ${marked && html`<span class=${`last-move ${last.kind}`} key=${`m${last.version}`}>You ${last.own ?? last.text}</span>`}
      <button type="button" id="sort" class="small" aria-keyshortcuts="s" onClick=${() => client.sort()}
        aria-label=${`Sort your hand by ${client.sortBy === "number" ? "colour" : "number"}`}>
        By ${client.sortBy === "number" ? "colour" : "number"} <kbd aria-hidden="true">s</kbd></button>
    </div>
    <${Groups} client=${client} owner=${me} last=${last} />
    <div class="hand" role="group" aria-label="Your cards: tap or press 1-9 to select">
      ${cards.map((c, place) => html`<${Card} as="button" key=${c.key} token=${c.token} data-card=${c.index} extra="in-hand"
        aria-pressed=${String(client.selected.has(c.key))} title=${place < 9 ? `key ${place + 1}` : null}
        onClick=${() => client.toggle(c.key)} />`)}
    </div>
    <${MySaved} client=${client} />
    <${Actions} client=${client} />
  </section>`;
}

// Who moved down a phase at the end of hand k (the Anti-phase card; the log says why):
// the engine lists them in the hand's result.
function movedDown(results, k) {
  const r = results[k];
  if (!r) return [];
  const moved = r.moved_down || [];
  return r.phases_completed.map((_, i) => moved.includes(i));
}

function Banner({ client, result }) {
  const view = client.state.view;
  const names = view.seats.map((s) => s.name);
  const moved = movedDown(view.hand_results, view.hand_results.findIndex((r) => r.hand === result.hand));
  const out = result.went_out === null || result.went_out === undefined ? `nobody went out (${result.reason})` : `${names[result.went_out]} went out`;
  return html`<section class="banner" role="region" aria-labelledby="banner-title">
    <h2 id="banner-title">Hand ${result.hand}: ${out}</h2>
    <table class="hand-scores"><thead><tr><th scope="col">Player</th><th scope="col">This hand</th><th scope="col">Total</th><th scope="col">Phase</th></tr></thead>
      <tbody>${names.map((name, i) => html`<tr key=${i}><th scope="row">${name}</th>
        <td>${result.points[i] === null ? "—" : `+${result.points[i]}`}</td><td>${result.totals[i]}</td>
        <td>${result.advanced.includes(i) ? "made it ✓" : "again"}${moved[i] ? ", then moved down ▼" : ""}</td></tr>`)}</tbody></table>
    <button type="button" id="banner-close" class="small" onClick=${() => { client.banner = null; client.draw(); }}>Close</button>
  </section>`;
}

function Results({ client }) {
  const { view, table } = client.state;
  const ended = view.history.findLast((e) => e.type === "GameEnded");
  const names = view.winners.map((w) => view.seats[w].name).join(" and ");
  const asked = table.rematch ?? [];
  const seated = client.seat !== null && client.seat !== undefined;
  const mine = seated && asked.includes(client.seat);
  const host = seated && client.seat === table.host;
  // the game ends while you look at your hand, below: the result comes into sight once
  const box = useRef(null);
  useLayoutEffect(() => {
    const top = box.current?.getBoundingClientRect().top;
    if (top !== undefined && (top < 0 || top > innerHeight * 0.6)) box.current.scrollIntoView({ block: "start" });
  }, []);
  return html`<section class="panel results" aria-labelledby="winner" ref=${box}>
    <h2 id="winner">${names} won${ended ? `: ${ended.reason}` : ""}</h2>
    <p class="totals">${view.seats.map((s) => `${s.name} ${s.score}`).join(" · ")}</p>
    <div class="actions">
      ${seated && html`<button type="button" id="rematch" class="primary" disabled=${mine}
        onClick=${() => client.send({ type: "rematch" })}>${mine ? "Rematch asked: waiting for the others" : "Rematch"}</button>`}
      ${host && mine && html`<button type="button" id="rematch-now" onClick=${() => client.send({ type: "rematch", force: true })}>Start it now</button>`}
      ${table.record_id && html`<a class="button" href=${`/replay/${table.record_id}`}>Replay this game</a>`}
      ${table.record_id && html`<a class="button" id="review-game" href=${seated ? `/replay/${table.record_id}?review=${client.seat}` : `/replay/${table.record_id}#review`}>Review this game</a>`}
    </div>
    ${asked.length > 0 && html`<p id="rematch-waiting">Rematch asked by ${asked.map((p) => table.seats[p]?.name ?? p).join(", ")}</p>`}
  </section>`;
}

function Scores({ view }) {
  if (!view.hand_results.length) return null;
  const moves = view.hand_results.map((_, k) => movedDown(view.hand_results, k));
  return html`<section class="panel scores-panel" aria-labelledby="scores-title">
    <h2 id="scores-title">Scores</h2>
    <div class="scroll-x" tabindex="0" role="region" aria-label="Scores by hand"><table class="scores">
      <thead><tr><th scope="col">Hand</th>${view.seats.map((s, i) => html`<th scope="col" key=${i}>${s.name}</th>`)}</tr></thead>
      <tbody>${view.hand_results.map((r, k) => {
        const moved = moves[k];
        return html`<tr key=${r.hand}><th scope="row">${r.hand}</th>
        ${r.points.map((p, i) => html`<td key=${i}>${p === null ? "—" : `${p}${r.advanced.includes(i) ? " ✓" : ""}`}${moved[i] && html`<span aria-hidden="true"> ▼</span><span class="sr-only"> moved down a phase</span>`}${p !== null && html`<span class="total"><span class="sr-only">, total </span>${r.totals[i]}</span>`}</td>`)}</tr>`;
      })}</tbody>
      <tfoot><tr><th scope="row">Total</th>${view.seats.map((s, i) => html`<td key=${i}>${s.score}</td>`)}</tr></tfoot>
    </table></div>
    <p class="muted scores-key">Points each hand, the total so far beneath; ✓ phase made${moves.some((row) => row.some(Boolean)) ? "; ▼ moved down a phase" : ""}.</p>
  </section>`;
}

// The log keeps its newest line in sight, unless the reader scrolled up to read.
export function Log({ lines }) {
  const list = useRef(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    if (stick.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  });
  const onScroll = () => {
    const ol = list.current;
    stick.current = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 24;
  };
  const shown = tidyLog(lines);
  return html`<section class="panel log" aria-labelledby="log-title">
    <h2 id="log-title">Log</h2>
    <ol id="log" ref=${list} onScroll=${onScroll} tabindex="0" aria-label="What happened, newest last">
      ${shown.map((line, k) => html`<li key=${k} class=${line.startsWith("    ") ? "row" : line.startsWith("  ") ? (line.includes("Bot plays for ") ? "stand-in" : "") : "head"}>${line.startsWith("    ") ? line.slice(4) : line.trim()}</li>`)}
    </ol>
  </section>`;
}
