/** The sawtooth chart: context size per request, the threshold, and the no-compaction baseline. */

export interface ChartSeries {
  context: number[];
  baseline: number[];
  cliffs: number[];
  threshold: number;
  title: string;
}

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function niceNumber(n: number): string {
  return n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e3 ? Math.round(n / 1e3) + "k" : String(Math.round(n));
}

export function renderSvg(c: ChartSeries): string {
  const W = 900;
  const H = 360;
  const L = 64;
  const R = 16;
  const T = 36;
  const B = 40;
  const n = Math.max(1, c.context.length - 1);
  const top = Math.max(c.threshold * 1.15, ...c.context, 1);
  const showBaseline = c.baseline.length > 0;
  const yMax = showBaseline ? Math.max(top, Math.min(Math.max(...c.baseline), top * 3)) : top;
  const x = (i: number): string => (L + (i / n) * (W - L - R)).toFixed(1);
  const y = (v: number): string => (T + (1 - Math.min(v, yMax) / yMax) * (H - T - B)).toFixed(1);
  const poly = (vals: number[]): string => vals.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = yMax * f;
    return `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${L - 6}" y="${y(v)}" text-anchor="end" dominant-baseline="middle">${niceNumber(v)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(c.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    ...ticks,
    `<text x="${L}" y="20" font-size="14" font-weight="bold">${esc(c.title)}</text>`,
    showBaseline ? `<polyline class="baseline" fill="none" stroke="#bbb" stroke-dasharray="4 3" stroke-width="1.5" points="${poly(c.baseline)}"/>` : "",
    `<line class="threshold" x1="${L}" x2="${W - R}" y1="${y(c.threshold)}" y2="${y(c.threshold)}" stroke="#d33" stroke-dasharray="6 4"/>`,
    `<text x="${W - R}" y="${Number(y(c.threshold)) - 5}" text-anchor="end" fill="#d33">threshold ${niceNumber(c.threshold)}</text>`,
    `<polyline class="context" fill="none" stroke="#2563eb" stroke-width="2" points="${poly(c.context)}"/>`,
    ...c.cliffs.map((i) => `<circle class="cliff" cx="${x(i)}" cy="${y(c.context[i])}" r="3" fill="#2563eb"/>`),
    `<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">request (model call) — ${c.cliffs.length} cliffs${showBaseline ? "; dashed: no compaction" : ""}</text>`,
    `</svg>`,
    "",
  ].filter((l) => l !== "").join("\n");
}
