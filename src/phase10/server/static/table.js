// A table: joining it, its lobby, and the game, by mouse and keyboard.
import { api, cardFace, el, groupCards, groupInfo, hands, say, setColourBlind } from "./cards.js";

const ORDER = { R: 0, B: 1, G: 2, Y: 3 };

export async function tablePage(main, id) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) localStorage.setItem(`phase10:${id}`, fromLink);
  const token = fromLink || localStorage.getItem(`phase10:${id}`);
  if (token) return new TableView(main, id, token).connect();
  let info;
  try { info = await api(`/api/tables/${id}`); } catch (error) { return gone(main, error.message); }
  const open = info.status === "lobby" && !info.options.seeded && info.seats.some((s) => s.kind === "open");
  const watch = el("button", { type: "button", id: "watch", onclick: () => new TableView(main, id, null).connect() }, "Watch");
  const form = el("form", { class: "panel", "aria-labelledby": "join-title" },
    el("h1", { id: "join-title", text: open ? "Join the table" : "Watch the table" }),
    el("p", { text: `Players: ${info.seats.map((s) => s.name || "(open seat)").join(", ")}; rules: ${info.options.preset}` }),
    info.options.seeded && el("p", { text: "The host chose this table's deal (a seed), so it is for the host and bots: you may watch." }),
    open && el("label", {}, "Your name ", el("input", { name: "name", required: true, maxlength: 24 })),
    open && el("button", { type: "submit", id: "join" }, "Join"), " ", watch);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const seat = await api(`/api/tables/${id}/join`, { name: new FormData(form).get("name") });
      localStorage.setItem(`phase10:${id}`, seat.token);
      history.replaceState(null, "", seat.link);
      new TableView(main, id, seat.token).connect();
    } catch (error) { say(error.message); }
  });
  main.replaceChildren(form);
  form.querySelector("input, button")?.focus();
}

// A table that is gone (or a link that leads nowhere): say so, and offer a way on.
function gone(main, text) {
  main.replaceChildren(el("section", { class: "panel", "aria-labelledby": "gone-title" },
    el("h1", { id: "gone-title", text: "This table is not here" }),
    el("p", { text }),
    el("p", {}, el("a", { href: "/" }, "Start a new table"), " or ", el("a", { href: "/history" }, "see the finished games"), ".")));
}

// The socket closed for good: the server said why (close codes of docs/server-protocol.md).
const FINAL_CLOSES = { 4401: "Too many wrong seat links were tried on this connection.",
  4403: "You are no longer seated at this table.", 4404: "There is no such table.",
  4429: "Too many connections: close some other tabs of this server, then reload." };

class TableView {
  constructor(main, id, token) {
    Object.assign(this, { main, id, token, ws: null, state: null, hint: null, choices: null });
    this.selected = new Set();
    this.sortBy = "number";
    this.retry = 500;
    this.turnLeft = null;
    document.addEventListener("keydown", (event) => this.key(event));
    setInterval(() => this.tick(), 1000);
  }

  async loadBotKinds() {
    try { this.botKinds = (await api("/api/presets")).bots; } catch { this.botKinds = null; }
  }

  connect() {
    if (this.botKinds === undefined) { this.botKinds = null; this.loadBotKinds().then(() => this.state && this.render()); }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws/${this.id}`);
    this.ws.onopen = () => { this.retry = 500; this.send({ type: "hello", token: this.token }); };
    this.ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.ws.onclose = (event) => {
      if (this.farewell || FINAL_CLOSES[event.code]) {
        if (event.code === 4404) return gone(this.main, "Its link may be mistyped, or it was closed after a day without players.");
        return say(this.farewell || FINAL_CLOSES[event.code]);
      }
      say("Disconnected: reconnecting…");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  act(text) {
    this.hint = null;
    this.choices = null;
    this.send({ type: "action", action: text, version: this.state.version });
  }

  receive(message) {
    if (message.type === "welcome") {
      this.seat = message.seat;
      this.host = message.host;
      say(message.role === "spectator" ? "You are watching." : `You sit in seat ${message.seat + 1}.`);
    } else if (message.type === "goodbye") {
      localStorage.removeItem(`phase10:${this.id}`);
      this.token = null;
      this.farewell = `${message.reason[0].toUpperCase()}${message.reason.slice(1)}.`;
      say(this.farewell);
      this.main.replaceChildren(el("section", { class: "panel", "aria-labelledby": "bye-title" },
        el("h1", { id: "bye-title", text: this.farewell }),
        el("p", {}, el("a", { href: `/t/${this.id}`, id: "watch-again" }, "Watch this table"), " or ",
          el("a", { href: "/" }, "start a new table"), ".")));
    } else if (message.type === "error") {
      if (message.code === "bad_token") { localStorage.removeItem(`phase10:${this.id}`); this.token = null; }
      say(message.message);
    } else if (message.type === "hint") {
      this.hint = message.text;
      this.render();
    } else if (message.type === "choices") {
      if (message.actions.length === 1) this.act(message.actions[0]);
      else { this.choices = message.actions; this.render(); }
    } else if (message.type === "state") {
      const old = this.state?.view?.hand;
      this.state = message;
      window.phase10State = message;
      this.turnLeft = message.table.turn_left;
      if (old !== message.view?.hand) this.selected.clear();
      this.render();
    }
  }

  // -- what the player does -------------------------------------------------------------

  get view() { return this.state?.view; }
  get myTurn() { return this.view && this.view.viewer !== null && this.view.current === this.view.viewer && this.view.stage !== "game_over"; }

  sortedHand() {
    const cards = hands(this.view?.hand ?? "").map((token, index) => ({ token, index }));
    const key = (t) => t === "S" ? [2, 0, 0] : t.startsWith("W") ? [1, 0, 0]
      : this.sortBy === "number" ? [0, Number(t.slice(1)), ORDER[t[0]]] : [0, ORDER[t[0]], Number(t.slice(1))];
    return cards.sort((a, b) => {
      const x = key(a.token), y = key(b.token);
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
  }

  selectedCards() {
    return this.sortedHand().filter((c) => this.selected.has(c.index)).map((c) => c.token);
  }

  toggle(index) {
    if (this.selected.has(index)) this.selected.delete(index); else this.selected.add(index);
    this.render();
    document.querySelector(`[data-card="${index}"]`)?.focus();
  }

  lay() {
    this.send({ type: "choices", kind: "lay", cards: this.selectedCards().join(" ") });
  }

  hit(group = null) {
    const cards = this.selectedCards();
    if (cards.length !== 1) return say("Select one card to hit.");
    this.hitGroup = group;
    this.send({ type: "choices", kind: "hit", cards: cards[0] });
  }

  discard() {
    const cards = this.selectedCards();
    if (cards.length !== 1) return say("Select one card to discard.");
    const view = this.view;
    if (cards[0] === "S" && view.rules.skip_target === "choose") {
      const targets = view.players_in_hand.filter((p) => p !== view.viewer && !view.seats[p].pending_skip);
      if (targets.length > 1) {
        this.choices = targets.map((p) => `discard S>p${p}`);
        return this.render();
      }
      if (targets.length === 1) return this.act(`discard S>p${targets[0]}`);
    }
    this.act(`discard ${cards[0]}`);
  }

  // the phases the player may declare (numbered from 1): those not completed yet
  declarable() {
    const view = this.view;
    const done = new Set(view.seats[view.viewer].completed);
    return view.phase_sequence.map((_, i) => i + 1).filter((n) => !done.has(n));
  }

  declare(phase) {
    if (!this.declarable().includes(phase)) return say(`Phase ${phase} cannot be declared: choose one of ${this.declarable().join(", ")}.`);
    this.act(`declare ${phase}`);
  }

  give(seat) {
    if (!this.view.players_in_hand.includes(seat)) return say(`Seat ${seat + 1} is not in this hand.`);
    this.act(`give p${seat}`);
  }

  key(event) {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const k = event.key;
    const hand = this.sortedHand();
    if (k === "c") setColourBlind(!document.body.classList.contains("colour-blind"));
    else if (k === "s") { this.sortBy = this.sortBy === "number" ? "colour" : "number"; this.render(); }
    else if (!this.myTurn) return;
    else if (this.view.stage === "declare" && /^[0-9]$/.test(k)) this.declare(k === "0" ? 10 : Number(k));
    else if (this.view.stage === "give_wild" && /^[1-9]$/.test(k)) this.give(Number(k) - 1);
    else if (k === "d") this.act("draw");
    else if (k === "t") this.act("take");
    else if (k === "l") this.lay();
    else if (k === "h") this.hit();
    else if (k === "x") this.discard();
    else if (k === "?") this.send({ type: "hint" });
    else if (/^[1-9]$/.test(k) && hand[Number(k) - 1]) this.toggle(hand[Number(k) - 1].index);
    else if (k === "ArrowLeft" || k === "ArrowRight") {
      const cards = [...document.querySelectorAll("[data-card]")];
      const at = cards.indexOf(document.activeElement);
      cards[Math.max(0, Math.min(cards.length - 1, at + (k === "ArrowLeft" ? -1 : 1)))]?.focus();
    } else return;
    event.preventDefault();
  }

  tick() {
    if (this.turnLeft === null) return;
    this.turnLeft = Math.max(0, this.turnLeft - 1);
    const timer = document.getElementById("timer");
    if (timer) timer.textContent = `${Math.round(this.turnLeft)} s left in this turn`;
  }

  // -- drawing the table ----------------------------------------------------------------

  render() {
    const { table } = this.state;
    const parts = [this.header(table)];
    if (table.status === "lobby") parts.push(this.lobby(table));
    else {
      const over = this.view.stage === "game_over";
      if (over) parts.push(this.results(table));
      parts.push(this.seats(table), this.board());
      if (this.view.viewer !== null && !over) parts.push(this.hand(), this.controls());
      parts.push(this.scores(), this.log());
    }
    const focused = document.activeElement?.id;
    this.main.replaceChildren(...parts.filter(Boolean));
    if (focused) document.getElementById(focused)?.focus();
  }

  header(table) {
    const invite = `${location.origin}/t/${table.id}`;
    const mine = this.token ? `${invite}#token=${this.token}` : null;
    return el("section", { class: "panel info", "aria-label": "Table" },
      el("h1", { text: `Table ${table.id} — ${table.options.preset}` }),
      el("label", {}, "Invite link ", el("input", { id: "invite", readonly: true, value: invite, size: 40 })),
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(invite) }, "Copy"),
      mine && el("details", {}, el("summary", { text: "Your seat link (rejoin from any device; keep it private)" }),
        el("input", { id: "seat-link", readonly: true, value: mine, size: 60 })),
      this.turnLeft !== null && el("p", { id: "timer", role: "timer", text: `${Math.round(this.turnLeft)} s left in this turn` }));
  }

  // the host's buttons for one seat: remove its player, give it to a bot, make its player host
  seatControls(table, s) {
    if (this.seat !== table.host || s.seat === table.host) return null;
    const button = (type, label) => el("button", { type: "button", class: "seat-control", id: `${type}-${s.seat}`,
      onclick: () => this.send({ type, seat: s.seat }) }, label);
    const lobby = table.status === "lobby";
    return [
      s.kind === "human" && lobby && button("remove_player", "Remove"),
      (s.kind === "open" && lobby || s.kind === "human") && button("seat_bot", lobby ? "Give to a bot" : "Let a bot play"),
      s.kind === "human" && button("hand_over", "Make host"),
    ].filter(Boolean);
  }

  lobby(table) {
    const host = this.seat === table.host;
    return el("section", { class: "panel", "aria-label": "Lobby" },
      el("h2", { text: "Waiting to start" }),
      el("ul", { id: "lobby-seats" }, table.seats.map((s) => el("li", {},
        s.kind === "open" ? `Seat ${s.seat + 1}: open (a ${table.options.bots} bot if nobody joins) `
          : `Seat ${s.seat + 1}: ${s.name}${s.seat === table.host ? " (host)" : ""}${s.kind === "bot" ? ` (bot: ${s.bot})` : s.connected ? "" : " (not connected)"} `,
        this.seatControls(table, s)))),
      this.seat !== null && this.seat !== undefined && !host &&
        el("button", { type: "button", id: "leave", onclick: () => this.send({ type: "leave" }) }, "Leave the table"),
      host ? [
        el("label", {}, "Bots ", el("select", { id: "bots", onchange: (e) => this.send({ type: "bots", bots: e.target.value }) },
          (this.botKinds ?? [{ spec: table.options.bots, label: table.options.bots }]).map((b) =>
            el("option", { value: b.spec, text: b.label, selected: b.spec === table.options.bots })))),
        el("button", { type: "button", id: "start", onclick: () => this.send({ type: "start" }) }, "Start the game"),
      ] : el("p", { text: "The host starts the game." }));
  }

  seats(table) {
    const view = this.view;
    return el("section", { class: "panel", "aria-label": "Players" },
      el("table", { class: "seats" },
        el("thead", {}, el("tr", {}, ["", "Player", "Cards", "Phase", "Score", ""].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, view.seats.map((s, i) => {
          const phase = s.declared ? `declared ${s.declared}: ${view.phase_sequence[s.declared - 1]}`
            : s.phase <= view.phase_sequence.length ? `${s.phase}: ${view.phase_sequence[s.phase - 1]}` : "all done";
          const who = table.seats[i];
          const notes = [s.pending_skip && "skipped next", s.laid && "laid down", s.floating && "floating",
            i === view.dealer && "dealer", who.kind === "bot" && `bot (${who.bot})`, who.kind === "human" && !who.connected && "away"];
          return el("tr", { class: i === view.current ? "current" : "", "aria-current": i === view.current ? "true" : null },
            el("td", { text: i === view.current ? "▶" : "" }), el("th", { scope: "row", text: s.name + (i === view.viewer ? " (you)" : "") }),
            el("td", { text: String(s.hand_size) }), el("td", { text: phase }), el("td", { text: String(s.score) }),
            el("td", {}, notes.filter(Boolean).join(", "), " ", this.seatControls(table, who)));
        }))));
  }

  board() {
    const view = this.view;
    const top = view.discard_pile ? view.discard_pile.split(" ").at(-1) : null;
    const canDraw = this.myTurn && view.stage === "draw";
    const canDiscard = this.myTurn && (view.stage === "play" || view.stage === "wild_discard");
    return el("section", { class: "panel board", "aria-label": "The table" },
      el("div", { class: "piles" },
        el("button", { type: "button", id: "draw-pile", class: "pile", disabled: !canDraw, onclick: () => this.act("draw"),
          "aria-label": `Draw pile, ${view.draw_size} cards: draw (d)` }, `Draw pile (${view.draw_size})`),
        el("button", { type: "button", id: "discard-pile", class: "pile", disabled: !(canDraw || canDiscard) || !top,
          onclick: () => canDraw ? this.act("take") : this.discard(),
          "aria-label": top ? `Discard pile, top card ${top}: ${canDraw ? "take it (t)" : "discard the selected card (x)"}` : "Discard pile, empty" },
        "Discard ", top ? cardFace(top) : "(empty)")),
      el("h2", { text: "Groups on the table" }),
      view.melds.length ? el("ul", { class: "melds" }, view.melds.map((meld, gid) => el("li", {},
        el("button", { type: "button", class: "meld", "data-group": gid, disabled: !this.myTurn || view.stage !== "play",
          onclick: () => this.hit(gid), "aria-label": `Group g${gid}, ${view.seats[meld.owner].name}'s ${groupInfo(meld.group).caption}: ${meld.text}. Hit the selected card here` },
        el("span", { class: "gid", text: `g${gid} ${view.seats[meld.owner].name} · ${groupInfo(meld.group).caption}` }), groupCards(meld)))))
        : el("p", { text: "No group yet." }));
  }

  hand() {
    return el("section", { class: "panel", "aria-label": "Your hand" },
      el("h2", { text: `Your hand (sorted by ${this.sortBy}; s to change)` }),
      el("div", { class: "hand", role: "group", "aria-label": "Your cards: 1-9 or click to select" },
        this.sortedHand().map((c, place) => cardFace(c.token, { tag: "button", attrs: {
          type: "button", "data-card": c.index, "aria-pressed": String(this.selected.has(c.index)),
          title: place < 9 ? `key ${place + 1}` : null, onclick: () => this.toggle(c.index) } }))));
  }

  controls() {
    const view = this.view;
    const stage = view.stage;
    const my = this.myTurn;
    const button = (id, label, handler, enabled) =>
      el("button", { type: "button", id, disabled: !enabled, onclick: handler }, label);
    const parts = [
      button("act-draw", "Draw (d)", () => this.act("draw"), my && stage === "draw"),
      button("act-take", "Take discard (t)", () => this.act("take"), my && stage === "draw"),
      button("act-lay", "Lay down (l)", () => this.lay(), my && stage === "play"),
      button("act-hit", "Hit (h)", () => this.hit(), my && stage === "play"),
      button("act-discard", "Discard (x)", () => this.discard(), my && (stage === "play" || stage === "wild_discard")),
      button("act-hint", "Hint (?)", () => this.send({ type: "hint" }), my),
    ];
    if (my && stage === "declare") {
      this.declarable().forEach((n) => parts.push(button(`declare-${n}`,
        `Declare ${n}: ${view.phase_sequence[n - 1]} (${n % 10})`, () => this.declare(n), true)));
    }
    if (my && stage === "give_wild") {
      view.players_in_hand.forEach((p) => parts.push(button(`give-${p}`,
        `${p === view.viewer ? "Keep the Wild" : `Give the Wild to ${view.seats[p].name}`} (${p + 1})`, () => this.give(p), true)));
    }
    const doing = { draw: "draw or take the discard", play: "lay down, hit, then discard",
      declare: "declare the phase you will make this hand (0-9)",
      give_wild: "give the turned-up Wild to a player, or keep it (the seat's number)",
      wild_discard: "you have the Wild: discard a card" };
    const whose = view.stage === "game_over" ? "The game is over." : my ? `Your turn: ${doing[stage] ?? stage.replace("_", " ")}.`
      : `${view.seats[view.current].name} is ${stage === "declare" ? "declaring a phase" : stage === "give_wild" ? "giving the turned-up Wild" : "playing"}.`;
    return el("section", { class: "panel", "aria-label": "Actions" },
      el("p", { id: "turn", text: whose }), el("div", { class: "actions" }, parts),
      this.choices && el("div", { class: "choices", role: "group", "aria-label": "Choose one" },
        el("p", { text: "Which one?" }),
        this.choices.filter((a) => this.hitGroup === null || this.hitGroup === undefined || !a.startsWith("hit") || a.endsWith(` g${this.hitGroup}`))
          .map((a) => el("button", { type: "button", class: "choice", onclick: () => this.act(a) }, a)),
        el("button", { type: "button", onclick: () => { this.choices = null; this.render(); } }, "Cancel")),
      this.hint && el("pre", { class: "hint", "aria-label": "Hint", text: this.hint }));
  }

  results(table) {
    const view = this.view;
    const ended = view.history.findLast((e) => e.type === "GameEnded");
    const names = view.winners.map((w) => view.seats[w].name).join(" and ");
    return el("section", { class: "panel results", "aria-label": "Result", role: "region" },
      el("h2", { id: "winner", text: `${names} won${ended ? `: ${ended.reason}` : ""}` }),
      this.seat !== null && this.seat !== undefined && el("button", { type: "button", id: "rematch", onclick: () => this.send({ type: "rematch" }) }, "Rematch"),
      table.record_id && el("a", { href: `/replay/${table.record_id}` }, " Replay this game"));
  }

  scores() {
    const view = this.view;
    if (!view.hand_results.length) return null;
    return el("section", { class: "panel", "aria-label": "Scores by hand" },
      el("h2", { text: "Scores" }),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Hand" }), view.seats.map((s) => el("th", { scope: "col", text: s.name })))),
        el("tbody", {}, view.hand_results.map((r) => el("tr", {}, el("th", { scope: "row", text: String(r.hand) }),
          r.points.map((p, i) => el("td", { text: p === null ? "—" : `${p}${r.advanced.includes(i) ? " ✓" : ""} (${r.totals[i]})` })))))));
  }

  log() {
    const lines = this.state.log.filter((line) => line.trim());
    return el("section", { class: "panel log", "aria-label": "Log" },
      el("h2", { text: "Log" }),
      el("ol", { id: "log" }, lines.slice(-30).map((line) => el("li", { text: line.trim() }))),
      el("p", { class: "sr-only", "aria-live": "polite", text: lines.at(-1)?.trim() ?? "" }));
  }
}
