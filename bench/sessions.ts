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
