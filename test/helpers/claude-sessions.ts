/**
 * Claude Code-shaped sessions from a seed: a long system prompt and tools, an opening user turn,
 * then turns of thinking (signed), text and tool calls answered by tool results of varied sizes,
 * sometimes a human message, sometimes the provider's own compaction block. Each request of a
 * session is the history up to one of its user turns, as Claude Code resends it.
 */

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["parser", "module", "widget", "test", "failing", "assert", "token", "buffer", "index", "config", "route", "handler", "cache", "schema", "error"];

function words(r: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += (i > 0 ? " " : "") + WORDS[Math.floor(r() * WORDS.length)];
  return s;
}

function output(r: () => number, i: number, scale: number): string {
  const size = Math.floor((r() < 0.25 ? 3000 + r() * 9000 : 40 + r() * 600) * scale);
  const lines: string[] = [];
  let n = 0;
  for (let l = 0; n < size; l++) {
    const line = `${i}:${l} ${words(r, 6)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

export interface ClaudeSession {
  system: unknown[];
  tools: unknown[];
  /** Every message, in order. */
  messages: unknown[];
  /** The number of messages each request sends (each ends on a user message). */
  requests: number[];
}

export interface SessionShape {
  turns: number;
  /** Tool outputs and the system prompt this many times their usual size (default 1). */
  scale?: number;
  /** Put the provider's compaction block in one assistant turn. */
  providerCompaction?: boolean;
  /** Sign thinking blocks with this (default: a fixed string). */
  sign?: (thinking: string, at: number) => string;
}

export function claudeSession(seed: number, shape: SessionShape): ClaudeSession {
  const r = rng(seed);
  const scale = shape.scale ?? 1;
  const system = [
    { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: "text", text: "Rules of the house. ".repeat(Math.ceil((60 + r() * 200) * scale)), cache_control: { type: "ephemeral" } },
  ];
  const tools = ["Bash", "Read", "Edit", "Grep"].map((name) => ({ name, description: `${name}: ${words(r, 20)}`, input_schema: { type: "object", properties: { arg: { type: "string" } } } }));
  const messages: unknown[] = [{ role: "user", content: [{ type: "text", text: "<system-reminder>\nAs you answer the user's questions, you can use the following context.\n</system-reminder>" }, { type: "text", text: `Fix the ${words(r, 3)} in repo widgets.` }] }];
  const requests = [1];
  const compactAt = shape.providerCompaction === true ? 3 + Math.floor(r() * Math.max(1, shape.turns - 6)) : -1;
  for (let t = 0; t < shape.turns; t++) {
    const content: unknown[] = [];
    if (t === compactAt) content.push({ type: "compaction", content: `Summary of the work so far: ${words(r, 40)}` });
    if (r() < 0.8) {
      const thinking = `Thinking about step ${t}: ${words(r, 10 + Math.floor(r() * 40))}`;
      content.push({ type: "thinking", thinking, signature: shape.sign?.(thinking, t) ?? `sig-${seed}-${t}` });
    }
    if (r() < 0.5) content.push({ type: "text", text: `Step ${t}: ${words(r, 8)}` });
    const calls = r() < 0.9 ? 1 + Math.floor(r() * 3) : 0;
    for (let k = 0; k < calls; k++) content.push({ type: "tool_use", id: `toolu_${seed}_${t}_${k}`, name: ["Bash", "Read", "Edit", "Grep"][Math.floor(r() * 4)], input: { arg: words(r, 3) } });
    if (content.length === 0) content.push({ type: "text", text: `Done with step ${t}.` });
    messages.push({ role: "assistant", content });
    const user: unknown[] = [];
    for (let k = 0; k < calls; k++) user.push({ type: "tool_result", tool_use_id: `toolu_${seed}_${t}_${k}`, content: output(r, t * 10 + k, scale) });
    if (calls === 0 || r() < 0.1) user.push({ type: "text", text: `Now ${words(r, 5)}.` });
    messages.push({ role: "user", content: user });
    requests.push(messages.length);
  }
  return { system, tools, messages, requests };
}

/**
 * The body of request `k` of a session (messages cloned: each request is parsed anew). As Claude
 * Code does, the newest message's last block carries the cache breakpoint, which moves every request.
 */
export function claudeBody(s: ClaudeSession, k: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 32000, system: s.system, tools: s.tools, messages: s.messages.slice(0, s.requests[k]), stream: true, ...extra })) as { messages: { content: Record<string, unknown>[] }[] };
  const last = body.messages[body.messages.length - 1].content;
  last[last.length - 1].cache_control = { type: "ephemeral" };
  return body;
}
