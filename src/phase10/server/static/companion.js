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
    // (a change is told as its field loses focus: let the focus reach the next field, Tab's
    // or a click's, before the sheet is drawn again, so that it is the one kept)
    await new Promise((resolve) => setTimeout(resolve));
    result = null;
    if (named()) {
      try {
        // (the cards typed for a count stay on the sheet, not in what is sent)
        const hands = sheet.hands.map((hand) => hand.map(({ points, phase }) => ({ points, phase })));
        result = await api("/api/companion/standings", { ...sheet, hands, players: sheet.players.map((p) => p.trim()) });
        say("");
      } catch (error) { say(error.message); }
    }
    render();
  }

  // The sheet is drawn afresh after each change (and again when the server's totals come):
  // the field being typed in keeps its focus, its text and its cursor, and the sheet where
  // it was scrolled to.
  function render() {
    const active = main.contains(document.activeElement) ? document.activeElement : null;
    const label = active?.getAttribute("aria-label") || active?.id || null;
    const typed = active?.tagName === "INPUT" && active.type !== "checkbox"
      ? { value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
    const across = main.querySelector(".scroll-x")?.scrollLeft ?? 0;
    draw();
    const region = main.querySelector(".scroll-x");
    if (region) region.scrollLeft = across;
    if (!label) return;
    const again = [...main.querySelectorAll("[aria-label], [id]")]
      .find((node) => (node.getAttribute("aria-label") || node.id) === label);
    if (!again) return;
    if (typed && again.tagName === "INPUT") {
      again.value = typed.value;
      try { again.setSelectionRange(typed.start, typed.end); } catch { /* (a number field has no cursor to set) */ }
    }
    again.focus();
  }

  // points as typed: a whole number from 0 to 1000, or why not (nothing is sent)
  function readPoints(text, where) {
    const points = Number(text);
    if (text.trim() !== "" && Number.isInteger(points) && points >= 0 && points <= 1000) return points;
    say(`${where}: points are a whole number from 0 to 1000, not ${text.trim() ? `"${text.trim()}"` : "nothing"}.`);
    return null;
  }

  function draw() {
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
            onchange: (e) => {
              const points = readPoints(e.target.value, `Hand ${h + 1}, ${players[i]}`);
              if (points !== null) { entry.points = points; update(); }
            } }),
          el("label", {}, el("input", { type: "checkbox", checked: entry.phase, "aria-label": `Hand ${h + 1}, ${players[i]} made the phase`,
            onchange: (e) => { entry.phase = e.target.checked; update(); } }), " phase"),
          el("input", { class: "left", placeholder: "left: R7 W S", value: entry.left ?? "", "aria-label": `Hand ${h + 1}, ${players[i]}'s cards left: count their points`,
            onchange: async (e) => {
              entry.left = e.target.value;
              try { entry.points = (await api("/api/companion/points", { cards: e.target.value })).points; update(); }
              catch (error) { say(`Hand ${h + 1}, ${players[i]}'s cards left: ${error.message}.`); }
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
    // (wider than a phone with three players or more: the sheet scrolls sideways on its own)
    const scroll = el("div", { class: "scroll-x", tabindex: 0, role: "region", "aria-label": "The sheet, hand by hand" }, table);
    main.replaceChildren(setup, el("section", { class: "panel", "aria-label": "Hands" }, scroll, add, verdict));
  }
  await update();
}
