/**
 * A strict reader of Prometheus' text exposition format (0.0.4), for tests: every line must be a
 * `# HELP`, a `# TYPE` or a sample; names, labels and values must be well formed; a metric's TYPE
 * comes before its samples, once; a metric's samples are contiguous; no series appears twice.
 */
export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Parsed {
  series: Series[];
  type(name: string): string | undefined;
  help(name: string): string | undefined;
  /** The sum of the values of `name` whose labels include `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function labelsOf(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL.test(name) || name.startsWith("__")) throw new Error(`bad label name ${JSON.stringify(name)} in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let j = eq + 2;
    let value = "";
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const next = text[++j];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else if (text[j] === "\n") throw new Error(`newline in a label value: ${line}`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    if (name in out) throw new Error(`label ${name} twice in: ${line}`);
    out[name] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (i < text.length) throw new Error(`expected , between labels in: ${line}`);
  }
  return out;
}

function valueOf(text: string, line: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value ${JSON.stringify(text)} in: ${line}`);
  return Number(text);
}

export function parsePrometheus(text: string): Parsed {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const types = new Map<string, string>();
  const helps = new Map<string, string>();
  const series: Series[] = [];
  const seen = new Set<string>();
  const finished = new Set<string>();
  let current = "";
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (m === null) continue; // any other comment
      const [, kind, name, rest] = m;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        if (types.has(name)) throw new Error(`TYPE twice for ${name}`);
        if (series.some((s) => s.name === name)) throw new Error(`TYPE after samples of ${name}`);
        types.set(name, rest);
      } else {
        if (helps.has(name)) throw new Error(`HELP twice for ${name}`);
        helps.set(name, rest);
      }
      continue;
    }
    if (line.trim() === "") throw new Error("an empty line");
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line);
    if (m === null) throw new Error(`not a sample: ${line}`);
    const [, name, , labelText, value] = m;
    if (name !== current) {
      if (finished.has(name)) throw new Error(`samples of ${name} are not together`);
      if (current !== "") finished.add(current);
      current = name;
    }
    const labels = labelText === undefined ? {} : labelsOf(labelText, line);
    const id = name + JSON.stringify(Object.entries(labels).sort());
    if (seen.has(id)) throw new Error(`series twice: ${line}`);
    seen.add(id);
    series.push({ name, labels, value: valueOf(value, line) });
  }
  return {
    series,
    type: (name) => types.get(name),
    help: (name) => helps.get(name),
    sum: (name, labels = {}) => series.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0),
  };
}
