/**
 * What the proxy shows of the model's recalls, through `serve` against a scripted model that
 * recalls: the status counts each session's recalls (calls, rounds, tokens) by the cliff whose
 * summary named the ref, each cliff's bill its own, the totals the metrics' figures; each request's
 * event carries its cliff and the running counts; a session's last cliff says what it cost since;
 * `watch` shows them per session, in the header, the event's line and the last cliff; the web view's
 * script draws them per session and per cliff. A session with no recall shows zeros everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf, tokensOfChars } from "../../core/index.js";
import type { RunningProxy } from "../../proxy/index.js";
import { recallModel, recallsIn, type RecallModel, type Reply, type Seen } from "../helpers/recall-model.js";
import { parsePrometheus } from "../helpers/prometheus.js";
import { frame, short } from "../../cli/watch/frame.js";
import { cliffFrame } from "../../cli/watch/cliff.js";
import { proxyLine } from "../../cli/service/status.js";
import { PAGE_HTML } from "../../proxy/web/index.js";
import { runPage } from "../helpers/page-dom.js";
import { bashSteps, stepTexts } from "../helpers/recall-history.js";
import { eventBacklog } from "../helpers/event-backlog.js";
import { recallProxy } from "../helpers/recall-proxy.js";

const TOKEN = "recall-counts-test-token";
const TEXTS = stepTexts(24, 60, true);

const history = (steps: number): unknown[] => bashSteps(TEXTS, steps);

let model: RecallModel;
let proxy: RunningProxy;
/** The estimated tokens of every recall answer the model was given, in order. */
const answered: number[] = [];

/** One request of a session whose model follows `script` (recall answers counted as the model saw them). */
async function ask(session: string, steps: number, script: (s: Seen) => Reply): Promise<void> {
  const before = model.seen.length;
  model.script = script;
  const r = await fetch(proxy.url + "/v1/messages", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "x-claude-code-session-id": session },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 256, stream: true, tools: [{ name: "bash", input_schema: { type: "object" } }], messages: history(steps) }),
  });
  expect(r.status).toBe(200);
  expect(await r.text()).not.toContain("cliff_recall");
  for (const s of model.seen.slice(before)) for (const x of recallsIn(s)) answered.push(tokensOfChars(x.text.length));
}

/** `calls` recalls in one turn, then an answer. */
const recalling = (...inputs: Record<string, unknown>[]) => (s: Seen): Reply => (recallsIn(s).length > 0 || inputs.length === 0 ? { text: "Found it." } : { text: "Let me look.", calls: inputs.map((input) => ({ name: "cliff_recall", input })) });
const plain = (): Reply => ({ text: "Done." });

async function get(path: string): Promise<any> {
  const r = await fetch(proxy.url + path, { headers: { authorization: `Bearer ${TOKEN}` } });
  return path.endsWith("metrics") ? r.text() : r.json();
}
/** The status once every exchange has ended (usage is read before a session is updated). */
async function settled(requests: number): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const s = await get("/_cliff/status");
    if (s.sessions.reduce((n: number, x: any) => n + x.requests, 0) >= requests) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the sessions never showed their requests");
}

const backlog = (): Promise<any[]> => eventBacklog(proxy.url, TOKEN);

let status: any;
let withRecalls: any;
let without: any;
const sum = (xs: number[]): number => xs.reduce((n, x) => n + x, 0);

beforeAll(async () => {
  model = await recallModel(plain);
  proxy = await recallProxy(model.url, { adminToken: TOKEN, keepAliveMs: 50 });
  // Session "a" grows a step at a time: the first request of its first cliff recalls once, the next
  // recalls twice in one turn, the first request of its second cliff once; then it stops.
  const summaries: string[] = [];
  const plan: Record<string, unknown>[][][] = [[[{ ref: refOf(TEXTS[1]) }], [{ ref: refOf(TEXTS[2]) }, { search: "mod3.ts" }]], [[{ ref: refOf(TEXTS[3]) }]]];
  const seen: number[] = [];
  let requests = 0;
  while (summaries.length < 2) {
    if (++requests >= TEXTS.length) throw new Error("session a never made its second cliff");
    await ask("a", requests, (s) => {
      if (recallsIn(s).length > 0 || !s.tools.includes("cliff_recall")) return plain();
      const summary = JSON.stringify(s.body.messages[1]);
      if (!summaries.includes(summary)) summaries.push(summary);
      const cliff = summaries.indexOf(summary);
      seen[cliff] = (seen[cliff] ?? 0) + 1;
      return recalling(...(plan[cliff]?.[seen[cliff] - 1] ?? []))(s);
    });
  }
  // Session "b": cliffs, never recalls.
  for (let k = 1; k <= 8; k++) await ask("b", k, plain);
  status = await settled(requests + 8);
  withRecalls = status.sessions.find((x: any) => x.requests === requests);
  without = status.sessions.find((x: any) => x.requests === 8);
});
afterAll(async () => {
  await proxy?.close();
  await model?.close();
});

describe("the status", () => {
  it("counts a session's recalls, their rounds and tokens, by the cliff whose summary named the ref", () => {
    expect(model.refused).toEqual([]);
    expect(answered).toHaveLength(4);
    expect(answered[0]).toBe(tokensOfChars(TEXTS[1].length));
    expect(withRecalls.cliffs).toBe(2);
    expect(withRecalls.recalls).toMatchObject({ calls: 4, rounds: 3, tokens: sum(answered) });
    const [first, second] = withRecalls.recalls.cliffs;
    expect(withRecalls.recalls.cliffs).toHaveLength(2);
    expect(first).toEqual({ cut: expect.any(Number), summary: expect.stringMatching(/^[0-9a-f]{8}$/), calls: 3, rounds: 2, tokens: sum(answered.slice(0, 3)) });
    expect(second).toMatchObject({ calls: 1, rounds: 1, tokens: answered[3] });
    expect(second.cut).toBeGreaterThan(first.cut);
    expect(second.summary).not.toBe(first.summary);
  });

  it("each cliff's bill counts the recalls of its span", () => {
    expect(withRecalls.ledger.bills.map((b: any) => b.recalls)).toEqual([
      { calls: 3, rounds: 2, tokens: sum(answered.slice(0, 3)) },
      { calls: 1, rounds: 1, tokens: answered[3] },
    ]);
  });

  it("a session that never recalled shows zeros, its cliffs' bills too", () => {
    expect(without.cliffs).toBeGreaterThan(0);
    expect(without.recalls).toEqual({ calls: 0, rounds: 0, tokens: 0, cliffs: [] });
    for (const b of without.ledger.bills) expect(b.recalls).toEqual({ calls: 0, rounds: 0, tokens: 0 });
  });

  it("the totals are the sessions' sum and the metrics' figures", async () => {
    expect(status.recalls).toEqual({ calls: 4, rounds: 3, tokens: sum(answered) });
    const m = parsePrometheus(await get("/_cliff/metrics"));
    expect(m.sum("cliffcompaction_recalls_total", { api: "anthropic" })).toBe(4);
    expect(m.sum("cliffcompaction_recall_rounds_total", { api: "anthropic" })).toBe(3);
    expect(m.sum("cliffcompaction_recall_tokens_total", { api: "anthropic" })).toBe(sum(answered));
  });

  it("a session's last cliff says what its refs cost since: the newest cliff's recalls, zeros for one never recalled", async () => {
    const a = await get(`/_cliff/sessions/${withRecalls.id}/last-cliff`);
    expect(a.recalls).toEqual({ calls: 1, rounds: 1, tokens: answered[3] });
    expect([a.cut, a.summaryFp]).toEqual([withRecalls.recalls.cliffs[1].cut, withRecalls.recalls.cliffs[1].summary]);
    const b = await get(`/_cliff/sessions/${without.id}/last-cliff`);
    expect(b.recalls).toEqual({ calls: 0, rounds: 0, tokens: 0 });
  });
});

describe("the events", () => {
  it("a request's event carries its recalls, the cliff they count against and the running counts of that cliff and its session", async () => {
    const events = (await backlog()).filter((e) => e.session === withRecalls.id);
    const recalled = events.filter((e) => e.recall !== undefined);
    expect(recalled.map((e) => [e.recall.calls, e.recall.rounds, e.recall.cliff.calls, e.recall.session.calls])).toEqual([[1, 1, 1, 1], [2, 1, 3, 3], [1, 1, 1, 4]]);
    expect(recalled[2].recall).toMatchObject({ tokens: answered[3], ...withRecalls.recalls.cliffs[1], calls: 1, session: { calls: 4, rounds: 3, tokens: sum(answered) } });
    expect((await backlog()).filter((e) => e.session === without.id && e.recall !== undefined)).toEqual([]);
  });
});

describe("watch and status", () => {
  it("watch's frame: each session's recalls (0 for none), the totals, a request's line; a last cliff's view, what it cost since", async () => {
    const mine = (await backlog()).filter((e) => e.session === withRecalls.id);
    const lines = frame({ url: proxy.url, status, events: mine, paused: false, selected: 0, problem: null, now: Date.now() }, 200, 60, true);
    const row = (id: string): string => lines.find((l) => l.slice(2).startsWith(id))!;
    expect(row(withRecalls.id)).toMatch(new RegExp(` ${withRecalls.cliffs} +4 \\(${short(sum(answered))}\\) +\\d+%`));
    expect(row(without.id)).toMatch(new RegExp(` ${without.cliffs} +0 +\\d+%`));
    expect(lines[1]).toContain(` · recalls 4 (${short(sum(answered))} tokens) · `);
    expect(lines).toContainEqual(expect.stringContaining(` · recalls 1 (${short(answered[3])} tok), 1 since its cliff · `));
    expect(lines).toContainEqual(expect.stringContaining(` · recalls 2 (${short(answered[1] + answered[2])} tok), 3 since its cliff · `));
    const a = cliffFrame(await get(`/_cliff/sessions/${withRecalls.id}/last-cliff`), 200, 20, 0);
    expect(a[0]).toMatch(new RegExp(`, recalls since 1 \\(${short(answered[3])}\\)$`));
    expect(cliffFrame(await get(`/_cliff/sessions/${without.id}/last-cliff`), 200, 20, 0)[0]).toMatch(/, recalls since 0$/);
  });

  it("cliffcompaction status's proxy line: the recalls and their tokens", () => {
    expect(proxyLine(proxy.url, status)).toMatch(new RegExp(`, \\d+ requests, 4 recalls \\(${sum(answered).toLocaleString("en-US")} tokens\\)$`));
  });
});

describe("the web view", () => {
  it("draws each session's recalls (0 for none), the totals, each cliff's recalls and bill, the last cliff's, a request's line", async () => {
    const page = runPage(proxy.url, TOKEN);
    await page.settle();
    // The sessions table's column, where its head says.
    const heads = [...PAGE_HTML.slice(PAGE_HTML.indexOf('aria-label="sessions"')).split("</thead>")[0].matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    const column = heads.indexOf("recalls");
    expect(column).toBeGreaterThan(0);
    const cells = (id: string): string[] => page.$("sessions").children.find((r) => r.dataset.id === id)!.children.map((c) => c.textContent);
    expect(cells(withRecalls.id)[column]).toBe(`4 (${short(sum(answered))})`);
    expect(cells(without.id)[column]).toBe("0");
    expect(cells(without.id)).toHaveLength(heads.length);
    expect(page.$("totals").textContent).toContain(` · recalls 4 (${short(sum(answered))} tokens) · `);

    page.choose(withRecalls.id);
    await page.settle();
    const [first, second] = withRecalls.recalls.cliffs;
    expect(page.$("recalls").rows().flat()).toEqual([
      `cliff at message ${first.cut}: 3 recalls in 2 rounds, ${short(first.tokens)} tokens`,
      `cliff at message ${second.cut}: 1 recall in 1 round, ${short(second.tokens)} tokens`,
    ]);
    expect(page.$("bills").rows().flat().map((b) => b.replace(/.*, recalls /, ""))).toEqual([`3 (${short(first.tokens)})`, `1 (${short(second.tokens)})`]);
    expect(page.$("cliff-head").textContent).toMatch(new RegExp(`; recalls since: 1 \\(${short(answered[3])}\\)$`));
    for (const e of await backlog()) page.emit(e);
    await page.settle();
    const events = page.$("events").rows().flat();
    expect(events).toContainEqual(expect.stringContaining(` · recalls 1 (${short(answered[3])} tok), 1 since its cliff`));
    expect(events).toContainEqual(expect.stringContaining(` · recalls 2 (${short(answered[1] + answered[2])} tok), 3 since its cliff`));

    page.choose(without.id);
    await page.settle();
    expect(page.$("recalls").rows().flat()).toEqual(["none: the model recalled nothing a cliff dropped"]);
    for (const b of page.$("bills").rows().flat()) expect(b).toMatch(/, recalls 0$/);
    expect(page.$("cliff-head").textContent).toMatch(/; recalls since: 0$/);
    expect(page.$("events").rows().flat().join("\n")).not.toContain("recalls");
    expect(page.$("problem").hidden).toBe(true);
  });
});
