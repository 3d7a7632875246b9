#!/usr/bin/env node
// A Phase 10 bot in Node.js, written from docs/bot-protocol.md alone: no dependencies.
//
//   phase10 tournament --bots "cmd:node examples/bots/node/bot.js",greedy
//   phase10 protocol-test node examples/bots/node/bot.js
//
// It reads one JSON message per line on stdin and writes one per line on stdout. Its
// play: lay down when it can (the longest lay-down listed), hit when it can, take the
// top discard when it pairs with a card in hand, and discard its highest card (a Skip
// first, a Wild never while another card is left). Logs go to stderr.
"use strict";

const readline = require("readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const log = (text) => process.stderr.write(`node-bot: ${text}\n`);

// "R7" -> 7, "W" -> 25 (keep), "S" -> 15 (discard first)
function cardValue(card) {
  if (card === "W") return -1;
  if (card.startsWith("S")) return 100;
  return Number(card.slice(1));
}

function choose(turn) {
  const legal = turn.legal;
  const view = turn.view;
  const of = (verb) => legal.filter((action) => action.startsWith(verb + " ") || action === verb);
  switch (view.stage) {
    case "declare":
      // the lowest phase it may name
      return of("declare").sort((a, b) => Number(a.split(" ")[1]) - Number(b.split(" ")[1]))[0];
    case "give_wild":
      return of("give")[0];
    case "draw": {
      const pile = view.discard_pile.split(" ").filter(Boolean);
      const top = pile[pile.length - 1];
      const hand = view.hand.split(" ");
      const pairs = top && top !== "S" && hand.some((card) => card !== "W" && card.slice(1) === top.slice(1));
      if ((top === "W" || pairs) && legal.includes("take")) return "take";
      return legal.includes("draw") ? "draw" : legal[0];
    }
    default: {
      const lays = of("lay");
      if (lays.length) return lays.reduce((best, lay) => (lay.length > best.length ? lay : best));
      const hits = of("hit");
      if (hits.length) return hits[0];
      const discards = of("discard");
      if (!discards.length) return legal[0];
      const card = (action) => action.split(" ")[1].split(">")[0];
      return discards.reduce((best, action) => (cardValue(card(action)) > cardValue(card(best)) ? action : best));
    }
  }
}

let lastTurn = null;
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    log(`ignoring a line that is not JSON: ${line.slice(0, 80)}`);
    return;
  }
  switch (message.type) {
    case "hello":
      send({ type: "ready", name: "node-example", author: "phase10 examples", protocol: 1 });
      break;
    case "turn":
      lastTurn = message;
      send({ action: choose(message) });
      break;
    case "error":
      log(`refused: ${message.message} (${message.code})`);
      if (message.attempts_left > 0 && lastTurn) send({ action: lastTurn.legal[0] });
      break;
    case "quit":
      input.close();
      process.exit(0);
      break;
    default:
      break; // game_over, and any message type this bot does not know
  }
});
input.on("close", () => process.exit(0));
