// The finished games, each with its replay (replay.js).
import { api, el } from "./cards.js";

export async function historyPage(main) {
  document.title = "Phase 10 — history";
  const { games } = await api("/api/history");
  main.replaceChildren(el("section", { class: "panel", "aria-labelledby": "history-title" },
    el("h1", { id: "history-title", text: "Finished games" }),
    games.length ? el("table", { class: "history" },
      el("thead", {}, el("tr", {}, ["Finished", "Players", "Winner", "Totals", ""].map((h) => el("th", { scope: "col", text: h })))),
      // (each cell names its column, for a phone, where a game is a card of lines)
      el("tbody", {}, games.map((g) => el("tr", {},
        el("td", { "data-label": "Finished", text: new Date(g.finished).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) }),
        el("td", { "data-label": "Players", text: g.players.join(", ") }),
        el("td", { "data-label": "Winner", text: g.winner_names.join(", ") }), el("td", { "data-label": "Totals", text: g.players.map((name, i) => `${name} ${g.totals[i]}`).join(", ") }),
        el("td", {}, g.kind === "dice" ? el("a", { href: `/api/records/${g.id}` }, "Dice record")
          : el("span", { class: "actions" }, el("a", { href: `/replay/${g.id}` }, "Replay"),
            el("a", { href: `/replay/${g.id}#review`, "aria-label": `Review game ${g.id}` }, "Review")))))))
      : el("p", { text: "No finished game yet." })));
}
