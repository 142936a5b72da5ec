/** The Pi hook (live set + cliff + summary string) on a branch of about 1M estimated tokens (target < 100 ms). */
import { estimateTokens, resolveConfig } from "../core/index.js";
import { compactSession } from "../pi-extension/hook.js";
import { liveFromEntries } from "../core/pi/session.js";
import { fmt, time } from "./util.js";

function branch(targetTokens: number): unknown[] {
  const entries: unknown[] = [{ type: "message", id: "e0", parentId: null, message: { role: "user", content: [{ type: "text", text: "Refactor the storage layer." }] } }];
  let chars = 0;
  for (let i = 0; chars / 4 < targetTokens; i++) {
    const out = `chunk ${i}: ` + "storage row data ".repeat(i % 3 === 0 ? 600 : 20);
    entries.push({ type: "message", id: `a${i}`, parentId: null, message: { role: "assistant", content: [{ type: "text", text: `Step ${i}: reading shard ${i}.` }, { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `src/shard${i}.ts` } }] } });
    entries.push({ type: "message", id: `r${i}`, parentId: null, message: { role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: out }], isError: false } });
    chars += out.length + 120;
  }
  return JSON.parse(JSON.stringify(entries));
}

export function benchPi(): void {
  const entries = branch(1_000_000);
  const messages = entries.map((e) => (e as { message: unknown }).message);
  const tokens = estimateTokens({ messages });
  const cfg = resolveConfig();
  const ms = time(() => compactSession(liveFromEntries(entries), cfg, { reason: "threshold" }), 5, 1);
  const r = compactSession(liveFromEntries(entries), cfg, { reason: "threshold" })!;
  console.log(`pi: session_before_compact hook on ${entries.length} entries, ${tokens.toLocaleString("en-US")} estimated tokens: ${fmt(ms)} (target < 100 ms); summary ${r.summary.length.toLocaleString("en-US")} chars, ${r.details.estTokensOut.toLocaleString("en-US")} tokens after`);
}
