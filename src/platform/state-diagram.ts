/**
 * Part 3's machines drawn for the interface page and the API reference: one inline SVG
 * each, rendered on the server, with presentation attributes only (no script, no style
 * attribute), so the pages' Content-Security-Policy (`default-src 'none'; style-src
 * 'self'`) holds. States stand in a row in the order they are reached from the initial
 * one; a transition forward arcs above the row, one backward below, each labelled with its
 * trigger.
 */
import type { StateMachine } from "../contract-language/contract";
import { html, joinHtml, type SafeHtml } from "./html";

const BOX_WIDTH = 120;
const BOX_HEIGHT = 36;
const GAP = 56;
const STEP = BOX_WIDTH + GAP;
const LANE = 26;

/** States in the order a walk from the initial state reaches them. */
function ordered(machine: StateMachine): string[] {
  const order = [machine.initial];
  for (let i = 0; i < order.length; i += 1)
    for (const t of machine.transitions)
      if (t.from === order[i] && !order.includes(t.to)) order.push(t.to);
  return [...order, ...machine.states.filter((s) => !order.includes(s))];
}

function machineDiagram(name: string, machine: StateMachine): SafeHtml {
  const states = ordered(machine);
  const at = new Map(states.map((s, i) => [s, i]));
  const edges = machine.transitions.filter((t) => t.from !== t.to);
  const distance = (t: { from: string; to: string }) => (at.get(t.to) ?? 0) - (at.get(t.from) ?? 0);
  // Room above the row for the longest forward arc, below it for the longest backward one.
  const up = Math.max(0, ...edges.map(distance));
  const down = Math.max(0, ...edges.map((t) => -distance(t)));
  const top = 24 + up * LANE;
  const height = top + BOX_HEIGHT + down * LANE + 24;
  const width = 40 + states.length * STEP;
  const x = (state: string) => 40 + (at.get(state) ?? 0) * STEP;
  const parts: SafeHtml[] = [];
  parts.push(
    html`<defs><marker id="arrow-${name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>`,
  );
  const marker = html`url(#arrow-${name})`;
  // The initial state: a dot with an arrow into it.
  parts.push(
    html`<circle cx="12" cy="${top + BOX_HEIGHT / 2}" r="5" fill="currentColor"/>`,
    html`<line x1="17" y1="${top + BOX_HEIGHT / 2}" x2="38" y2="${top + BOX_HEIGHT / 2}" stroke="currentColor" marker-end="${marker}"/>`,
  );
  for (const t of edges) {
    const from = at.get(t.from) ?? 0;
    const to = at.get(t.to) ?? 0;
    const forward = to > from;
    const lift = Math.abs(to - from) * LANE;
    const y = forward ? top : top + BOX_HEIGHT;
    const curve = forward ? y - lift * 2 : y + lift * 2;
    const x1 = x(t.from) + BOX_WIDTH / 2 + (forward ? 12 : -12);
    const x2 = x(t.to) + BOX_WIDTH / 2 + (forward ? -12 : 12);
    parts.push(
      html`<path d="M${x1},${y} Q${(x1 + x2) / 2},${curve} ${x2},${y}" fill="none" stroke="currentColor" marker-end="${marker}"><title>${`${t.from} → ${t.to} on ${t.trigger}`}</title></path>`,
      html`<text x="${(x1 + x2) / 2}" y="${forward ? y - lift - 4 : y + lift + 12}" text-anchor="middle" font-size="12" fill="currentColor">${t.trigger}</text>`,
    );
  }
  for (const state of states) {
    const initial = state === machine.initial;
    parts.push(
      html`<rect x="${x(state)}" y="${top}" width="${BOX_WIDTH}" height="${BOX_HEIGHT}" rx="8" fill="none" stroke="currentColor" stroke-width="${initial ? 2 : 1}"/>`,
      html`<text x="${x(state) + BOX_WIDTH / 2}" y="${top + BOX_HEIGHT / 2 + 4}" text-anchor="middle" font-size="13" fill="currentColor">${state}</text>`,
    );
  }
  const label = `State machine ${name} of ${machine.resource}: ${machine.transitions
    .map((t) => `${t.from} to ${t.to} on ${t.trigger}`)
    .join("; ")}`;
  return html`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts}</svg>`;
}

/** The interface page's part 3 section: each machine's table of transitions and its diagram. */
export function statesSection(machines: Readonly<Record<string, StateMachine>>): SafeHtml {
  const entries = Object.entries(machines);
  if (entries.length === 0) return html``;
  const blocks = entries.map(([name, machine]) => {
    const rows = joinHtml(
      machine.transitions.map(
        (t) =>
          html`<tr><td><code>${t.from}</code></td><td><code>${t.trigger}</code></td><td><code>${t.to}</code></td></tr>`,
      ),
      "\n",
    );
    const field = machine.field ? html`, field <code>${machine.field}</code>` : "";
    return html`<h3><code>${name}</code> (resource <code>${machine.resource}</code>${field}; initial <code>${machine.initial}</code>)</h3>
<figure>${machineDiagram(name, machine)}</figure>
<table>
<thead><tr><th>From</th><th>Trigger</th><th>To</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  });
  return html`<h2>States (part 3)</h2>\n${joinHtml(blocks, "\n")}\n`;
}
