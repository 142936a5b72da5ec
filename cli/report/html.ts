/**
 * The HTML report: one self-contained file (inline styles and SVG, no script, no network) that
 * opens from disk. Everything from the session is untrusted text and is escaped; the numbers are
 * also embedded as JSON in an inert data block for tools.
 */
import type { Simulation } from "../simulate/index.js";
import type { Anatomy, CliffDetail } from "./data.js";
import type { CliffCostRow } from "../simulate/index.js";
import { heldHtml, neededHtml, profilesHtml, type ProfileRun } from "./recall.js";
import { dollarFormat, gainLine, thresholdNote, tightLine, verdictLine } from "../simulate/index.js";
import { messageHtml } from "./conversation.js";
import type { SameCliffs } from "./same-cliffs.js";
import { shortNumber } from "../simulate/index.js";
import { n } from "../table.js";
import { esc, inertJson } from "./escape.js";

export interface ReportInput {
  file: string;
  format: string;
  dialect: string;
  note?: string;
  messages: number;
  threshold: number;
  sim: Simulation;
  chartSvg: string;
  anatomy: Anatomy;
  cliffs: CliffDetail[];
  files: { read: string[]; modified: string[] };
  /** Per cliff (same order as `cliffs`): what the next turns needed that it dropped. */
  costs: CliffCostRow[];
  /** The session under each profile. */
  profiles: ProfileRun[];
  /** The profile the report's own replay ran under. */
  profile: string;
  /** Both profiles at the report's own cliffs, on one denominator. */
  same: SameCliffs;
  /** Where the threshold came from, and whether the report chose it (no --threshold). */
  why: string;
  chosen: boolean;
}

// Session text can be one long token (a JSON line, a path, a base64 blob): every box wraps it or
// scrolls it inside itself, so the page never grows sideways and a cliff's two columns keep their
// shares at any width (one column on a phone).
const STYLE = `*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}table{border-collapse:collapse}td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child{text-align:left}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;padding:8px;max-height:420px;overflow:auto;font-size:12px}
code{overflow-wrap:anywhere}table{display:block;max-width:100%;overflow-x:auto}#chart{overflow-x:auto}#chart svg{max-width:100%;height:auto}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}.cols>div{min-width:0}
@media (max-width:700px){body{margin:12px auto;padding:0 10px}.cols{grid-template-columns:minmax(0,1fr)}}.bar{display:flex;height:26px;border-radius:4px;overflow:hidden;margin:8px 0}
.bar span{display:block}.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;vertical-align:middle}details{margin:10px 0;border:1px solid #ddd;border-radius:6px;padding:6px 10px}
summary{cursor:pointer;font-weight:600}.muted{color:#777}li{margin:2px 0}
#headline{font-size:16px;background:#f3f7ff;border-left:4px solid #2563eb;padding:8px 12px}
.kept{max-height:640px;overflow:auto;border:1px solid #eee;padding:4px 8px}.msg{border-bottom:1px solid #eee;padding:6px 0;min-width:0}
.who{font-size:12px;color:#555;font-weight:600}.msg-text{white-space:pre-wrap;overflow-wrap:anywhere}.call code{font-size:12px;overflow-wrap:anywhere}
.role-assistant .who{color:#2563eb}.role-tool .who{color:#b45309}details.result,details.raw,details.more{border:0;padding:0;margin:2px 0}
details.result>summary,details.raw>summary,details.more>summary{font-weight:400;font-size:12px;color:#555}
@media (max-width:700px){td,th{padding:3px 5px;font-size:12px}}`;

const CLASSES: [keyof Anatomy, string, string][] = [
  ["toolResults", "tool results", "#f59e0b"], ["toolCalls", "tool calls", "#10b981"], ["assistantText", "assistant text", "#2563eb"],
  ["humanText", "human text", "#8b5cf6"], ["images", "images", "#ef4444"],
];

function anatomyHtml(a: Anatomy): string {
  const total = Math.max(1, CLASSES.reduce((s, [k]) => s + a[k], 0));
  const bar = CLASSES.map(([k, , color]) => `<span class="anatomy-${k}" style="width:${((100 * a[k]) / total).toFixed(2)}%;background:${color}" title="${esc(String(a[k]))}"></span>`).join("");
  const key = CLASSES.map(([k, label, color]) => `<span style="background:${color}"></span>${label} ${n(a[k])} (${((100 * a[k]) / total).toFixed(1)}%)`).join("");
  return `<div class="bar" id="anatomy">${bar}</div><div class="key">${key}</div>`;
}

// The columns a reader needs first come first, so at a phone's width they are the ones on screen.
function billingHtml(sim: Simulation, profile: string): string {
  const dollars = dollarFormat([sim.cliff.dollars, sim.none.dollars, sim.llm.dollars]);
  const usd = (b: Simulation["cliff"]): string => (sim.priced ? `<td>${dollars(b.dollars)}</td>` : "");
  const row = (name: string, b: Simulation["cliff"]): string => `<tr><td>${name}</td>${usd(b)}<td>${n(Math.round(b.billed))}</td><td>${n(Math.round(b.cached))}</td><td>${n(Math.round(b.input))}</td></tr>`;
  const extra = sim.llm.extraCalls > 0 ? ` The LLM summary's row adds its ${n(sim.llm.extraCalls)} summary call(s): ${n(sim.llm.extraOutput)} output tokens${sim.priced ? ", in its dollars" : ""}.` : "";
  return `<table id="billing"><tr><th></th>${sim.priced ? "<th>dollars</th>" : ""}<th>billed</th><th>cached</th><th>sent</th></tr>${row(`cliffcompaction (${esc(profile)} profile)`, sim.cliff)}${row("no compaction", sim.none)}${row("LLM summary, same cliffs", sim.llm)}</table>
<p class="muted">Input tokens over the whole session, as <code>simulate</code> bills them; cached input billed at ${sim.cacheDiscount}×${sim.priced ? "; dollars at the model's list prices" : ""}.${extra}</p>`;
}

/** What the session saved, in one sentence, or why nothing was compacted and a threshold that would show cliffs. */
function headline(r: ReportInput): string {
  const note = thresholdNote(r.sim, r.threshold, { why: r.why, chosen: r.chosen });
  if (note !== null) {
    const text = note.replace(/^note\s+/, "");
    return `<p id="headline">${esc(text.charAt(0).toUpperCase() + text.slice(1))}</p>`;
  }
  const verdict = verdictLine(r.sim) ?? "";
  return `<p id="headline">${esc(verdict)} ${esc(`${n(r.sim.cliffs)} cliff${r.sim.cliffs === 1 ? "" : "s"} at a threshold of ${n(r.threshold)} tokens, over ${n(r.sim.steps.length)} requests.`)}</p>`;
}

function listHtml(items: string[], empty: string): string {
  return items.length === 0 ? `<p class="muted">${empty}</p>` : `<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`;
}

/** A list folded under its count. */
function foldedList(title: string, items: string[], empty: string): string {
  return items.length === 0 ? `<h3>${title} (0)</h3><p class="muted">${empty}</p>` : `<details class="more"><summary>${title} (${n(items.length)})</summary>${listHtml(items, empty)}</details>`;
}

function cliffHtml(c: CliffDetail, i: number, cost: CliffCostRow | undefined): string {
  const kept = [...c.head.map((m, k) => messageHtml(m, `head ${k + 1}`)), ...c.tail.map((m, k) => messageHtml(m, `tail ${k + 1}`))];
  const dropped = c.dropped.map((d) => `${n(d.chars)} chars, from <code>${esc(d.call || "(no call seen)")}</code>`);
  const files = [...c.files.read.map((p) => `read <code>${esc(p)}</code>`), ...c.files.modified.map((p) => `modified <code>${esc(p)}</code>`)];
  return `<details id="cliff-${i + 1}"><summary>Cliff ${i + 1} at request ${c.step + 1}: ${n(c.before)} → ${n(c.after)} tokens, rung ${c.rung}</summary>
<h3>The summary (excerpts of ${n(c.replaced)} messages)</h3><pre class="summary-text">${esc(c.summaryText)}</pre>
<h3>Kept verbatim (${n(c.head.length)} head, ${n(c.tail.length)} tail)</h3><div class="kept">${kept.length === 0 ? `<p class="muted">nothing</p>` : kept.join("")}</div>
${foldedList("Tool results dropped as too long", dropped, "none")}
${foldedList("Files touched in the compacted span", files, "none")}
<div class="cols"><div>${neededHtml(cost)}</div><div>${heldHtml(cost)}</div></div></details>`;
}

function cliffTable(cliffs: CliffDetail[], costs: CliffCostRow[]): string {
  const lost = (i: number): string => (costs[i] === undefined ? "" : `${n(costs[i].needed - costs[i].held)} of ${n(costs[i].needed)}`);
  const rows = cliffs.map((c, i) => `<tr><td><a href="#cliff-${i + 1}">${i + 1}</a></td><td>${c.step + 1}</td><td>${n(c.before)}</td><td>${n(c.after)}</td><td>${c.rung}</td><td>${n(c.replaced)}</td><td>${n(c.dropped.length)}</td><td>${n(c.files.read.length + c.files.modified.length)}</td><td>${lost(i)}</td></tr>`);
  return `<table id="cliffs"><tr><th>cliff</th><th>request</th><th>before</th><th>after</th><th>rung</th><th>messages summarised</th><th>results dropped</th><th>files</th><th>needed tokens dropped</th></tr>${rows.join("")}</table>`;
}

/** The minimum gain between cliffs, as the replay applied it (numbers only). */
function gainHtml(sim: Simulation, threshold: number): string {
  const tight = sim.tightFloor === null ? "" : `<p id="tight-floor" class="warning">${esc(tightLine(sim.tightFloor, sim.minGain, threshold))}.</p>`;
  return `<p id="min-gain">${esc(gainLine(sim.minGain, threshold, sim.held))}.</p>${tight}`;
}

export function renderReport(r: ReportInput): string {
  const data = {
    file: r.file, format: r.format, dialect: r.dialect, messages: r.messages, threshold: r.threshold, requests: r.sim.steps.length, cliffs: r.sim.cliffs,
    peak: r.sim.peak, floor: r.sim.floor, anatomy: r.anatomy, context: r.sim.steps.map((s) => s.context), baseline: r.sim.steps.map((s) => s.baselineContext),
    billing: { cliff: r.sim.cliff, noCompaction: r.sim.none, llmSummary: r.sim.llm }, files: r.files,
    cliffDetails: r.cliffs.map((c, i) => ({ step: c.step, before: c.before, after: c.after, rung: c.rung, replaced: c.replaced, dropped: c.dropped.length, files: c.files, needed: r.costs[i]?.needed, held: r.costs[i]?.held, neededDropped: r.costs[i]?.neededDropped, heldBy: r.costs[i]?.heldBy })),
    profiles: r.profiles, sameCliffs: { cliffs: r.same.cliffs, needed: r.same.needed, held: Object.fromEntries(r.same.runs.map((x) => [x.profile, x.held])), meanAfter: Object.fromEntries(r.same.runs.map((x) => [x.profile, x.meanAfter])) }, minGainTokens: r.sim.minGain, held: r.sim.held, tightFloor: r.sim.tightFloor,
  };
  const files = [...r.files.read.map((p) => `read <code>${esc(p)}</code>`), ...r.files.modified.map((p) => `modified <code>${esc(p)}</code>`)];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>cliffcompaction report: ${esc(r.file)}</title><style>${STYLE}</style></head>
<body>
<h1>cliffcompaction report</h1>
<p><code>${esc(r.file)}</code> — ${esc(r.format)}, dialect ${esc(r.dialect)}, ${n(r.messages)} messages${r.note ? ` (${esc(r.note)})` : ""}</p>
${headline(r)}
<p>Threshold ${n(r.threshold)} tokens (${esc(r.why)}): ${n(r.sim.steps.length)} requests, ${n(r.sim.cliffs)} cliff${r.sim.cliffs === 1 ? "" : "s"}, peak context ${n(r.sim.peak)}${r.sim.cliffs > 0 ? `, floor after a cliff ${n(r.sim.floor)}` : ""}.</p>
${gainHtml(r.sim, r.threshold)}
<h2>Context per request</h2>
<div id="chart">${r.chartSvg}</div>
<h2>What it costs</h2>
${billingHtml(r.sim, r.profile)}
<h2>Where the tokens are (the whole session)</h2>
${anatomyHtml(r.anatomy)}
<h2>Cliffs</h2>
${r.cliffs.length === 0 ? `<p class="muted">The context never crossed ${shortNumber(r.threshold)} tokens: nothing was compacted.</p>` : cliffTable(r.cliffs, r.costs)}
${r.cliffs.map((c, i) => cliffHtml(c, i, r.costs[i])).join("\n")}
<h2>Reference or recall</h2>
${profilesHtml(r.profiles, r.same)}
<h2>Files the session read and modified</h2>
${listHtml(files, "no file tool calls")}
<script type="application/json" id="cliff-data">${inertJson(data)}</script>
</body></html>
`;
}
