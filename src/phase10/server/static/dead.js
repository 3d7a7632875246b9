// A link that leads nowhere (no such table or replay, a seat link that no longer works, a
// table the server closed): say so plainly and offer a way on, never "Loading…" forever.
import { el } from "./cards.js";

export function deadPage(main, { title, text, watch = null }) {
  document.title = `Phase 10 — ${title}`;
  const ways = [
    watch && el("li", {}, el("a", { href: `/t/${watch}`, id: "dead-watch" }, "Watch this table as a spectator")),
    el("li", {}, el("a", { href: "/", id: "dead-home" }, "Start a new table")),
    el("li", {}, el("a", { href: "/history" }, "See the finished games")),
  ];
  main.replaceChildren(el("section", { class: "panel dead", "aria-labelledby": "dead-title" },
    el("h1", { id: "dead-title", text: title }),
    el("p", { text }),
    el("ul", { class: "ways" }, ways.filter(Boolean))));
  main.querySelector("h1").setAttribute("tabindex", "-1");
  main.querySelector("h1").focus();
}
