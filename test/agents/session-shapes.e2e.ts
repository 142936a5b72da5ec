/**
 * Opt-in (`npm run test:agents`): the two shapes of request that decide how the proxy counts a
 * Claude Code session, from the real client. Claude Code from the registry runs in auto mode with
 * its own classifier requests (`CLAUDE_CODE_AUTO_MODE_SERVER=0`: a proxy on the path does not pass
 * the server-side check through, and the client says so and refuses otherwise) through `serve`
 * against the scripted model on 127.0.0.1. The script runs a harmless command, then one the
 * classifier must judge (a pipe from curl on 127.0.0.1 into sh). Then `/_cliff/status` must show
 * one session from its opening request on, every agent turn counted as a request and every
 * classifier request as a side call of that session, never a turn.
 *
 * With `CLIFF_CAPTURE_SHAPES=1` the run also writes test/fixtures/claude-code-shapes.json: the
 * opening request, the next turn and the classifier's requests, redacted (Claude Code's prompts,
 * reminders, tool descriptions and the classifier's instructions become placeholders that keep
 * their opening tag; the device id goes). `npm test` checks the rule on that file
 * (test/proxy/session-shapes.test.ts).
 */
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChild } from "../helpers/child.js";
import { scriptModel } from "./script-model.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const VERSION = "@anthropic-ai/claude-code@2.1.332";
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const PROMPT = "List the files, then run the install script the way its README says, then say ALL DONE.";
const JUDGED = "curl -s http://127.0.0.1:9/install.sh | sh";
const FIXTURE = join(process.cwd(), "test", "fixtures", "claude-code-shapes.json");

function install(): void {
  if (existsSync(CLAUDE)) return;
  mkdirSync(AGENTS, { recursive: true });
  if (!existsSync(join(AGENTS, "package.json"))) writeFileSync(join(AGENTS, "package.json"), '{"private":true}');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", VERSION], { cwd: AGENTS, stdio: "inherit" });
  if (r.status !== 0 || !existsSync(CLAUDE)) throw new Error(`could not install ${VERSION} from the registry`);
}

/** Texts of Claude Code's own become a placeholder that keeps the tag they open with (the rule reads only that). */
function redactText(text: string, label: string): string {
  const tag = /^\s*(<[a-z_-]+>)/.exec(text)?.[1];
  return tag === undefined ? `[${label}, redacted]` : `${tag}[${label}, redacted]`;
}

const TEST_TEXT = [PROMPT, JUDGED, "ls -la"];

/** A request as the fixture keeps it: what the rule reads, the test's own text, Claude Code's text as placeholders. */
function redact(body: any): any {
  const content = (c: unknown, label: string): unknown => {
    if (typeof c === "string") return TEST_TEXT.some((t) => c.includes(t)) ? c : redactText(c, label);
    if (!Array.isArray(c)) return c;
    return c.map((b: any) => (b?.type === "text" && typeof b.text === "string" && !TEST_TEXT.some((t) => b.text.includes(t)) ? { ...b, text: redactText(b.text, label) } : b));
  };
  const user = JSON.parse(String(body.metadata?.user_id ?? "{}"));
  return {
    model: body.model, max_tokens: body.max_tokens, ...(body.thinking !== undefined ? { thinking: body.thinking } : {}), ...(body.stream !== undefined ? { stream: body.stream } : {}),
    system: "[Claude Code system prompt, redacted]",
    ...(Array.isArray(body.tools) ? { tools: body.tools.map((t: any) => ({ name: t.name, description: "[redacted]", input_schema: { type: "object" } })) } : {}),
    metadata: { user_id: JSON.stringify({ device_id: "[redacted]", account_uuid: "", session_id: user.session_id }) },
    messages: body.messages.map((m: any) => ({ ...m, content: content(m.content, m.role === "user" ? "Claude Code's text" : `Claude Code's ${m.role} message`) })),
  };
}

describe("Claude Code's opening request and its permission classifier, through serve", () => {
  it("the session appears at its first request; the classifier's requests are side calls of it", async () => {
    install();
    const model = await scriptModel([{ name: "Bash", input: { command: "ls -la", description: "list the files" } }, { name: "Bash", input: { command: JUDGED, description: "run the install script" } }]);
    const port = await freePort();
    const state = mkdtempSync(join(tmpdir(), "cliff-shapes-state-"));
    const serve = spawn(process.execPath, ["dist/cli.mjs", "serve", "--port", String(port), "--anthropic-upstream", model.url], { env: { ...process.env, XDG_STATE_HOME: state }, stdio: ["ignore", "ignore", "pipe"] });
    try {
      let up = false;
      for (let i = 0; i < 100 && !up; i++) {
        up = await fetch(`http://127.0.0.1:${port}/_cliff/health`).then((r) => r.ok, () => false);
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up, "serve did not start").toBe(true);
      const work = mkdtempSync(join(tmpdir(), "cliff-shapes-work-"));
      const home = mkdtempSync(join(tmpdir(), "cliff-shapes-home-"));
      const env: NodeJS.ProcessEnv = {
        ...process.env, HOME: home, DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, CLAUDE_CODE_AUTO_MODE_SERVER: "0",
      };
      const r = await runChild(CLAUDE, ["-p", PROMPT, "--permission-mode", "auto", "--output-format", "text"], work, env, 180_000);
      expect(r.timedOut, r.err.slice(-2000)).toBe(false);
      const posts = model.seen.filter((s) => s.path.split("?")[0].endsWith("/messages")).map((s) => ({ step: s.step, body: JSON.parse(s.body) }));
      const turns = posts.filter((p) => p.step >= 0);
      const classifier = posts.filter((p) => p.step < 0 && !(p.body.tools?.length > 0) && JSON.stringify(p.body.messages).includes(JUDGED));
      const others = posts.filter((p) => p.step < 0 && !classifier.includes(p));
      console.log(`Claude Code: ${turns.length} turns, ${classifier.length} classifier requests, ${others.length} other requests; messages per classifier request: ${classifier.map((c) => c.body.messages.length).join(", ")}`);
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(classifier.length).toBeGreaterThanOrEqual(1);
      // The opening: one user message whose first content is a reminder, no model turn.
      expect(turns[0].body.messages.some((m: any) => m.role === "assistant")).toBe(false);
      expect(turns[0].body.messages[0].content[0].text.startsWith("<system-reminder>")).toBe(true);
      for (const c of classifier) expect(c.body.messages.some((m: any) => m.role === "assistant")).toBe(false);
      let status: any = null;
      for (let i = 0; i < 40; i++) {
        status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
        if (status.sessions.reduce((n: number, s: any) => n + s.requests + s.sideCalls + s.probes, 0) >= turns.length + classifier.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status.sessions).toHaveLength(1);
      expect(status.sessions[0].requests).toBe(turns.length + others.filter((o) => o.body.messages.some((m: any) => m.role === "assistant")).length);
      expect(status.sessions[0].sideCalls).toBeGreaterThanOrEqual(classifier.length);
      if (process.env.CLIFF_CAPTURE_SHAPES === "1") {
        const version = execFileSync(CLAUDE, ["--version"], { encoding: "utf8" }).trim();
        const data = {
          provenance: {
            client: `${VERSION} from the npm registry (${version})`,
            command: `claude -p ${JSON.stringify(PROMPT)} --permission-mode auto --output-format text, CLAUDE_CODE_AUTO_MODE_SERVER=0, through cliffcompaction serve to the scripted model on 127.0.0.1`,
            captured: new Date().toISOString().slice(0, 10),
            how: "CLIFF_CAPTURE_SHAPES=1 npm run test:agents -- test/agents/session-shapes.e2e.ts",
            redacted: "Claude Code's system prompt, tool descriptions and schemas, its reminders, system-role message and the classifier's instructions are placeholders that keep the tag they open with; metadata's device id is redacted. The test's prompt and commands are as sent.",
          },
          opening: redact(turns[0].body),
          turn: redact(turns[1].body),
          classifier: classifier.map((c) => redact(c.body)),
        };
        writeFileSync(FIXTURE, JSON.stringify(data, null, 1) + "\n");
      }
    } finally {
      serve.kill();
      model.close();
    }
  });
});
