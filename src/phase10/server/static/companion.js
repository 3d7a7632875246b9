// The table-side companion: a score sheet for a game played with real cards.
import { api, el, say } from "./cards.js";

const KEY = "phase10:companion";

export async function companionPage(main) {
  document.title = "Phase 10 — score sheet";
  const presets = await api("/api/presets");
  let sheet = JSON.parse(localStorage.getItem(KEY) || "null") || { preset: "official", players: ["", ""], hands: [], tie_break_winner: null };
  let result = null;

  const save = () => localStorage.setItem(KEY, JSON.stringify(sheet));
  const named = () => sheet.players.every((p) => p.trim());

  async function update() {
    save();
    result = null;
    if (named()) {
      try {
        result = await api("/api/companion/standings", { ...sheet, players: sheet.players.map((p) => p.trim()) });
        say("");
      } catch (error) { say(error.message); }
    }
    render();
  }

  function render() {
    const players = sheet.players;
    const setup = el("section", { class: "panel", "aria-labelledby": "sheet-title" },
      el("h1", { id: "sheet-title", text: "Score sheet for a game with real cards" }),
      el("label", {}, "Rules ", el("select", { id: "sheet-preset", onchange: (e) => { sheet.preset = e.target.value; update(); } },
        Object.keys(presets.presets).map((p) => el("option", { value: p, text: p, selected: p === sheet.preset })))),
      el("ol", { class: "players" }, players.map((name, i) => el("li", {},
        el("input", { "aria-label": `Player ${i + 1}'s name`, class: "player-name", value: name, maxlength: 24,
          onchange: (e) => { sheet.players[i] = e.target.value; update(); } }),
        players.length > 2 && !sheet.hands.length && el("button", { type: "button", "aria-label": `Remove player ${i + 1}`,
          onclick: () => { sheet.players.splice(i, 1); update(); } }, "✕")))),
      players.length < 6 && !sheet.hands.length && el("button", { type: "button", id: "add-player",
        onclick: () => { sheet.players.push(""); render(); } }, "Add a player"),
      el("button", { type: "button", id: "new-sheet", onclick: () => { if (confirm("Start a new sheet?")) { sheet = { ...sheet, hands: [], tie_break_winner: null }; update(); } } }, "New game"));
    const sequence = result?.phase_sequence ?? [];
    const table = el("table", { class: "sheet" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Hand" }), players.map((p) => el("th", { scope: "col", text: p || "?" })))),
      el("tbody", {}, sheet.hands.map((hand, h) => el("tr", {}, el("th", { scope: "row", text: String(h + 1) }),
        hand.map((entry, i) => el("td", {},
          el("input", { type: "number", min: 0, max: 1000, value: entry.points, class: "points", "aria-label": `Hand ${h + 1}, ${players[i]}'s points`,
            onchange: (e) => { entry.points = Number(e.target.value) || 0; update(); } }),
          el("label", {}, el("input", { type: "checkbox", checked: entry.phase, "aria-label": `Hand ${h + 1}, ${players[i]} made the phase`,
            onchange: (e) => { entry.phase = e.target.checked; update(); } }), " phase"),
          el("input", { class: "left", placeholder: "cards left, e.g. R7 W S", "aria-label": `Hand ${h + 1}, ${players[i]}'s cards left: count their points`,
            onchange: async (e) => {
              try { entry.points = (await api("/api/companion/points", { cards: e.target.value })).points; update(); }
              catch (error) { say(error.message); }
            } })))))),
      result && el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: "Total" }),
        result.players.map((p) => el("td", { class: "total", text: `${p.total} · ${p.phase ? `phase ${p.phase}: ${sequence[p.phase - 1]}` : "all phases done"}` })))));
    const outcome = result?.outcome;
    const over = outcome && outcome.winners.length;
    const add = el("button", { type: "button", id: "add-hand", disabled: !named() || over,
      onclick: () => { sheet.hands.push(players.map(() => ({ points: 0, phase: false }))); update(); } }, "Add a hand");
    const verdict = !outcome ? null : over
      ? el("p", { id: "sheet-winner", class: "results", role: "status", text: `${outcome.winner_names.join(" and ")} won: ${outcome.reason}.` })
      : el("div", { class: "results", role: "status" },
        el("p", { text: `Tied: ${outcome.tie_break.map((p) => players[p]).join(" and ")} play a tie-break hand on the last phase. Who went out first?` }),
        outcome.tie_break.map((p) => el("button", { type: "button", onclick: () => { sheet.tie_break_winner = p; update(); } }, players[p])));
    main.replaceChildren(setup, el("section", { class: "panel", "aria-label": "Hands" }, table, add, verdict));
  }
  await update();
}
