/** Deterministic generated sessions for benchmarks: tool-heavy, mixed result sizes, some escapes and non-ASCII. */

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "parser token stream failed expected \"quote\" path/to/file.ts line col error warning build test passed ünïcode 日本 😀 tab\there".split(" ");

function text(r: () => number, chars: number): string {
  let out = "";
  while (out.length < chars) out += WORDS[Math.floor(r() * WORDS.length)] + (r() < 0.1 ? "\n" : " ");
  return out.slice(0, chars);
}

const PLAIN_WORDS = "the of and to in is that for it with as was on be by this are from at have an which or not were but can all their has been one more when will would there what about if out so up into than them some could only other then its also two like time these after first most over new may".split(" ");

function plainText(r: () => number, chars: number): string {
  let out = "";
  while (out.length < chars) out += PLAIN_WORDS[Math.floor(r() * PLAIN_WORDS.length)] + (r() < 0.12 ? "\n" : " ");
  return out.slice(0, chars);
}

/**
 * An Anthropic-dialect history of ordinary English: tool results of 1,000–13,000 characters of
 * words and newlines, assistant text of 300, no quotes, backslashes or non-ASCII.
 */
export function asciiSession(bytes: number, seed = 3): unknown[] {
  const r = rng(seed);
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing parser tests in repo widgets." }];
  let size = 100;
  for (let i = 0; size < bytes; i++) {
    const assistant = { role: "assistant", content: [{ type: "text", text: plainText(r, 300) }, { type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `grep -rn parse src/file_${i}.ts` } }] };
    const result = { role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: plainText(r, 1000 + Math.floor(r() * 12000)) }] };
    msgs.push(assistant, result);
    size += JSON.stringify(assistant).length + JSON.stringify(result).length;
  }
  return JSON.parse(JSON.stringify(msgs));
}

/** An Anthropic-dialect message list of roughly `bytes` characters. */
export function anthropicSession(bytes: number, seed = 1): unknown[] {
  const r = rng(seed);
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing parser tests in repo widgets." }];
  let size = 100;
  for (let i = 0; size < bytes; i++) {
    const thought = text(r, 80 + Math.floor(r() * 400));
    const assistant = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: text(r, 100 + Math.floor(r() * 300)), signature: "sig" + i },
        { type: "text", text: thought },
        { type: "tool_use", id: `tu_${i}`, name: r() < 0.5 ? "bash" : "read", input: { command: `cat src/file_${i}.ts | grep -n "${WORDS[i % WORDS.length]}"`, timeout: 30 } },
      ],
    };
    const long = r() < 0.6;
    const result = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: text(r, long ? 1500 + Math.floor(r() * 8000) : 50 + Math.floor(r() * 300)) }],
    };
    msgs.push(assistant, result);
    size += JSON.stringify(assistant).length + JSON.stringify(result).length;
  }
  // Round-trip so strings are flat, as they are when a host parses a request or a session file.
  return JSON.parse(JSON.stringify(msgs));
}

/** AgentParley's flat shape: {role, content: string}. */
export function flatSession(bytes: number, seed = 2): { role: string; content: string }[] {
  const r = rng(seed);
  const msgs = [{ role: "user", content: "Fix the failing parser tests in repo widgets." }];
  let size = 50;
  for (let i = 0; size < bytes; i++) {
    const a = { role: "assistant", content: text(r, 80 + Math.floor(r() * 400)) + `\n[bash] {"command":"make test-${i}"}` };
    const t = { role: "tool", content: text(r, r() < 0.6 ? 1500 + Math.floor(r() * 8000) : 50 + Math.floor(r() * 300)) };
    msgs.push(a, t);
    size += a.content.length + t.content.length;
  }
  return JSON.parse(JSON.stringify(msgs));
}

type Block = { type: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: string };

/** The same history in another dialect's shapes (text, thinking, tool calls and results carried over). */
export function inDialect(anthropic: unknown[], dialect: string): unknown[] {
  const out: unknown[] = [];
  for (const m of anthropic as { role: string; content: string | Block[] }[]) {
    const blocks: Block[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    const text = blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
    const calls = blocks.filter((b) => b.type === "tool_use");
    const results = blocks.filter((b) => b.type === "tool_result");
    if (dialect === "openai-chat") {
      if (m.role === "assistant") out.push({ role: "assistant", content: text, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })) });
      else if (results.length > 0) for (const r of results) out.push({ role: "tool", tool_call_id: r.tool_use_id, content: r.content });
      else out.push({ role: m.role, content: text });
    } else if (dialect === "openai-responses") {
      if (m.role === "assistant") {
        out.push({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
        for (const c of calls) out.push({ type: "function_call", call_id: c.id, name: c.name, arguments: JSON.stringify(c.input) });
      } else if (results.length > 0) for (const r of results) out.push({ type: "function_call_output", call_id: r.tool_use_id, output: r.content });
      else out.push({ type: "message", role: "user", content: [{ type: "input_text", text }] });
    } else if (dialect === "pi") {
      if (m.role === "assistant") out.push({ role: "assistant", content: [...blocks.filter((b) => b.type !== "tool_use"), ...calls.map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: c.input }))] });
      else if (results.length > 0) for (const r of results) out.push({ role: "toolResult", toolCallId: r.tool_use_id, toolName: "bash", content: [{ type: "text", text: r.content }], isError: false });
      else out.push({ role: "user", content: [{ type: "text", text }] });
    } else if (dialect === "plain") {
      if (m.role === "assistant") out.push({ role: "assistant", content: text + calls.map((c) => `\n[${c.name}] ${JSON.stringify(c.input)}`).join("") });
      else if (results.length > 0) for (const r of results) out.push({ role: "tool", content: r.content });
      else out.push({ role: "user", content: text });
    } else out.push(m);
  }
  return JSON.parse(JSON.stringify(out));
}
