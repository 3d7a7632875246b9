// A table: joining it, the socket, and what the player does. Everything the player may do
// comes from the server's `legal` block; this file only sends the chosen action back.
import { api, el, handCards, setColourBlind } from "./cards.js";
import { deadPage } from "./dead.js";
import { announce, html, notice, render, sentence, tidyLog } from "./ui.js";
import { TablePage } from "./table-view.js";

// the protocol version this client was written for (phase10.server.protocol.PROTOCOL_VERSION)
const PROTOCOL = 2;

export async function tablePage(main, id) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) localStorage.setItem(`phase10:${id}`, fromLink);
  const token = fromLink || localStorage.getItem(`phase10:${id}`);
  if (token) return new TableClient(main, id, token).connect();
  let info;
  try { info = await api(`/api/tables/${id}`); } catch (error) { return noTable(main, id, error.message); }
  const open = info.status === "lobby" && !info.options.seeded && info.seats.some((s) => s.kind === "open");
  const watch = el("button", { type: "button", id: "watch", onclick: () => new TableClient(main, id, null).connect() }, "Watch");
  const form = el("form", { class: "panel join", "aria-labelledby": "join-title" },
    el("h1", { id: "join-title", text: open ? "Join the table" : "Watch the table" }),
    el("p", { text: `Players: ${info.seats.map((s) => s.name || "(open seat)").join(", ")}; ${info.options.kind === "dice" ? "Phase 10 Dice" : `rules: ${info.options.preset}`}` }),
    info.options.seeded && el("p", { text: "The host chose this table's deal (a seed), so it is for the host and bots: you may watch." }),
    open && el("label", {}, "Your name ", el("input", { name: "name", required: true, maxlength: 24, autocomplete: "nickname" })),
    el("div", { class: "actions" }, open && el("button", { type: "submit", id: "join", class: "primary" }, "Join"), watch));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const seat = await api(`/api/tables/${id}/join`, { name: new FormData(form).get("name") });
      localStorage.setItem(`phase10:${id}`, seat.token);
      history.replaceState(null, "", seat.link);
      new TableClient(main, id, seat.token).connect();
    } catch (error) { notice(error.message); }
  });
  main.replaceChildren(form);
  form.querySelector("input, button")?.focus();
}

function noTable(main, id, text) {
  // the server's "there is no table '…'" would only say the first sentence again
  const why = /^there is no table\b/i.test(text) ? "" : `: ${text}`;
  deadPage(main, { title: "There is no such table", text: `No table has the id “${id}”${why}. Its link may be mistyped, or the table was closed after a day without players.` });
}

// The socket closed for good: the server said why (close codes of docs/server-protocol.md).
const FINAL_CLOSES = {
  4401: ["This seat link does not work", "Too many wrong seat links were tried on this connection."],
  4403: ["You are no longer seated at this table", "Your seat was given up, or the host gave it to someone else."],
  4404: ["There is no such table", "Its link may be mistyped, or it was closed after a day without players."],
  4429: ["Too many connections", "Close some other tabs of this server, then reload this page."],
};

class TableClient {
  constructor(main, id, token) {
    Object.assign(this, { main, id, token, ws: null, state: null, hint: null, diceHint: null, choices: null });
    this.selected = new Set();
    this.sortBy = localStorage.getItem("phase10:sort") || "number";
    this.retry = 500;
    this.turnLeft = null;
    this.banner = null;
    this.handsSeen = null;
    this.logSeen = null;
    this.closed = false;
    this.warning = null; // see warn()
    this.warnedAtTop = false;
    main.replaceChildren();
    document.addEventListener("keydown", (event) => this.key(event));
    setInterval(() => this.tick(), 1000);
  }

  async loadBotKinds() {
    try {
      const presets = await api("/api/presets");
      this.botKinds = presets.bots;
      this.diceBotKinds = presets.dice_bots;
    } catch { this.botKinds = null; }
  }

  connect() {
    if (this.botKinds === undefined) { this.botKinds = null; this.loadBotKinds().then(() => this.draw()); }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws/${this.id}`);
    this.ws.onopen = () => { this.retry = 500; this.send({ type: "hello", token: this.token, protocol: PROTOCOL }); };
    this.ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.ws.onclose = (event) => {
      if (this.closed) return;
      if (this.farewell) return;
      const final = FINAL_CLOSES[event.code];
      if (final) {
        this.closed = true;
        render(null, this.main);
        return deadPage(this.main, { title: final[0], text: final[1], watch: event.code === 4404 ? null : this.id });
      }
      notice("Disconnected: reconnecting…");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  act(text) {
    this.hint = null;
    this.diceHint = null;
    this.choices = null;
    this.banner = null;
    this.send({ type: "action", action: text, version: this.state.version });
  }

  // a stale seat link: the server knows no seat for this token
  staleLink() {
    localStorage.removeItem(`phase10:${this.id}`);
    this.token = null;
    this.closed = true;
    this.ws?.close();
    render(null, this.main);
    deadPage(this.main, { title: "This seat link no longer works",
      text: "The seat it was for was given up, or the link was mistyped. You may still watch the table.", watch: this.id });
  }

  receive(message) {
    if (message.type === "welcome") {
      this.seat = message.seat;
      this.host = message.host;
      notice(message.role === "spectator" ? "You are watching." : "");
    } else if (message.type === "goodbye") {
      localStorage.removeItem(`phase10:${this.id}`);
      this.token = null;
      this.farewell = `${message.reason[0].toUpperCase()}${message.reason.slice(1)}.`;
      announce(this.farewell);
      render(null, this.main);
      this.main.replaceChildren(el("section", { class: "panel dead", "aria-labelledby": "bye-title" },
        el("h1", { id: "bye-title", text: this.farewell }),
        el("p", {}, el("a", { href: `/t/${this.id}`, id: "watch-again" }, "Watch this table"), " or ",
          el("a", { href: "/" }, "start a new table"), ".")));
    } else if (message.type === "error") {
      if ((message.code === "bad_token" || message.code === "seat_gone") && !this.state) return this.staleLink();
      if (message.code === "bad_token") { localStorage.removeItem(`phase10:${this.id}`); this.token = null; }
      this.warn(message.message);
    } else if (message.type === "hint") {
      // (worked out while the game went on: an answer for a position gone is dropped)
      if (message.version !== this.state?.version) return;
      this.hint = message.text;
      // its moves, so a choice between ways to lay down or hit can point out the hint's
      this.hintSteps = message.hint?.steps ?? [];
      this.hinted = new Set(this.hintSteps.map((step) => step.action));
      // and the kind of its first step ("draw", "take", "lay", "hit", "discard"...), whose
      // button is the primary one while the hint is open
      this.advised = (message.hint?.steps?.[0]?.action ?? "").split(" ")[0] || null;
      // asked for by the ways to lay down, still open: offered again, the hint's first
      const laying = this.hintFor?.version === message.version && this.hintFor.kind === "lay";
      if (laying && this.choices?.title.startsWith("Lay down") && !this.selected.size) return this.lay();
      this.draw();
    } else if (message.type === "dice_hint") {
      if (message.version === this.state?.version) this.diceHint = message;
      this.draw();
    } else if (message.type === "choices") {
      if (message.actions.length === 1) this.act(message.actions[0]);
      else this.offer(message.kind === "lay" ? "Lay down which way?" : "Hit where?", message.actions.map((a) => ({ action: a, label: this.labelOf(a) })));
    } else if (message.type === "state") {
      this.onState(message);
    }
  }

  onState(message) {
    const before = this.state;
    this.state = message;
    window.phase10State = message;
    this.turnLeft = message.table.turn_left;
    const view = message.view;
    if (before && before.version !== message.version) {
      this.choices = null; this.hint = null; this.diceHint = null; this.hinted = null; this.hintSteps = null;
      this.unwarn(); // a move was made: the warning about an earlier try no longer stands
    }
    // a changed hand starts a new selection (the others' moves leave it as it is)
    if (before?.view?.hand !== view?.hand) this.selected.clear();
    // a hand that ended since the last state gets its banner (not on the first state)
    const results = view?.hand_results ?? [];
    if (this.handsSeen !== null && results.length > this.handsSeen && view.stage !== "game_over") {
      this.banner = results.at(-1);
    }
    // the game's results take the place of a hand's banner (on every device, moved or not)
    if (view?.stage === "game_over") this.banner = null;
    if (view) this.handsSeen = results.length;
    // the host's role passed to you (given, or passed on by a host away): say so once
    const host = message.table.host;
    if (before && before.table.host !== host && host === this.seat && this.seat !== null) {
      notice("You are now the host of this table.");
    }
    this.announceNew(message.log ?? []);
    this.draw();
    // the game begins: from the lobby's foot to the top of the table
    if (before?.table.status === "lobby" && message.table.status !== "lobby") scrollTo(0, 0);
  }

  // read out the log lines that are new since the last state, once
  announceNew(lines) {
    // the score table's rows (indented deeper) are shown by the banner, not read out
    const clean = tidyLog(lines).filter((l) => !l.startsWith("    ")).map((l) => l.trim());
    const old = this.logSeen;
    this.logSeen = clean;
    if (old === null) return;
    let overlap = 0;
    for (let k = Math.min(old.length, clean.length); k > 0; k--) {
      if (old.slice(old.length - k).every((line, i) => line === clean[i])) { overlap = k; break; }
    }
    const fresh = clean.slice(overlap);
    if (fresh.length) announce(fresh.slice(-3).join(". "));
  }

  // -- what the player does (from the legal block) -------------------------------------

  get view() { return this.state?.view; }
  get legal() { return this.state?.legal ?? null; }

  cards() { return handCards(this.view?.hand ?? "", this.sortBy); }

  selectedTokens() { return this.cards().filter((c) => this.selected.has(c.key)).map((c) => c.token); }

  // a warning about the last click or key, shown until the next move or selection: beside
  // your buttons at the table (where the eye is), at the top of the page elsewhere
  warn(text) {
    this.unwarn();
    if (this.legal) { this.warning = text; announce(text); this.draw(); } else { notice(text); this.warnedAtTop = true; }
  }

  unwarn() {
    if (this.warnedAtTop) notice("");
    this.warning = null;
    this.warnedAtTop = false;
  }

  toggle(key) {
    if (this.selected.has(key)) this.selected.delete(key); else this.selected.add(key);
    this.unwarn();
    this.draw();
  }

  // the cards the open hint's first step plays, selected (a step that plays none, a draw
  // or a take, is the highlighted button already)
  applyHint() {
    const step = this.hint ? this.hintSteps?.[0] : null;
    if (!step) return this.warn("Ask for a hint first: press ? or Hint.");
    if (!step.cards.length) return this.warn(`The hint's first step plays no card from your hand: ${step.text}.`);
    const left = [...step.cards];
    this.selected.clear();
    for (const card of this.cards()) {
      const at = left.indexOf(card.token);
      if (at >= 0) { this.selected.add(card.key); left.splice(at, 1); }
    }
    this.unwarn();
    this.draw();
  }

  sort() {
    this.sortBy = this.sortBy === "number" ? "colour" : "number";
    localStorage.setItem("phase10:sort", this.sortBy);
    this.draw();
  }

  // the label the server gave an action, wherever in the legal block it is
  labelOf(action) {
    const legal = this.legal;
    if (!legal) return action;
    const all = [...legal.draw, ...legal.declare, ...legal.give, ...legal.lay.ways, ...legal.discards, ...legal.skips, ...legal.anti,
      ...legal.hits.flatMap((g) => g.hits), ...legal.saves, ...legal.take_saved, ...legal.give_up];
    return all.find((entry) => entry.action === action)?.label ?? action.replace(/^lay /, "Lay down ");
  }

  offer(title, items) {
    this.choices = { title, items };
    this.draw();
    // the focus on the hint's choice, where there is one (Enter makes it), else the first
    const at = Math.max(0, items.findIndex((item) => this.hinted?.has(item.action)));
    requestAnimationFrame(() => document.querySelectorAll("#choices button.choice")[at]?.focus());
  }

  // a hint asked for a choice being offered (kind "lay"), once a position
  askHintFor(kind) {
    if (this.hintFor?.version === this.state.version) return;
    this.hintFor = { version: this.state.version, kind };
    this.send({ type: "hint" });
  }

  cancelChoices() {
    this.choices = null;
    this.draw();
  }

  lay() {
    const legal = this.legal;
    if (!legal?.lay.total) return this.notNow("You cannot lay down your phase now.");
    const cards = this.selectedTokens();
    if (cards.length) return this.send({ type: "choices", kind: "lay", cards: cards.join(" ") });
    if (legal.lay.ways.length === 1 && legal.lay.complete) return this.act(legal.lay.ways[0].action);
    // the hint's own way (the server's, for this very state) first, even where the list, of
    // the best ways one per set of cards when they are many, left it out
    const hinted = this.hintSteps?.find((s) => s.action.startsWith("lay "));
    const listed = hinted && legal.lay.ways.find((w) => w.action === hinted.action);
    const first = hinted ? [listed ?? { action: hinted.action, label: hinted.label ?? sentence(hinted.text) }] : [];
    const ways = [...first, ...legal.lay.ways.filter((w) => w !== listed)];
    // select the cards to find any other
    if (ways.length) {
      // not asked for yet: the hint is fetched, and its way put first when it comes
      if (!this.hintSteps && ways.length > 1) this.askHintFor("lay");
      return this.offer(legal.lay.complete ? "Lay down which way?" : "Lay down which way? (or select the cards)", ways);
    }
    this.warn("Select the cards to lay down, then press Lay down.");
  }

  // the hits the server allows for the selected card (on one group, or on any)
  hit(group = null) {
    const legal = this.legal;
    if (!legal?.hits.length) return this.notNow("There is nothing to hit now.");
    const cards = this.selectedTokens();
    const groups = legal.hits.filter((g) => group === null || g.group === group);
    if (cards.length > 1) return this.warn("Select one card to hit.");
    const entries = groups.flatMap((g) => g.hits).filter((h) => !cards.length || h.card === cards[0]);
    if (!entries.length) return this.warn(!cards.length ? "No card of yours fits there." : group === null ? `${cards[0]} fits on no group.` : `${cards[0]} does not fit on that group.`);
    if (entries.length === 1 && cards.length) return this.act(entries[0].action);
    this.offer("Hit where?", entries);
  }

  discard() {
    const legal = this.legal;
    if (!legal || !(legal.discards.length || legal.skips.length || legal.anti.length)) return this.notNow("You cannot discard now.");
    const cards = this.discardable();
    if (cards.length !== 1) return this.warn("Select one card to discard.");
    const skips = legal.skips.filter((s) => s.card === cards[0]);
    if (skips.length === 1) return this.act(skips[0].action);
    if (skips.length > 1) return this.offer("Whom do you skip?", skips);
    // the Anti-phase card as the last card goes out and names who moves down a phase
    const anti = legal.anti.filter((a) => a.card === cards[0]);
    if (anti.length === 1) return this.act(anti[0].action);
    if (anti.length > 1) return this.offer("Go out with the Anti-phase card: who moves down a phase?", anti);
    const entry = legal.discards.find((d) => d.card === cards[0]);
    if (entry) return this.act(entry.action);
    this.warn(`${cards[0]} cannot be discarded now.`);
  }

  // the selected card, or your one card when you hold only one
  discardable() {
    const cards = this.selectedTokens();
    const hand = this.cards();
    return cards.length || hand.length !== 1 ? cards : [hand[0].token];
  }

  // why a move cannot be made yet: at the start of a turn, the draw comes first (naming only
  // the draws the server offers); else ``fallback``
  notNow(fallback) {
    const legal = this.legal;
    if (legal?.turn && legal.stage === "draw") {
      const take = legal.draw.some((x) => x.action === "take");
      return this.warn(take ? "Draw a card (d) or take the discard (t) first." : "Draw a card (d) first: the top discard cannot be taken.");
    }
    return this.warn(fallback);
  }

  // the selected card onto your save pile (ending the turn, as a discard would)
  save() {
    const legal = this.legal;
    const cards = this.selectedTokens();
    if (legal?.turn && legal.stage === "draw") return this.notNow("");
    if (legal?.saves.length && cards.length !== 1) return this.warn("Select one card to save.");
    const entry = legal?.saves.find((e) => e.card === cards[0]);
    if (entry) return this.act(entry.action);
    // refused: the engine says why (saved once this hand already, the Anti-phase card...)
    if (legal?.turn && cards.length === 1) return this.act(`save ${cards[0]}`);
    this.warn("You cannot save a card now.");
  }

  // giving up a laid phase cannot be undone: asked once more, with Cancel
  giveUp(entry) {
    this.offer("Give up your phase? Its groups leave the table for the discard pile; after this turn you draw back up to ten cards.",
      [{ action: entry.action, label: `Yes: ${entry.label.toLowerCase()}` }]);
  }

  key(event) {
    if (this.state?.dice) return this.diceKey(event);
    if (this.closed || !this.state?.view) return;
    if (event.target.closest?.("input, select, textarea, summary") || event.ctrlKey || event.metaKey || event.altKey) return;
    const k = event.key;
    const legal = this.legal;
    const cards = this.cards();
    const byPhase = (n) => legal.declare.find((d) => d.phase === n);
    if (k === "Escape" && this.choices) this.cancelChoices();
    else if (k === "c") setColourBlind(!document.body.classList.contains("colour-blind"));
    else if (k === "s") this.sort();
    else if (!legal?.turn) return;
    else if (legal.declare.length && /^[0-9]$/.test(k)) { const d = byPhase(k === "0" ? 10 : Number(k)); if (d) this.act(d.action); else this.warn(`Phase ${k === "0" ? 10 : k} cannot be declared.`); }
    else if (legal.give.length && /^[1-9]$/.test(k)) { const g = legal.give.find((x) => x.seat === Number(k) - 1); if (g) this.act(g.action); }
    else if (k === "d" && legal.draw.some((x) => x.action === "draw")) this.act("draw");
    else if (k === "t") this.act("take"); // (not offered: the engine says why, a Skip on top...)
    else if (k === "l") this.lay();
    else if (k === "h") this.hit();
    else if (k === "x") this.discard();
    else if (k === "v" && this.state.view.rules.save_pile !== "off") this.save();
    else if (k === "?") this.send({ type: "hint" });
    else if (k === "a") this.applyHint();
    else if (/^[1-9]$/.test(k) && cards[Number(k) - 1]) this.toggle(cards[Number(k) - 1].key);
    else if (k === "ArrowLeft" || k === "ArrowRight") {
      const buttons = [...document.querySelectorAll("[data-card]")];
      const at = buttons.indexOf(document.activeElement);
      buttons[Math.max(0, Math.min(buttons.length - 1, at + (k === "ArrowLeft" ? -1 : 1)))]?.focus();
    } else return;
    event.preventDefault();
  }

  // a dice table's keys: r roll, o score, p pass (each only when the view allows it), ? hint
  diceKey(event) {
    if (this.closed || event.target.closest?.("input, select, textarea, summary") || event.ctrlKey || event.metaKey || event.altKey) return;
    const action = { r: "roll", o: "score", p: "pass" }[event.key];
    const legal = this.state.dice.view.legal_actions;
    if (event.key === "c") setColourBlind(!document.body.classList.contains("colour-blind"));
    else if (event.key === "?" && legal.length) this.send({ type: "hint" });
    else if (action && this.state.dice.view.legal_actions.includes(action)) this.act(action);
    else return;
    event.preventDefault();
  }

  tick() {
    if (this.turnLeft === null || this.closed) return;
    this.turnLeft = Math.max(0, this.turnLeft - 1);
    this.draw();
  }

  draw() {
    if (!this.state || this.closed || this.farewell) return;
    render(html`<${TablePage} client=${this} />`, this.main);
  }
}
