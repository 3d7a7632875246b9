// Your buttons: exactly the choices of the server's `legal` block, with its labels.
import { html, sentence, useLayoutEffect, useRef } from "./ui.js";

function Key({ k }) {
  return html`<kbd aria-hidden="true">${k}</kbd>`;
}

function Button({ id, onClick, label, k = null, primary = false, disabled = false }) {
  return html`<button type="button" id=${id} class=${primary ? "primary" : ""} disabled=${disabled}
    aria-keyshortcuts=${k} onClick=${onClick}>${label}${k && html` <${Key} k=${k} />`}</button>`;
}

// A hint or a choice just opened is brought into sight (on a phone it may open below the fold).
function useShown(value) {
  const ref = useRef(null);
  useLayoutEffect(() => {
    if (value) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [value]);
  return ref;
}

export function Actions({ client }) {
  const legal = client.legal;
  const choicesRef = useShown(client.choices);
  const hintRef = useShown(client.hint);
  if (!legal) return null;
  const selected = client.selectedTokens();
  const one = selected.length === 1 ? selected[0] : null;
  // the primary button: the hint's first step while a hint is open, else draw, lay, discard
  const advised = client.hint ? client.advised : null;
  const primary = (kind, usual) => (advised ? advised === kind : usual);
  const buttons = [];
  if (legal.turn) {
    for (const d of legal.draw) {
      const draw = d.action === "draw";
      buttons.push(html`<${Button} key=${d.action} id=${draw ? "act-draw" : "act-take"} label=${d.label}
        k=${draw ? "d" : "t"} primary=${primary(d.action, draw)} onClick=${() => client.act(d.action)} />`);
    }
    for (const d of legal.declare) {
      buttons.push(html`<${Button} key=${d.action} id=${`declare-${d.phase}`} label=${d.label}
        k=${String(d.phase % 10)} onClick=${() => client.act(d.action)} />`);
    }
    for (const g of legal.give) {
      buttons.push(html`<${Button} key=${g.action} id=${`give-${g.seat}`} label=${g.label}
        k=${String(g.seat + 1)} onClick=${() => client.act(g.action)} />`);
    }
    if (legal.lay.total) {
      const label = selected.length > 1 ? `Lay down these ${selected.length} cards` : "Lay down your phase";
      buttons.push(html`<${Button} key="lay" id="act-lay" label=${label} k="l" primary=${primary("lay", true)} onClick=${() => client.lay()} />`);
    }
    if (legal.hits.length) {
      buttons.push(html`<${Button} key="hit" id="act-hit" label=${one ? `Hit ${one}` : "Hit"} k="h"
        primary=${primary("hit", false)} onClick=${() => client.hit()} />`);
    }
    if (legal.discards.length || legal.skips.length || legal.anti.length) {
      const only = client.discardable();
      const card = only.length === 1 ? only[0] : null;
      const anti = legal.anti.filter((a) => a.card === card);
      const entry = card && (legal.discards.find((d) => d.card === card)
        ?? (legal.skips.some((s) => s.card === card) ? { label: "Discard the Skip" } : null)
        ?? (anti.length === 1 ? anti[0] : anti.length ? { label: "Go out with the Anti-phase card…" } : null));
      buttons.push(html`<${Button} key="discard" id="act-discard" label=${entry ? entry.label : "Discard"} k="x"
        primary=${primary("discard", !legal.lay.total)} onClick=${() => client.discard()} />`);
    }
    // save piles (rules save_pile): the selected card goes on your save pile instead of the discard pile
    if (legal.saves.length) {
      const entry = one && legal.saves.find((e) => e.card === one);
      buttons.push(html`<${Button} key="save" id="act-save" label=${entry ? entry.label : "Save a card"} k="v"
        onClick=${() => client.save()} />`);
    }
    // a saved card back instead of drawing: one button per card the server allows
    for (const t of legal.take_saved) {
      buttons.push(html`<${Button} key=${t.action} id=${`take-saved-${t.card}`} label=${t.label}
        onClick=${() => client.act(t.action)} />`);
    }
    // giving up a laid phase (Masters Variant #2) is asked again before it is sent
    for (const g of legal.give_up) {
      buttons.push(html`<${Button} key="give-up" id="act-give-up" label=${`${g.label}…`}
        onClick=${() => client.giveUp(g)} />`);
    }
    buttons.push(html`<${Button} key="hint" id="act-hint" label="Hint" k="?" onClick=${() => client.send({ type: "hint" })} />`);
  }
  const choices = client.choices;
  return html`<div class="actions-panel">
    ${client.warning && html`<p id="warning" class="warning">${client.warning}</p>`}
    <div class="actions" role="group" aria-label="Actions">
      ${buttons}
    </div>
    ${choices && html`<div id="choices" class="choices" role="group" aria-labelledby="choices-title" ref=${choicesRef}>
      <p id="choices-title">${choices.title}</p>
      ${choices.items.map((c) => html`<button type="button" key=${c.action} class="choice" data-action=${c.action}
        onClick=${() => client.act(c.action)}>${c.label}${client.hinted?.has(c.action) && html` <span class="badge hinted">the hint's</span>`}</button>`)}
      <button type="button" class="small" id="choices-cancel" onClick=${() => client.cancelChoices()}>Cancel</button>
    </div>`}
    ${client.hint && html`<div class="hint" role="note" aria-label="Hint" ref=${hintRef}><pre>${client.hint.split("\n").map(sentence).join("\n")}</pre>
      ${client.hintSteps?.[0]?.cards.length > 0 && html`<button type="button" class="small" id="hint-select" aria-keyshortcuts="a" onClick=${() => client.applyHint()}>Select its cards <${Key} k="a" /></button>`}
      <button type="button" class="small" onClick=${() => { client.hint = null; client.draw(); }}>Close the hint</button></div>`}
  </div>`;
}
