/**
 * The bill of a recall: one scripted agent session through `node dist/cli.mjs serve` against a
 * scripted Anthropic model (its rules enforced, its prompt cache reported as the provider's: see
 * recall-cache.ts), run twice. The agent runs `make stepN` once per turn; at a fixed request the
 * model needs step 5's output, which the cliff dropped. With the recall tool (the default) it calls
 * `cliff_recall` with the ref the summary names, and the proxy answers in one more round; with
 * `--no-recall-tool` it runs the command again, one more turn of the client. The table: what went
 * upstream and what the proxy's status counts. The same figures on every run and machine.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { recallModel, recallsIn, type Reply, type Seen } from "../test/helpers/recall-model.js";
import { PromptCache, tokensOf } from "./recall-cache.js";
import { proxyUrl } from "./util.js";

const CLI = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
const THRESHOLD = 12_000;
const MODEL = "claude-sonnet-4-5";

/** Step n's output: a build log of about 3 KB, its own on every line. */
export const outputOf = (n: number): string =>
  [`== make step${n} ==`, ...Array.from({ length: 55 }, (_, i) => `src/step${n}/mod${i}.ts:${(i * 37 + n) % 400}: compiled ${i * 13 + n} symbols in ${(i * 7 + n) % 90} ms`), `step${n}: ok`].join("\n");

const SYSTEM = Array.from({ length: 60 }, (_, i) => `Rule ${i + 1}: run one build step per turn with the bash tool and read its whole output before the next.`).join("\n");
const TOOLS = [{ name: "bash", description: "Run a shell command and return its output.", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } }];

export interface Bill {
  upstream: number;
  chars: number;
  clientTurns: number;
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number };
  dollars: number;
  cliffs: number;
  recalls: { calls: number; rounds: number; tokens: number };
  /** The step whose output was needed, and how the need was met. */
  step: number;
  met: string;
}

/** The oldest step whose call the request's summary shows (in the message after the task). */
function oldestSummarised(s: Seen): number {
  const summary = JSON.stringify(s.body.messages[1]?.content ?? "");
  const steps = [...summary.matchAll(/make step(\d+)/g)].map((m) => Number(m[1]));
  if (steps.length === 0) throw new Error("the request holds no summary");
  return Math.min(...steps);
}

const recall = (input: Record<string, unknown>, text?: string): Reply => ({ text, calls: [{ name: "cliff_recall", input }] });
const chars = (text: string): string => `${text.length.toLocaleString("en-US")} chars`;

/**
 * What the model asks for when it needs step `step`'s output: the step again without the tool; with
 * it, the ref the summary names, or a search for the output's first line when no summary names it.
 */
function ask(s: Seen, step: number): { reply: Reply; asked: string } {
  const text = `I need step ${step}'s output again.`;
  if (!s.tools.includes("cliff_recall")) return { reply: { text, calls: [{ name: "bash", input: { command: `make step${step}` } }] }, asked: "rerun" };
  const ref = new RegExp(`make step${step}\\b[^]*?ref ([0-9a-f]{12})`).exec(JSON.stringify(s.body.messages[1]))?.[1];
  if (ref !== undefined) return { reply: recall({ ref }, text), asked: ref };
  return { reply: recall({ search: `== make step${step} ==` }, text), asked: "search" };
}

/**
 * The model: one step a turn. At request `needAt` of the client it needs again the output of step
 * `need.step` (when unset: the oldest step the summary shows), which the request must no longer hold.
 */
function script(steps: number, needAt: number, need: { step?: number; met: string }): (s: Seen) => Reply {
  let requests = 0;
  let next = 0;
  let asked = "";
  const run = (n: number): Reply => ((next = n + 1), { text: `Running step ${n}.`, calls: [{ name: "bash", input: { command: `make step${n}` } }] });
  return (s) => {
    const answer = recallsIn(s)[0]?.text;
    if (answer !== undefined && asked === "search") {
      asked = new RegExp(`([0-9a-f]{12}):1: == make step${need.step} ==`).exec(answer)?.[1] ?? "";
      if (asked === "") throw new Error(`the search found no line of step ${need.step}'s output: ${answer}`);
      need.met = `cliff_recall search, then ref ${asked}`;
      return recall({ ref: asked });
    }
    if (answer !== undefined) {
      if (answer !== outputOf(need.step!)) throw new Error(`the recall did not bring step ${need.step}'s output back byte for byte`);
      need.met = `${need.met === "" ? `cliff_recall of ref ${asked}` : need.met}, step ${need.step}'s output (${chars(answer)})`;
      return run(next);
    }
    requests++;
    const last = s.results.find((r) => r.name === "bash");
    if (asked === "rerun" && last?.text === outputOf(need.step!)) {
      asked = "done";
      need.met = `make step${need.step} run again (${chars(last.text)})`;
    } else if (requests === needAt) {
      const step = (need.step ??= oldestSummarised(s));
      if (JSON.stringify(s.body).includes(JSON.stringify(outputOf(step)))) throw new Error(`step ${step}'s output was not dropped by request ${needAt}`);
      const { reply, asked: what } = ask(s, step);
      asked = what;
      return reply;
    }
    return next >= steps ? { text: "All steps pass." } : run(next);
  };
}

/** `serve` in a folder of its own (HOME, XDG dirs, its admin token), stopped by `stop`. */
async function serve(upstream: string, flags: string[]): Promise<{ url: string; token: string; stop: () => void }> {
  const home = mkdtempSync(join(tmpdir(), "cliff-recall-bill-"));
  const tokenFile = join(home, "admin-token");
  const env = { ...process.env, HOME: home, XDG_STATE_HOME: join(home, "state"), XDG_CACHE_HOME: join(home, "cache"), XDG_CONFIG_HOME: join(home, "config") };
  const args = [CLI, "serve", "--port", "0", "--threshold", String(THRESHOLD), "--keep-recent", "1", "--anthropic-upstream", upstream, "--admin-token-file", tokenFile, ...flags];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  const url = await proxyUrl(child);
  return { url, token: readFileSync(tokenFile, "utf8").trim(), stop: () => (child.kill(), rmSync(home, { recursive: true, force: true })) };
}

/** The assistant message of a streamed answer, as the client rebuilds it from the events. */
function streamed(answer: string): any[] {
  const content: any[] = [];
  const json: string[] = [];
  for (const line of answer.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const e = JSON.parse(line.slice(6));
    if (e.type === "error") throw new Error(`the stream ended with an error: ${line}`);
    if (e.type === "content_block_start") [content[e.index], json[e.index]] = [{ ...e.content_block }, ""];
    if (e.type === "content_block_delta" && e.delta.type === "text_delta") content[e.index].text += e.delta.text;
    if (e.type === "content_block_delta" && e.delta.type === "input_json_delta") json[e.index] += e.delta.partial_json;
    if (e.type === "content_block_stop" && content[e.index].type === "tool_use") content[e.index].input = JSON.parse(json[e.index] || "{}");
  }
  return content;
}

/** The client: streams each answer and sends its history (the last block marked for the cache, as Claude Code does), runs each call, until the model stops calling. */
async function agent(url: string): Promise<number> {
  const messages: any[] = [{ role: "user", content: [{ type: "text", text: "Run every build step in order; say when all pass." }] }];
  for (let turns = 1; ; turns++) {
    const marked = messages.map((m, i) => (i < messages.length - 1 ? m : { ...m, content: m.content.map((b: any, k: number) => (k < m.content.length - 1 ? b : { ...b, cache_control: { type: "ephemeral" } })) }));
    const body = { model: MODEL, max_tokens: 1024, stream: true, system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }], tools: TOOLS, messages: marked };
    const r = await fetch(url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "x-claude-code-session-id": "bench-recall-bill" }, body: JSON.stringify(body) });
    const answer = await r.text();
    if (r.status !== 200) throw new Error(`the proxy answered ${r.status}: ${answer}`);
    if (answer.includes("cliff_recall")) throw new Error("the client's answer shows the recall call");
    const content = streamed(answer);
    messages.push({ role: "assistant", content });
    const calls = content.filter((b: any) => b.type === "tool_use");
    if (calls.length === 0) return turns;
    messages.push({ role: "user", content: calls.map((c: any) => ({ type: "tool_result", tool_use_id: c.id, content: outputOf(Number(/step(\d+)/.exec(c.input.command)![1])) })) });
  }
}

async function status(url: string, token: string, turns: number): Promise<any> {
  for (let i = 0; i < 500; i++) {
    const s = (await (await fetch(url + "/_cliff/status", { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    const session = s.sessions[0];
    if (session?.requests === turns) return session;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the status never showed the session's requests");
}

/** One session of `steps` results, the need at request `needAt` (the step needed, or the oldest the summary shows), with the recall tool or without. */
export async function session(steps: number, needAt: number, recallTool: boolean, step?: number): Promise<Bill> {
  const cache = new PromptCache();
  let chars = 0;
  const need: { step?: number; met: string } = { step, met: "" };
  const model = await recallModel(script(steps, needAt, need), 600_000, (raw) => ((chars += raw.length), 0));
  model.refuse = (s) => cache.refusal(s.body);
  model.anthropicUsage = (s, reply) => cache.usage(s.body, tokensOf(JSON.stringify(reply).length));
  const proxy = await serve(model.url, recallTool ? [] : ["--no-recall-tool"]);
  try {
    const turns = await agent(proxy.url);
    const s = await status(proxy.url, proxy.token, turns);
    if (model.refused.length > 0) throw new Error(`the model refused: ${model.refused.join("; ")}`);
    if (!/chars\)$/.test(need.met)) throw new Error(`the need for step ${need.step} was not met: ${need.met}`);
    return { upstream: model.seen.length, chars, clientTurns: turns, usage: s.usage, dollars: s.dollars, cliffs: s.cliffs, recalls: { calls: s.recalls.calls, rounds: s.recalls.rounds, tokens: s.recalls.tokens }, step: need.step!, met: need.met };
  } finally {
    proxy.stop();
    await model.close();
  }
}

const n = (x: number): string => x.toLocaleString("en-US");

/** The table: each size with the tool and without, the same session and the same need. */
export async function benchRecallBill(): Promise<void> {
  console.log(`recall: the bill of one need for a dropped output, with cliff_recall and without (serve --threshold ${n(THRESHOLD)} --keep-recent 1, ${MODEL}): at request 30 of 40 results, 70 of 80, the model needs the output of the oldest step the summary names, or of step 5, which no summary names any more`);
  console.log("| results | serve | upstream requests | client turns | chars sent | input | cache write | cache read | output | list price | cliffs | recalls (calls / rounds / tokens) | the need met by |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const steps of [40, 80]) {
    for (const step of [undefined, 5]) {
      const withTool = await session(steps, steps - 10, true, step);
      for (const b of [withTool, await session(steps, steps - 10, false, withTool.step)]) {
        const r = b.recalls;
        console.log(`| ${steps} | ${b === withTool ? "default" : "--no-recall-tool"} | ${b.upstream} | ${b.clientTurns} | ${n(b.chars)} | ${n(b.usage.input)} | ${n(b.usage.cacheWrite)} | ${n(b.usage.cacheRead)} | ${n(b.usage.output)} | $${b.dollars.toFixed(4)} | ${b.cliffs} | ${r.calls} / ${r.rounds} / ${n(r.tokens)} | ${b.met} |`);
      }
    }
  }
}
