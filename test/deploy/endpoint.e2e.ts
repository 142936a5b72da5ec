/**
 * The transform endpoint against the proxy, on the built CLI: for every request of a real Claude
 * Code session from the corpus (the generated Claude Code-shaped session where the corpus is not
 * there), `POST /_cliff/v1/compact` on one replica gives the bytes another replica sends upstream.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSession } from "../../cli/readers/index.js";
import { claudeCodeSession, type SessionRequest } from "./claude-session.js";
import { send, startReplica } from "./cluster.js";
import { Processes, ROOT } from "./infra.js";
import { deployUpstream, type DeployUpstream } from "./upstream.js";

/** The corpus at ../shared/corpus, or where CLIFF_CORPUS says (a worktree elsewhere). */
const CORPUS = join(process.env.CLIFF_CORPUS ?? join(ROOT, "..", "shared", "corpus"), "claudecode_fundwise.jsonl");
const TOKEN = "deploy-endpoint-token-0123456789";

let procs: Processes;
let up: DeployUpstream;
beforeAll(async () => {
  procs = new Processes();
  up = await deployUpstream(1);
});
afterAll(async () => {
  await procs?.stopAll();
  await up?.close();
});

/** Every request of the corpus session: the history before each of its assistant turns, in Claude Code's envelope. */
function corpusRequests(): { name: string; requests: SessionRequest[] } {
  if (!existsSync(CORPUS)) {
    console.log(`test:deploy endpoint: no corpus at ${CORPUS}; the generated Claude Code-shaped session instead`);
    return { name: "the generated Claude Code-shaped session (no corpus here)", requests: claudeCodeSession(64) };
  }
  const { messages, dialect } = readSession(readFileSync(CORPUS, "utf8"), CORPUS);
  expect(dialect).toBe("anthropic");
  const envelope = JSON.parse(claudeCodeSession(1)[1].body) as Record<string, unknown>;
  const headers = claudeCodeSession(1)[1].headers;
  const requests: SessionRequest[] = [];
  messages.forEach((m, k) => {
    if ((m as { role?: string }).role !== "assistant" || k === 0) return;
    const seq = requests.length;
    requests.push({ seq, kind: "turn", headers: { ...headers, "x-test-seq": String(seq) }, body: JSON.stringify({ ...envelope, messages: messages.slice(0, k) }) });
  });
  return { name: "corpus claudecode_fundwise.jsonl", requests };
}

describe("the transform endpoint over a corpus session", () => {
  it("gives, for every request, the bytes and headers the proxy sends upstream", async () => {
    const tokenFile = join(procs.dir, "admin-token");
    writeFileSync(tokenFile, TOKEN + "\n", { mode: 0o600 });
    const flags = ["--admin-token-file", tokenFile];
    const [proxy, endpoint] = [await startReplica(procs, "proxy", up.urls[0], 0, flags), await startReplica(procs, "endpoint", up.urls[0], 0, flags)];
    const { name, requests } = corpusRequests();
    expect(requests.length).toBeGreaterThan(20);
    const actions: Record<string, number> = {};
    let bytes = 0;
    let changed = 0;
    for (const r of requests) {
      const from = up.arrivals.length;
      expect((await send(proxy.url, r, 1)).status).toBe(200);
      const sent = up.arrivals.slice(from);
      expect(sent).toHaveLength(1);
      const res = await fetch(endpoint.url + "/_cliff/v1/compact", { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ api: "anthropic", body: r.body, headers: r.headers }) });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { body: string; headers: Record<string, string>; verdict: { action: string } };
      expect(answer.body === sent[0].body, `request ${r.seq}`).toBe(true);
      for (const [k, v] of Object.entries({ ...r.headers, ...answer.headers })) expect(sent[0].headers[k.toLowerCase()], `request ${r.seq}: header ${k}`).toBe(v);
      actions[answer.verdict.action] = (actions[answer.verdict.action] ?? 0) + 1;
      bytes += Buffer.byteLength(answer.body);
      if (answer.body !== r.body) changed++;
    }
    expect(actions.cliff ?? 0).toBeGreaterThan(0);
    expect(actions.reuse ?? 0).toBeGreaterThan(0);
    console.log(`test:deploy endpoint: ${name}, ${requests.length} requests, ${(bytes / 1e6).toFixed(1)} MB: the endpoint's bodies are the proxy's, byte for byte, ${changed} of them changed (${Object.entries(actions).map(([a, n]) => `${n} ${a}`).join(", ")})`);
  });
});
