// Finished games and the replay viewer.
import { api, cardFace, el, groupCards, groupInfo, hands } from "./cards.js";

export async function historyPage(main) {
  document.title = "Phase 10 — history";
  const { games } = await api("/api/history");
  main.replaceChildren(el("section", { class: "panel", "aria-labelledby": "history-title" },
    el("h1", { id: "history-title", text: "Finished games" }),
    games.length ? el("table", { class: "history" },
      el("thead", {}, el("tr", {}, ["Finished", "Players", "Winner", "Totals", ""].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, games.map((g) => el("tr", {},
        el("td", { text: new Date(g.finished * 1000).toLocaleString() }), el("td", { text: g.players.join(", ") }),
        el("td", { text: g.winners.join(", ") }), el("td", { text: g.totals.join(" / ") }),
        el("td", {}, el("a", { href: `/replay/${g.id}` }, "Replay"))))))
      : el("p", { text: "No finished game yet." })));
}

export async function replayPage(main, id) {
  document.title = `Phase 10 — replay ${id}`;
  let step = 0;
  let total = 0;
  async function show(to) {
    const frame = await api(`/api/records/${id}/replay?step=${Math.max(0, to)}`);
    step = frame.step;
    total = frame.total;
    const view = frame.view;
    const nav = (label, target, key) => el("button", { type: "button", "aria-keyshortcuts": key, onclick: () => show(target) }, label);
    main.replaceChildren(el("section", { class: "panel", "aria-labelledby": "replay-title" },
      el("h1", { id: "replay-title", text: `Replay of game ${id}` }),
      el("p", { id: "replay-step", role: "status", text: `Action ${step} of ${total}${frame.action ? `: ${view.seats[(view.history.at(-1)?.player ?? 0)]?.name ?? ""} ${frame.action}` : ""}` }),
      el("div", { class: "actions" }, nav("« Start", 0, "Home"), nav("◀ Back", step - 1, "ArrowLeft"),
        nav("Next ▶", step + 1, "ArrowRight"), nav("End »", total, "End")),
      el("table", { class: "seats" }, el("tbody", {}, view.seats.map((s, i) => el("tr", { class: i === view.current ? "current" : "" },
        el("th", { scope: "row", text: `${i === view.current ? "▶ " : ""}${s.name}` }),
        el("td", { text: `phase ${s.phase}, ${s.score} points` }),
        el("td", {}, el("span", { class: "cards", "aria-label": `${s.name}'s hand` }, hands(frame.hands[i]).map((t) => cardFace(t)))))))),
      el("h2", { text: "Groups" }),
      el("ul", { class: "melds" }, view.melds.map((m, gid) => el("li", {}, `g${gid} ${view.seats[m.owner].name} · ${groupInfo(m.group).caption} `, groupCards(m)))),
      el("p", {}, "Discard: ", view.discard_pile ? cardFace(view.discard_pile.split(" ").at(-1)) : "(empty)", ` · draw pile ${view.draw_size}`),
      el("ol", { class: "log" }, frame.log.filter((l) => l.trim()).slice(-15).map((l) => el("li", { text: l.trim() })))));
  }
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select")) return;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total };
    if (event.key in moves) { event.preventDefault(); show(Math.min(total, moves[event.key])); }
  });
  await show(0);
}
