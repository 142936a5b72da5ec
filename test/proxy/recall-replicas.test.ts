/**
 * Two `serve` processes with different home folders (one exporting dropped texts into its home, one
 * not) behind one scripted model: a whole session sends the same bytes upstream from either, and a
 * recall of a ref the first cliff named is answered alike after later cliffs, from the request alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { refOf } from "../../core/index.js";
import { recallModel, type RecallModel } from "../helpers/recall-model.js";
import { bashSteps, stepTexts } from "../helpers/recall-history.js";

const TEXTS = stepTexts(14, 60, true);
const TOOLS = [{ name: "bash", description: "run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } }];

const history = (steps: number): unknown[] => bashSteps(TEXTS, steps);

interface Replica { url: string; child: ChildProcess; home: string }
const homes: string[] = [];

async function serve(upstream: string, exportInHome: boolean): Promise<Replica> {
  const home = mkdtempSync(join(tmpdir(), "cliff-replica-home-"));
  homes.push(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_STATE_HOME: join(home, ".local/state"), XDG_CACHE_HOME: join(home, ".cache"), XDG_CONFIG_HOME: join(home, ".config") };
  for (const k of Object.keys(env)) if (k.startsWith("CLIFF_")) delete env[k];
  if (exportInHome) env.CLIFF_ARCHIVE = "1";
  const child = spawn(process.execPath, ["dist/cli.mjs", "serve", "--port", "0", "--quiet", "--threshold", "3000", "--keep-recent", "1", "--anthropic-upstream", upstream], { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve did not start: " + err)), 30_000);
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /proxy on (http:\/\/[\d.:]+)/.exec(err);
      if (m !== null) (clearTimeout(timer), resolve(m[1]));
    });
  });
  return { url, child, home };
}

let model: RecallModel;
const replicas: Replica[] = [];
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  replicas.push(await serve(model.url, true), await serve(model.url, false));
}, 60_000);
afterAll(async () => {
  for (const r of replicas) r.child.kill("SIGTERM");
  await model.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

async function ask(r: Replica, messages: unknown[]): Promise<string> {
  const res = await fetch(r.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" }, body: JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 256, tools: TOOLS, messages }) });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

it("two replicas with different home folders send the same bytes for a whole session and answer a recall alike", async () => {
  const sent: string[][] = [[], []];
  const answers: string[][] = [[], []];
  const firstRefs = new Set<string>();
  for (let steps = 4; steps <= TEXTS.length; steps++) {
    const last = steps === TEXTS.length;
    for (const [i, r] of replicas.entries()) {
      // The last request recalls a text the first cliff dropped, many cliffs later.
      model.script = (s) => (last && !s.results.some((x) => x.name === "cliff_recall") ? { calls: [{ name: "cliff_recall", input: { ref: refOf(TEXTS[1]) } }] } : { text: "noted" });
      const from = model.seen.length;
      const messages = [...history(steps), { role: "assistant", content: "Go on?" }, { role: "user", content: `continue ${steps}` }];
      answers[i].push(await ask(r, messages));
      for (const s of model.seen.slice(from)) {
        const body = JSON.stringify(s.body);
        sent[i].push(body);
        for (const m of body.matchAll(/chars, ref ([0-9a-f]{12})/g)) if (firstRefs.size < 50) firstRefs.add(m[1]);
      }
    }
  }
  expect(model.refused).toEqual([]);
  expect(sent[0].length).toBeGreaterThan(TEXTS.length - 3);
  expect(sent[1]).toEqual(sent[0]);
  expect(answers[1]).toEqual(answers[0]);
  // The summaries named dropped texts by ref, never by a path under either home.
  expect(firstRefs.has(refOf(TEXTS[1]))).toBe(true);
  for (const body of sent[0]) for (const r of replicas) expect(body).not.toContain(r.home);
  // The recall reached the model with the text itself, and the client saw only the line.
  const recalled = model.seen.filter((s) => s.results.some((x) => x.name === "cliff_recall"));
  expect(recalled).toHaveLength(2);
  for (const s of recalled) expect(s.results.find((x) => x.name === "cliff_recall")!.text).toBe(TEXTS[1]);
  expect(answers[0].at(-1)).toContain(`recalled ref ${refOf(TEXTS[1])}`);
  expect(answers[0].at(-1)).not.toContain("cliff_recall");
  // The first replica did export into its home; the second wrote nothing there.
  const files = (home: string): string[] => (readdirSync(home, { recursive: true }) as string[]).filter((f) => f.endsWith(".txt"));
  expect(files(replicas[0].home).length).toBeGreaterThan(0);
  expect(files(replicas[1].home)).toEqual([]);
}, 120_000);
