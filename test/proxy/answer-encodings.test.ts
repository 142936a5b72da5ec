/**
 * Every answer readable: Codex 0.171 offers `accept-encoding: zstd,gzip`, and the proxy reads each
 * answer it relays (usage, the bill, a context-length refusal, a refusal we caused). The upstream
 * is offered only what this runtime decodes (zstd where Node has it, 22.15 on), in the client's
 * order; the client gets its answer in an encoding it offered. The mock upstream answers in the
 * first encoding of the offer it can produce, so on a runtime with zstd it answers zstd.
 */
import http from "node:http";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECODERS, decoderOf, readableOffer, withReadableOffer, type Decode } from "../../proxy/encoding.js";
import { decodedText } from "../../proxy/decision/reactive.js";
import { UsageTap } from "../../proxy/observe/usage.js";
import { listenLoopback } from "../helpers/mock-upstream.js";

const z = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer; zstdDecompressSync?: Decode };
const RUNTIME_ZSTD = typeof z.zstdDecompressSync === "function";
const CODEX_OFFER = "zstd,gzip";
const WITHOUT_ZSTD: Record<string, Decode> = { gzip: zlib.gunzipSync, "x-gzip": zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };

describe("the offer sent upstream", () => {
  it("keeps the client's codings this runtime decodes, in its order with its weights", () => {
    expect(readableOffer("zstd,gzip", WITHOUT_ZSTD)).toBe("gzip");
    expect(readableOffer("br;q=0.5, zstd, gzip;q=0.8", WITHOUT_ZSTD)).toBe("br;q=0.5, gzip;q=0.8");
    expect(readableOffer("zstd, identity;q=0.1", WITHOUT_ZSTD)).toBe("identity;q=0.1");
    expect(readableOffer("zstd, *", WITHOUT_ZSTD)).toBe("identity");
    expect(readableOffer("zstd", WITHOUT_ZSTD)).toBe("identity");
    expect(readableOffer("zstd, gzip;q=0", WITHOUT_ZSTD)).toBe("identity");
  });

  it("sends an offer it can read as it came, and the client's own when the client refuses identity", () => {
    expect(readableOffer("gzip, deflate, br", WITHOUT_ZSTD)).toBe("gzip, deflate, br");
    expect(readableOffer("zstd,gzip", { ...WITHOUT_ZSTD, zstd: (b) => b })).toBe("zstd,gzip");
    expect(readableOffer("zstd, identity;q=0", WITHOUT_ZSTD)).toBe("zstd, identity;q=0");
    expect(readableOffer("zstd, *;q=0", WITHOUT_ZSTD)).toBe("zstd, *;q=0");
    const h = { "accept-encoding": "gzip" };
    expect(withReadableOffer(h, WITHOUT_ZSTD)).toBe(h);
    expect(withReadableOffer({ "accept-encoding": "zstd,gzip", "x-other": "1" }, WITHOUT_ZSTD)).toEqual({ "accept-encoding": "gzip", "x-other": "1" });
  });

  it("decodes zstd exactly where the runtime has a decoder", () => {
    expect("zstd" in DECODERS).toBe(RUNTIME_ZSTD);
    expect(decoderOf("zstd") === null).toBe(!RUNTIME_ZSTD);
    expect(decoderOf("ZSTD", WITHOUT_ZSTD)).toBeNull();
    expect(readableOffer(CODEX_OFFER)).toBe(RUNTIME_ZSTD ? CODEX_OFFER : "gzip");
  });

  it.runIf(RUNTIME_ZSTD)("reads usage and refusals from zstd answers", async () => {
    const body = Buffer.from(JSON.stringify({ usage: { input_tokens: 900, input_tokens_details: { cached_tokens: 400 }, output_tokens: 21 } }));
    const tap = new UsageTap("application/json", "zstd");
    tap.push(z.zstdCompressSync!(body));
    tap.end();
    expect(await tap.done).toMatchObject({ input: 500, cacheRead: 400, output: 21 });
    expect(decodedText(z.zstdCompressSync!(Buffer.from('{"error":{"code":"context_length_exceeded"}}')), "zstd")).toContain("context_length_exceeded");
  });
});

// ---- a Codex-shaped session through `serve` ----

/** What the mock can produce, best first among what it was offered. */
const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  ...(z.zstdCompressSync !== undefined ? { zstd: z.zstdCompressSync } : {}),
  gzip: zlib.gzipSync, br: zlib.brotliCompressSync, deflate: zlib.deflateSync,
};
const CLIENT_DECODERS: Record<string, (b: Buffer) => Buffer> = {
  ...(z.zstdDecompressSync !== undefined ? { zstd: (b: Buffer) => z.zstdDecompressSync!(b, { maxOutputLength: 1 << 30 }) } : {}),
  gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync, deflate: zlib.inflateSync,
};

/** The first coding of the offer (q > 0) the mock can produce, else identity. */
function pick(offer: string | undefined): string {
  for (const part of (offer ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";").map((s) => s.trim());
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) continue;
    if (ENCODERS[name.toLowerCase()] !== undefined) return name.toLowerCase();
  }
  return "identity";
}

interface Seen {
  offer: string | undefined;
  encoding: string;
  body: string;
}

const USAGE = { input_tokens: 4321, input_tokens_details: { cached_tokens: 1234 }, output_tokens: 56, output_tokens_details: { reasoning_tokens: 7 }, total_tokens: 4377 };
const MARK = "The following is a summary of your previous actions";

type Mode = "ok" | "context" | "ours";
let mode: Mode = "ok";
const seen: Seen[] = [];
let closeMock: () => Promise<void>;
let mockUrl = "";

function answer(body: string): { status: number; type: string; text: string } {
  const compacted = body.includes(MARK);
  if (compacted && mode === "context") {
    mode = "ok";
    return { status: 400, type: "application/json", text: JSON.stringify({ error: { message: "Your input exceeds the context window of this model.", type: "invalid_request_error", code: "context_length_exceeded" } }) };
  }
  if (compacted && mode === "ours") return { status: 400, type: "application/json", text: JSON.stringify({ error: { message: "input[3]: a rule nobody foresaw", type: "invalid_request_error", code: "invalid_value" } }) };
  const item = { type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "done", annotations: [] }] };
  const response = { id: "resp_1", object: "response", status: "completed", model: "gpt-5.6-sol", output: [item], usage: USAGE };
  const events = [
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [], usage: null } },
    { type: "response.output_text.delta", sequence_number: 1, item_id: "msg_1", output_index: 0, content_index: 0, delta: "done" },
    { type: "response.completed", sequence_number: 2, response },
  ];
  return { status: 200, type: "text/event-stream", text: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("") };
}

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const offer = req.headers["accept-encoding"];
      const encoding = pick(offer);
      seen.push({ offer, encoding, body });
      const a = answer(body);
      const bytes = encoding === "identity" ? Buffer.from(a.text) : ENCODERS[encoding](Buffer.from(a.text));
      res.writeHead(a.status, { "content-type": a.type, "content-length": String(bytes.length), ...(encoding === "identity" ? {} : { "content-encoding": encoding }) });
      res.end(bytes);
    });
  });
  const l = await listenLoopback(server, 120_000);
  mockUrl = l.url;
  closeMock = l.close;
});
afterAll(async () => {
  await closeMock();
});

/**
 * The Nodes `serve` runs on here: the test runtime's (zstd from 22.15) and, when the machine has
 * one, a Node without zstd (Node 20), so both offers are seen end to end.
 */
function runtimes(): { node: string; zstd: boolean }[] {
  const hasZstd = (node: string): boolean | null => {
    const r = spawnSync(node, ["-p", "typeof require('node:zlib').zstdDecompressSync === 'function'"], { encoding: "utf8", timeout: 10_000 });
    return r.status === 0 ? r.stdout.trim() === "true" : null;
  };
  const found = [{ node: process.execPath, zstd: RUNTIME_ZSTD }];
  const other = (process.env.PATH ?? "").split(":").map((d) => join(d, "node")).find((n) => existsSync(n) && hasZstd(n) === !RUNTIME_ZSTD);
  if (other !== undefined) found.push({ node: other, zstd: !RUNTIME_ZSTD });
  return found;
}

async function serve(node: string, home: string): Promise<{ url: string; child: ChildProcess }> {
  const flags = ["--profile", "reference", "--threshold", "3000", "--keep-recent", "1", "--min-gain-tokens", "0", "--chatgpt-upstream", mockUrl, "--openai-upstream", mockUrl + "/v1"];
  const child = spawn(node, ["dist/cli.mjs", "serve", "--port", "0", "--quiet", ...flags], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") } });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve did not start: " + err)), 20_000);
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /proxy on (http:\/\/[\d.:]+)/.exec(err);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { url, child };
}

/** Codex 0.171's request shape: ChatGPT's backend path, its headers, a streamed Responses body. */
function codexBody(turns: number): string {
  const input: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Fix the failing test in the parser." }] }];
  for (let i = 0; i < turns; i++) {
    input.push({ type: "function_call", call_id: `call_${i}`, name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", `cat src/mod_${i}.rs`] }) });
    input.push({ type: "function_call_output", call_id: `call_${i}`, output: `fn mod_${i}() {}\n`.repeat(120) });
  }
  return JSON.stringify({ model: "gpt-5.6-sol", instructions: "You are Codex.", input, tools: [], tool_choice: "auto", parallel_tool_calls: false, reasoning: { effort: "medium", summary: "auto" }, store: false, stream: true, include: ["reasoning.encrypted_content"], prompt_cache_key: "conv-enc" });
}

interface Got {
  status: number;
  encoding: string;
  text: string;
}

function post(url: string, body: string, session: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(url + "/backend-api/codex/responses", {
      method: "POST",
      headers: {
        "content-type": "application/json", accept: "text/event-stream", "accept-encoding": CODEX_OFFER, authorization: "Bearer chatgpt-token",
        "chatgpt-account-id": "acct", originator: "codex_exec", "user-agent": "codex_exec/0.171.0", version: "0.171.0", session_id: session, conversation_id: session,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const encoding = String(res.headers["content-encoding"] ?? "identity");
        const raw = Buffer.concat(chunks);
        const decode = encoding === "identity" ? (b: Buffer) => b : CLIENT_DECODERS[encoding];
        resolve({ status: res.statusCode ?? 0, encoding, text: decode === undefined ? "" : decode(raw).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const accepted = (encoding: string): boolean => encoding === "identity" || CODEX_OFFER.split(",").includes(encoding);

describe.each(runtimes())("a Codex-shaped session through serve ($node, zstd: $zstd) with accept-encoding: zstd,gzip", ({ node, zstd }) => {
  let home: string;
  let proxy: { url: string; child: ChildProcess };
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "cliff-enc-"));
    proxy = await serve(node, home);
  });
  afterAll(() => {
    proxy?.child.kill("SIGTERM");
    rmSync(home, { recursive: true, force: true });
  });

  const status = async (): Promise<any> => (await fetch(proxy.url + "/_cliff/status")).json();

  it("the upstream is offered what the proxy reads, answers in the client's encoding, and usage in status is the mock's", async () => {
    const from = seen.length;
    const answers: Got[] = [];
    for (let t = 1; t <= 6; t++) answers.push(await post(proxy.url, codexBody(t), "enc-usage"));
    const upstream = seen.slice(from);
    expect(upstream).toHaveLength(6);
    for (const s of upstream) expect(s.offer).toBe(zstd ? CODEX_OFFER : "gzip");
    // With zstd in the runtime the mock really answers zstd, which the proxy must decode.
    for (const s of upstream) expect(s.encoding).toBe(zstd ? "zstd" : "gzip");
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(accepted(a.encoding)).toBe(true);
      expect(a.text).toContain("response.completed");
    }
    expect(upstream.some((s) => s.body.includes(MARK))).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    const s = await status();
    const session = s.sessions.find((x: any) => x.model === "gpt-5.6-sol" && x.requests === 6);
    expect(session, JSON.stringify(s.sessions)).toBeDefined();
    // Six answers, each with the mock's usage: 4321 prompt tokens of which 1234 cached, 56 out.
    expect(session.usage).toMatchObject({ input: 6 * (4321 - 1234), cacheRead: 6 * 1234, output: 6 * 56 });
    expect(session.dollars).toBeGreaterThan(0);
  });

  it("a context-length refusal in the client's encoding escalates", async () => {
    const before = await status();
    const from = seen.length;
    mode = "context";
    const a = await post(proxy.url, codexBody(8), "enc-context");
    expect(mode).toBe("ok");
    expect(a.status).toBe(200);
    expect(a.text).toContain("response.completed");
    const upstream = seen.slice(from);
    expect(upstream).toHaveLength(2);
    expect(upstream[0].encoding).toBe(zstd ? "zstd" : "gzip");
    expect(upstream[1].body.length).toBeLessThan(upstream[0].body.length);
    const after = await status();
    expect(after.escalations - before.escalations).toBe(1);
  });

  it("a refusal we caused, in the client's encoding, falls back to the client's own bytes", async () => {
    const before = await status();
    const from = seen.length;
    mode = "ours";
    const bodies = [codexBody(8), codexBody(9)];
    const answers: Got[] = [];
    for (const b of bodies) answers.push(await post(proxy.url, b, "enc-fallback"));
    mode = "ok";
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toContain("response.completed");
    }
    const upstream = seen.slice(from);
    expect(upstream).toHaveLength(4);
    for (const i of [0, 2]) expect(upstream[i].body).toContain(MARK);
    expect([upstream[1].body, upstream[3].body]).toEqual(bodies);
    expect(upstream[1].offer).toBe(zstd ? CODEX_OFFER : "gzip");
    const after = await status();
    expect(after.fallbacks - before.fallbacks).toBe(2);
    // The error body was read: its type is the provider's.
    expect(after.sessions.find((x: any) => x.fallbacks === 2)?.fallback).toEqual({ count: 2, status: 400, type: "invalid_request_error" });
  });
});
