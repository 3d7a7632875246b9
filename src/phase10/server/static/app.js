// The browser client: one page, drawn by the path.
import { api, el, initColourBlind, say } from "./cards.js";

const main = document.getElementById("main");

async function lobby() {
  document.title = "Phase 10 — new table";
  const presets = await api("/api/presets");
  const form = el("form", { class: "panel", "aria-labelledby": "new-title" },
    el("h1", { id: "new-title", text: "A new table" }),
    el("label", {}, "Your name ", el("input", { name: "name", required: true, maxlength: 24, autocomplete: "nickname" })),
    el("label", {}, "Game ", el("select", { name: "kind", id: "kind" },
      el("option", { value: "cards", text: "Phase 10 (cards)" }), el("option", { value: "dice", text: "Phase 10 Dice" }))),
    el("label", {}, "Players (empty seats get bots) ", el("select", { name: "seats", id: "seats" },
      el("option", { value: 1, text: "1 (solitaire)", class: "dice-only", hidden: true, disabled: true }),
      [2, 3, 4, 5, 6].map((n) => el("option", { value: n, text: String(n), selected: n === 2 })))),
    el("label", { class: "cards-only" }, "Rules ", el("select", { name: "preset" },
      Object.entries(presets.presets).map(([name, note]) => el("option", { value: name, text: `${name} — ${note}` })))),
    el("label", { class: "cards-only" }, "Bots for empty seats ", el("select", { name: "bots" },
      presets.bots.map((b) => el("option", { value: b.spec, text: b.label, selected: b.spec === presets.bot })))),
    el("label", { class: "dice-only", hidden: true }, "Dice bots for empty seats ", el("select", { name: "dice_bots", id: "dice-bots" },
      presets.dice_bots.map((b) => el("option", { value: b.spec, text: b.label, selected: b.spec === presets.dice_bot })))),
    el("label", {}, "Turn timer (seconds, 0 for none) ",
      el("input", { name: "turn_seconds", type: "number", min: 0, max: 600, value: 0 })),
    el("label", {}, "A bot plays for a player who is away this many seconds (0: never) ",
      el("input", { name: "away_seconds", type: "number", min: 0, max: 3600, value: 60 })),
    el("label", { class: "check" }, el("input", { name: "public", type: "checkbox" }),
      " List the table on this page, for anyone to join (otherwise only people with the invite link find it)"),
    el("details", { class: "cards-only" }, el("summary", { text: "Rules options" }),
      // each option as the server words it (labels); its word is what is sent
      Object.entries(presets.options).map(([name, values]) => el("label", {}, `${presets.labels[name]?.label ?? name} `,
        el("select", { name: `opt:${name}` }, el("option", { value: "", text: "(as the preset has it)" }),
          values.map((v) => el("option", { value: v, text: presets.labels[name]?.values[v] ?? v }))))),
      el("label", {}, "Seed (optional: the same seed deals the same cards; a table with a seed is for you and bots only, since you could know every hand) ",
        el("input", { name: "seed", type: "number", min: 0 }))),
    el("button", { type: "submit", id: "create" }, "Create the table"));
  // Phase 10 Dice has no card rules, presets or card bots: their fields are hidden, its own bots shown
  const kind = form.querySelector("#kind");
  kind.addEventListener("change", () => {
    for (const field of form.querySelectorAll(".cards-only")) field.hidden = kind.value === "dice";
    // (a hidden option is disabled too: some phones list hidden options all the same)
    for (const field of form.querySelectorAll(".dice-only")) {
      field.hidden = kind.value !== "dice";
      if (field.tagName === "OPTION") field.disabled = field.hidden;
    }
    const seats = form.querySelector("#seats");
    if (kind.value !== "dice" && seats.value === "1") seats.value = "2";  // solitaire is dice only
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const options = {};
    for (const [key, value] of data.entries()) {
      if (key.startsWith("opt:") && value) options[key.slice(4)] = value;
    }
    const seed = data.get("seed") ? Number(data.get("seed")) : null;
    // sent only when changed: 60 is the server's own default
    const away = Number(data.get("away_seconds")) === 60 ? {} : { away_seconds: Number(data.get("away_seconds")) };
    const dice = data.get("kind") === "dice";
    const game = dice ? { kind: "dice", bots: data.get("dice_bots") } : { preset: data.get("preset"), bots: data.get("bots"), options, seed };
    try {
      const seat = await api("/api/tables", {
        name: data.get("name"), seats: Number(data.get("seats")), turn_seconds: Number(data.get("turn_seconds")),
        public: data.get("public") === "on", ...game, ...away,
      });
      localStorage.setItem(`phase10:${seat.table}`, seat.token);
      location.assign(seat.link);
    } catch (error) { say(error.message); }
  });
  const waiting = await api("/api/tables");
  const list = el("section", { class: "panel", "aria-labelledby": "open-title" },
    el("h2", { id: "open-title", text: "Public tables waiting for players" }),
    waiting.tables.length ? el("ul", {}, waiting.tables.map((t) => el("li", {},
      el("a", { href: `/t/${t.id}` }, `${t.seats.map((s) => s.name || "open").join(", ")} (${t.options.kind === "dice" ? "Phase 10 Dice" : t.options.preset})`))))
      : el("p", { text: "None right now." }));
  main.replaceChildren(form, list);
  form.querySelector("input").focus();
}

async function route() {
  initColourBlind();
  const path = location.pathname;
  const id = path.split("/")[2]; // a table's or a finished game's, in /t/ID and /replay/ID
  try {
    if (path.startsWith("/t/") && id) (await import("./table.js")).tablePage(main, id);
    else if (path === "/history") (await import("./history.js")).historyPage(main);
    else if (path.startsWith("/replay/") && id) (await import("./replay.js")).replayPage(main, id);
    else if (path === "/companion") (await import("./companion.js")).companionPage(main);
    else if (path !== "/") (await import("./dead.js")).deadPage(main, { title: "There is no such page",
      text: `Nothing is found at “${path}”. The address may be mistyped.` });
    else await lobby();
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", text: error.message }));
  }
}

route();
