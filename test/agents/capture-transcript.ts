/**
 * Makes test/fixtures/claude-2.1.332/ from a real run (not part of any suite):
 *
 *   npx tsx test/agents/capture-transcript.ts PATH/TO/claude
 *
 * with the claude of `npm install @anthropic-ai/claude-code@2.1.332`. It runs `claude -p` against the
 * scripted model on 127.0.0.1, offline, three shell calls and a final text, and keeps the session's
 * transcript (`~/.claude/projects/…/<session>.jsonl`) and the last request the model received.
 * Claude Code's own texts are redacted to placeholders (the system prompt, tool descriptions, its
 * reminders, attachments, the request shapes and blobs of its `api-request*` entries); every entry,
 * its kind, its keys and links, and the test's own text stay as written.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockModel } from "./mock-model.js";
import { runChild } from "../helpers/child.js";

const claude = process.argv[2];
if (claude === undefined) throw new Error("usage: capture-transcript.ts PATH/TO/claude");
const version = execFileSync(claude, ["--version"], { encoding: "utf8" }).trim();
const OUT = join(process.cwd(), "test", "fixtures", "claude-2.1.332");
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";

/** Text of Claude Code's, as a placeholder that keeps its length's order and never its words. */
const placeholder = (what: string, text: string): string => `[${what}, ${text.length} characters, redacted]`;

/** Keys whose values are structure, not Claude Code's prose. */
const KEPT = new Set(["type", "role", "name", "id", "tool_use_id", "required", "$schema", "enum"]);

function redactText(v: unknown, what: string): unknown {
  if (typeof v === "string") return placeholder(what, v);
  if (Array.isArray(v)) return v.map((x) => redactText(x, what));
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, KEPT.has(k) ? x : redactText(x, what)]));
}

/** A model-facing message: reminders and system-role text redacted, the test's text kept. */
function redactMessage(m: any): any {
  if (m?.role === "system") return { ...m, content: redactText(m.content, "Claude Code system message") };
  if (!Array.isArray(m?.content)) return m;
  return { ...m, content: m.content.map((b: any) => (b?.type === "text" && typeof b.text === "string" && b.text.startsWith("<system-reminder>") ? { ...b, text: placeholder("Claude Code context reminder", b.text) } : b)) };
}

function redactLine(l: any): any {
  switch (l.type) {
    case "attachment":
      return { ...l, attachment: { type: l.attachment?.type, redacted: true }, ...(l.rendered !== undefined ? { rendered: redactText(l.rendered, "Claude Code attachment") } : {}) };
    case "api-request-shape":
      return { ...l, shape: redactText(l.shape, "Claude Code request shape") };
    case "api-request-blob":
      return { ...l, message: redactMessage(l.message) };
    case "api-request":
      return { ...l, params: { ...l.params, ...(l.params?.system !== undefined ? { system: redactText(l.params.system, "Claude Code system prompt") } : {}), ...(l.params?.tools !== undefined ? { tools: redactText(l.params.tools, "Claude Code tools") } : {}) } };
    case "user":
    case "assistant":
      return { ...l, message: redactMessage(l.message), ...(l.cwd !== undefined ? { cwd: "/work" } : {}) };
    default:
      return l;
  }
}

function redactRequest(body: any): any {
  return {
    ...body,
    system: redactText(body.system, "Claude Code system prompt"),
    tools: (body.tools ?? []).map((t: any) => ({ ...t, description: placeholder(`Claude Code's description of ${t.name}`, t.description ?? ""), input_schema: redactText(t.input_schema, `${t.name}'s schema text`) })),
    metadata: { user_id: "[redacted]" },
    messages: (body.messages ?? []).map(redactMessage),
  };
}

const model = await mockModel({ calls: 3, command: "seq 1 40" });
const home = mkdtempSync(join(tmpdir(), "cliff-capture-home-"));
const work = mkdtempSync(join(tmpdir(), "cliff-capture-work-"));
const env = {
  ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: model.url,
};
const r = await runChild(claude, ["-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text"], work, env, 120_000);
model.close();
if (r.code !== 0) throw new Error(`claude exited ${r.code}: ${r.err.slice(-2000)}`);
const projects = join(home, ".claude", "projects");
const folder = readdirSync(projects).map((d) => join(projects, d))[0];
const file = readdirSync(folder).filter((f) => f.endsWith(".jsonl")).map((f) => join(folder, f))[0];
// The run's folders are the machine's: every mention of them reads /work and /home.
const local = (text: string): string => text.split(work).join("/work").split(home).join("/home");
const lines = local(readFileSync(file, "utf8")).split("\n").filter((l) => l.trim() !== "").map((l) => redactLine(JSON.parse(l)));
const posts = model.seen.filter((s) => s.path.split("?")[0].endsWith("/messages"));
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "transcript.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
writeFileSync(join(OUT, "request.json"), JSON.stringify({
  provenance: { client: `@anthropic-ai/claude-code from the npm registry (${version})`, command: `claude -p ${JSON.stringify(PROMPT)} --allowedTools Bash --output-format text`, model: "the scripted model of test/agents/mock-model.ts", captured: new Date().toISOString().slice(0, 10) },
  headers: Object.fromEntries(Object.entries(posts.at(-1)!.headers).filter(([k]) => /^(anthropic-|content-type|accept|user-agent|x-app)/.test(k))),
  body: redactRequest(JSON.parse(local(posts.at(-1)!.body))),
}, null, 1) + "\n");
const kinds = [...new Set(lines.map((l) => l.type))];
console.log(`${version}: ${lines.length} entries (${kinds.join(", ")}); ${posts.length} requests; written to ${OUT}`);
