/**
 * Realistic agent sessions, deterministic from a seed, as a dialect-free story: a coding agent
 * fixing bugs in a generated project. It plans (todo lists), greps, reads long files, runs tests
 * that fail with stack traces, edits and writes code, reads long build logs, and later turns refer
 * back to identifiers, lines and numbers that only earlier results and calls held.
 * `agent-dialects.ts` renders a story in each wire format.
 */

export type Tool = "read" | "edit" | "write" | "bash" | "grep" | "plan";

export interface PlanItem {
  text: string;
  status: "pending" | "in_progress" | "completed";
}

export interface Call {
  id: string;
  tool: Tool;
  /** read/edit/write/grep: the file or folder; bash: the command; grep: `pattern`; edit: `old`/`next`; write: `content`; plan: `items`. */
  path?: string;
  command?: string;
  pattern?: string;
  old?: string;
  next?: string;
  content?: string;
  items?: PlanItem[];
}

export type StoryEvent =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string; thinking?: string; calls: Call[] }
  | { kind: "result"; call: Call; text: string; exitCode?: number };

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODULES = ["parser", "lexer", "router", "cache", "auth", "billing", "queue", "config", "render", "storage", "metrics", "session"];
const NOUNS = ["Header", "Token", "Route", "Entry", "Invoice", "Job", "Option", "Frame", "Record", "Counter", "Span", "Chunk", "Policy", "Window"];
const VERBS = ["parse", "resolve", "load", "flush", "build", "encode", "decode", "merge", "validate", "render", "schedule", "refresh", "split", "count"];
const FIELDS = ["offset", "length", "retries", "expiresAt", "owner", "checksum", "priority", "cursor", "limit", "version"];
const PROSE = "the a value when it then is not before after returns reads writes keeps drops checks list map key entry line count first last next each every so because but".split(" ");

interface SourceFile {
  path: string;
  test: string;
  noun: string;
  cls: string;
  fns: string[];
  consts: string[];
  fields: string[];
  lines: string[];
}

export class Story {
  readonly events: StoryEvent[] = [];
  readonly files: SourceFile[] = [];
  private ids = 0;
  readonly r: () => number;

  constructor(seed: number) {
    this.r = rng(seed);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }

  prose(words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(this.pick(PROSE));
    return out.join(" ");
  }

  callId(): string {
    return `c${++this.ids}`;
  }

  makeFile(i: number): SourceFile {
    const mod = MODULES[i % MODULES.length];
    const noun = NOUNS[(i * 5 + this.int(0, 3)) % NOUNS.length];
    const cls = noun + this.pick(["Store", "Parser", "Queue", "Table", "Cache"]);
    const fns = Array.from({ length: this.int(4, 7) }, (_, k) => VERBS[(i * 3 + k * 5) % VERBS.length] + noun + (k > 3 ? this.pick(["Async", "Safe", "At"]) : ""));
    const consts = [`MAX_${noun.toUpperCase()}_${this.pick(["SIZE", "COUNT", "AGE"])}`, `DEFAULT_${this.pick(FIELDS).toUpperCase()}`];
    const fields = [this.pick(FIELDS), this.pick(FIELDS), this.pick(FIELDS)];
    const f: SourceFile = { path: `src/${mod}/${noun.toLowerCase()}.ts`, test: `test/${mod}/${noun.toLowerCase()}.test.ts`, noun, cls, fns, consts, fields, lines: [] };
    f.lines = this.code(f);
    return f;
  }

  private code(f: SourceFile): string[] {
    const lines = [`import { ${this.pick(VERBS)}${this.pick(NOUNS)} } from "../${this.pick(MODULES)}/${this.pick(NOUNS).toLowerCase()}.js";`, ""];
    for (const c of f.consts) lines.push(`export const ${c} = ${this.int(100, 99999)};`);
    lines.push("", `export interface ${f.noun} {`, ...f.fields.map((x) => `  ${x}: number;`), "}", "", `export class ${f.cls} {`);
    lines.push(`  private readonly byKey = new Map<string, ${f.noun}>();`, "");
    for (const fn of f.fns) {
      const v = this.pick(["parts", "found", "next", "chunk", "entry"]);
      const field = this.pick(f.fields);
      lines.push(`  /** ${this.prose(this.int(6, 14))}. */`);
      lines.push(`  ${fn}(input: string, limit = ${f.consts[0]}): ${f.noun} | undefined {`);
      lines.push(`    const ${v} = input.split(${JSON.stringify(this.pick([":", "/", ";", "|"]))});`);
      lines.push(`    if (${v}.length > limit) throw new RangeError(\`${fn}: \${${v}.length} parts over \${limit}\`);`);
      for (let k = this.int(2, 9); k > 0; k--) lines.push(`    ${this.pick(["const", "let"])} ${this.pick(f.fields)}${k} = ${v}[${k}]?.length ?? ${this.int(0, 999)};`);
      lines.push(`    const hit = this.byKey.get(${v}[0]);`, `    if (hit !== undefined && hit.${field} > ${this.int(1, 500)}) return hit;`, `    return undefined;`, "  }", "");
    }
    lines.push("}");
    return lines;
  }

  /** The file as a read tool shows it: numbered lines. */
  numbered(f: SourceFile): string {
    return f.lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
  }

  /** A line of `f` that mentions `word` (the first), with its 1-based number. */
  lineOf(f: SourceFile, word: string): [string, number] {
    const i = Math.max(0, f.lines.findIndex((l) => l.includes(word) && l.trim() !== ""));
    return [f.lines[i], i + 1];
  }

  /**
   * The lines an edit replaces: in function `fn`, the first line that mentions `marker` and the
   * `before` lines above it, joined, with the marker line's 0-based index.
   */
  block(f: SourceFile, fn: string, marker: string, before: number): [string, number] {
    const start = Math.max(0, f.lines.findIndex((l) => l.includes(`${fn}(input`)));
    let at = start;
    while (at < f.lines.length - 1 && !f.lines[at].includes(marker)) at++;
    return [f.lines.slice(Math.max(start, at - before), at + 1).join("\n"), at];
  }

  user(text: string): void {
    this.events.push({ kind: "user", text });
  }

  /** One model turn: text, optional thinking, calls, then each call's result. */
  turn(text: string, calls: [Omit<Call, "id">, string, number?][], thinking?: string): Call[] {
    const made = calls.map(([c]) => ({ ...c, id: this.callId() }));
    this.events.push({ kind: "assistant", text, thinking, calls: made });
    calls.forEach(([, result, exitCode], k) => this.events.push({ kind: "result", call: made[k], text: result, exitCode }));
    return made;
  }
}
