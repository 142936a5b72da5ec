/**
 * Makes the fixtures in test/fixtures/read-stubs from real runs (not part of any suite):
 *
 *   node build.mjs --no-types && npx tsx test/agents/capture-read-stubs.ts PATH/TO/claude
 *
 * with the claude of `npm install @anthropic-ai/claude-code@2.1.185`. For each threshold (8,000 and
 * 30,000) and profile it runs read – commands – read through `cliffcompaction run` against the
 * scripted model, offline, and keeps the last request the agent sent (the one answering the second
 * read with a stub; every earlier request's messages are a prefix of it, which is checked here) and
 * that request as it reached the model. Everything but the test's own text is redacted: Claude
 * Code's system prompt, tool descriptions and reminders become short placeholders (the structure,
 * the tool names and schemas' shape, the tool results and the stub texts stay as sent).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { readCommandsRead, STUB_PROMPT, stubRun, type StubRun } from "./read-stub-run.js";

const claude = process.argv[2];
if (claude === undefined) throw new Error("usage: capture-read-stubs.ts PATH/TO/claude");
const version = execFileSync(claude, ["--version"], { encoding: "utf8" }).trim();
const OUT = join(process.cwd(), "test", "fixtures", "read-stubs");
const WORK = "/tmp/cliff-read-stub/work";

/** Strings of Claude Code's own, each with the placeholder that stands for it. */
class Redactor {
  readonly map = new Map<string, string>();

  /** A placeholder for `text`, the same one each time the text comes back. */
  stand(text: string, label: string): string {
    let p = this.map.get(text);
    if (p === undefined) this.map.set(text, (p = `[${label}, redacted]`));
    return p;
  }

  system(system: unknown): unknown {
    if (!Array.isArray(system)) return typeof system === "string" ? this.stand(system, "Claude Code system prompt") : system;
    return system.map((b: any, i: number) => ({ ...b, text: this.stand(b.text, `Claude Code system prompt, block ${i + 1}`) }));
  }

  schema(v: any, tool: string): any {
    if (Array.isArray(v)) return v.map((x) => this.schema(x, tool));
    if (v === null || typeof v !== "object") return v;
    const out: any = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === "description" && typeof x === "string" ? this.stand(x, `Claude Code's text in the ${tool} schema`) : this.schema(x, tool);
    return out;
  }

  tools(tools: any[]): any[] {
    return tools.map((t) => ({ ...t, description: this.stand(t.description ?? "", `Claude Code's description of ${t.name}`), input_schema: this.schema(t.input_schema, t.name) }));
  }

  /** Messages: Claude Code's reminders and its system-role messages become placeholders; the rest is the test's text. */
  messages(messages: any[]): any[] {
    return messages.map((m) => {
      if (m.role === "system") return { ...m, content: typeof m.content === "string" ? this.stand(m.content, "Claude Code system message") : m.content };
      if (!Array.isArray(m.content)) return m;
      return { ...m, content: m.content.map((b: any) => (b.type === "text" && b.text.startsWith("<system-reminder>") ? { ...b, text: this.stand(b.text, "Claude Code context reminder") } : b)) };
    });
  }

  /** What reached the model: its messages as the agent's, and every redacted text (trimmed too) replaced where a summary quotes it. */
  reached(messages: any[]): any[] {
    const pairs = [...this.map].flatMap(([t, p]) => [[t, p], [t.trim(), p]]).filter(([t]) => t.length > 20).sort((a, b) => b[0].length - a[0].length);
    const walk = (v: any): any => {
      if (typeof v === "string") return pairs.reduce((s, [t, p]) => s.split(t).join(p), v);
      if (Array.isArray(v)) return v.map(walk);
      if (v === null || typeof v !== "object") return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    };
    return walk(this.messages(messages));
  }
}

function agentRequests(run: StubRun): any[] {
  return run.seen.filter((s) => s.step >= 0).map((s) => JSON.parse(s.body));
}

/** Each agent request's messages are a prefix of the last one's (cache markers aside). */
function checkPrefixes(sent: any[][]): void {
  const plain = (m: any): string => JSON.stringify(m, (k, v) => (k === "cache_control" ? undefined : v));
  const last = sent[sent.length - 1];
  for (const msgs of sent) for (let i = 0; i < msgs.length; i++) if (plain(msgs[i]) !== plain(last[i])) throw new Error(`request of ${msgs.length} messages differs from the last at ${i}`);
}

function leftovers(text: string): string[] {
  return ["Claude Agent SDK", "currentDate", "Available agent types", "interactive agent", "billing"].filter((w) => text.includes(w));
}

interface Captured {
  sent: any;
  provenance: Record<string, unknown>;
  reached: any[];
}

async function capture(threshold: number, profile: "reference" | "recall", commands: string[]): Promise<Captured> {
  const run = await stubRun({ claude, profile, threshold, work: WORK, steps: (file) => readCommandsRead(file, commands) });
  if (run.finished.code !== 0) throw new Error(`claude exited ${run.finished.code}: ${run.finished.err.slice(-2000)}`);
  const reached = agentRequests(run);
  const sent = run.debug.map((d) => d.incoming as any[]);
  if (sent.length !== reached.length) throw new Error(`${sent.length} requests in the proxy's dump, ${reached.length} at the model`);
  checkPrefixes(sent);
  const last = reached[reached.length - 1];
  const r = new Redactor();
  const body = { ...last, system: r.system(last.system), tools: r.tools(last.tools), metadata: { user_id: "[redacted]" }, messages: r.messages(sent[sent.length - 1]) };
  const out = {
    sent: body,
    provenance: {
      command: `cliffcompaction run --anthropic-upstream <scripted model on 127.0.0.1> --threshold ${threshold} --profile ${profile} --debug-dir <dir> -- claude -p ${JSON.stringify(STUB_PROMPT)} --allowedTools Read,Bash,Edit,Write --output-format text`,
      actions: run.debug.map((d) => d.action),
      sentMessageCounts: sent.map((m) => m.length),
    },
    reached: r.reached(last.messages),
  };
  const reachedText = JSON.stringify(out.reached);
  console.log(`${threshold} ${profile}: ${out.provenance.actions.join(" ")}; stub in what reached the model: ${reachedText.includes("Wasted call")}; file text there: ${reachedText.includes("QX1037")}`);
  return out;
}

async function fixture(threshold: number, commands: string[]): Promise<void> {
  const runs = { reference: await capture(threshold, "reference", commands), recall: await capture(threshold, "recall", commands) };
  // The agent sends the same requests whatever the proxy does with them: one copy is kept.
  if (JSON.stringify(runs.reference.sent) !== JSON.stringify(runs.recall.sent)) throw new Error("the agent's requests differ between the profiles' runs");
  const data = {
    provenance: {
      client: `@anthropic-ai/claude-code@${version.split(" ")[0]} from the npm registry (${version})`,
      script: readCommandsRead(join(WORK, "notes.txt"), commands),
      captured: new Date().toISOString().slice(0, 10),
      cliffcompaction: execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
      how: "test/agents/capture-read-stubs.ts",
      redacted: "Claude Code's system prompt, tool descriptions (and the descriptions in their schemas), its system-role message and its <system-reminder> context blocks are placeholders (so are their quotes in a summary); metadata.user_id is redacted. Messages, tool calls, tool results and stub texts are as sent.",
    },
    /** The last request the agent sent, answering the second read with a stub (request i sent the first sentMessageCounts[i] of its messages). */
    sent: runs.reference.sent,
    /** Per profile: the run's command, what the proxy did with each request, and the last request's messages as they reached the model. */
    runs: { reference: { ...runs.reference.provenance, reached: runs.reference.reached }, recall: { ...runs.recall.provenance, reached: runs.recall.reached } },
  };
  const text = JSON.stringify(data, null, 1) + "\n";
  const left = leftovers(text);
  if (left.length > 0) throw new Error(`unredacted text left: ${left.join(", ")}`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `claude-2.1.185-${threshold}.json`), text);
}

await fixture(8000, ["seq 1 1500", "seq 1501 3000", "seq 3001 4500"]);
await fixture(30000, ["seq 1 5000", "seq 5001 9000", "seq 9001 13000"]);
