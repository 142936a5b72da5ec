/**
 * The sawtooth chart: context size per request, the threshold, and the no-compaction baseline,
 * with round-number ticks on both axes, a legend, and a clipped baseline marked with its true end.
 */

export interface ChartSeries {
  context: number[];
  baseline: number[];
  cliffs: number[];
  threshold: number;
  title: string;
}

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A short label for a round number: 999, 12k, 2.5k, 1.2M. */
export function shortNumber(v: number): string {
  const unit = (d: number, s: string): string => String(Number((v / d).toFixed(v % d === 0 ? 0 : 1))) + s;
  if (v >= 1e6) return unit(1e6, "M");
  if (v >= 1e3) return unit(1e3, "k");
  return String(Math.round(v));
}

/** A round step (1, 2, 2.5 or 5 × 10^k) that cuts `span` into about `count` parts. */
export function niceStep(span: number, count: number): number {
  const raw = Math.max(span, 1) / count;
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * pow;
}

/** The y ticks for values up to `top`: multiples of a round step, the last at or above `top`. */
export function yTicks(top: number): number[] {
  const step = niceStep(top, 5);
  const out: number[] = [];
  for (let v = 0; v < top + step; v += step) out.push(v);
  return out;
}

const W = 900;
const H = 380;
const L = 64;
const R = 24;
const T = 56;
const B = 48;

export function renderSvg(c: ChartSeries): string {
  const count = c.context.length;
  const n = Math.max(1, count - 1);
  const showBaseline = c.baseline.length > 0;
  const ticks = yTicks(Math.max(c.threshold * 1.15, ...c.context, 1));
  // The baseline may grow far above the sawtooth: the chart shows up to 3× the sawtooth's scale, and marks the rest.
  const sawTop = ticks[ticks.length - 1];
  const baseMax = showBaseline ? Math.max(...c.baseline) : 0;
  const yTop = showBaseline && baseMax > sawTop ? yTicks(Math.min(baseMax, sawTop * 3)).slice(-1)[0] : sawTop;
  const allTicks = yTicks(yTop).filter((v) => v <= yTop);
  const x = (i: number): string => (L + (i / n) * (W - L - R)).toFixed(1);
  const y = (v: number): string => (T + (1 - Math.min(v, yTop) / yTop) * (H - T - B)).toFixed(1);
  const poly = (vals: number[]): string => vals.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(c.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="20" font-size="14" font-weight="bold">${esc(c.title)}</text>`,
  ];
  for (const v of allTicks) out.push(`<line class="ytick" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${L - 6}" y="${y(v)}" text-anchor="end" dominant-baseline="middle">${shortNumber(v)}</text>`);
  const xStep = Math.max(1, niceStep(count, 8));
  for (let k = xStep; k <= count; k += xStep) out.push(`<text class="xtick" x="${x(k - 1)}" y="${H - B + 16}" text-anchor="middle">${shortNumber(k)}</text>`);
  out.push(`<line x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}" stroke="#999"/>`);
  if (showBaseline) {
    out.push(`<polyline class="baseline" fill="none" stroke="#bbb" stroke-dasharray="4 3" stroke-width="1.5" points="${poly(c.baseline)}"/>`);
    const over = c.baseline.findIndex((v) => v > yTop);
    if (over >= 0) {
      const end = c.baseline[c.baseline.length - 1];
      out.push(`<path class="clipped" d="M${x(over)},${T - 2} l-5,8 h10 z" fill="#999"/>`);
      out.push(`<text class="clipped-label" x="${W - R}" y="${T - 8}" text-anchor="end" fill="#777">no compaction goes off the chart at request ${over + 1} and ends at ${shortNumber(end)} ▲</text>`);
    }
  }
  out.push(`<line class="threshold" x1="${L}" x2="${W - R}" y1="${y(c.threshold)}" y2="${y(c.threshold)}" stroke="#d33" stroke-dasharray="6 4"/>`);
  out.push(`<polyline class="context" fill="none" stroke="#2563eb" stroke-width="2" points="${poly(c.context)}"/>`);
  for (const i of c.cliffs) out.push(`<circle class="cliff" cx="${x(i)}" cy="${y(c.context[i])}" r="3" fill="#2563eb"/>`);
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">request (model call)</text>`);
  out.push(...legend(c, showBaseline));
  out.push(`</svg>`, "");
  return out.join("\n");
}

function legend(c: ChartSeries, showBaseline: boolean): string[] {
  const items: [string, string][] = [
    [`<line x1="0" x2="22" y1="0" y2="0" stroke="#2563eb" stroke-width="2"/>`, `context with cliffcompaction (${c.cliffs.length} cliff${c.cliffs.length === 1 ? "" : "s"})`],
    [`<line x1="0" x2="22" y1="0" y2="0" stroke="#d33" stroke-dasharray="6 4"/>`, `threshold ${shortNumber(c.threshold)}`],
  ];
  if (showBaseline) items.push([`<line x1="0" x2="22" y1="0" y2="0" stroke="#bbb" stroke-dasharray="4 3" stroke-width="1.5"/>`, "no compaction"]);
  let at = L;
  return items.map(([mark, label]) => {
    const g = `<g class="legend" transform="translate(${at},38)">${mark}<text x="28" y="0" dominant-baseline="middle">${esc(label)}</text></g>`;
    at += 40 + label.length * 6.5;
    return g;
  });
}
