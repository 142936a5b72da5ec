import { readFileSync } from "node:fs";
import { compact, estimateTokens } from "../core/index.js";
import { time } from "../bench/util.js";
import { anthropicSession } from "../bench/sessions.js";
const pi = readFileSync("/work/shared/corpus/pi-large-session.jsonl","utf8").split("\n").filter(Boolean).map(l=>JSON.parse(l)).filter(e=>e.type==="message").map(e=>e.message);
const traj = (JSON.parse(readFileSync("/work/shared/corpus/minisweagent-marshmallow-1343.traj.json","utf8")).messages as any[]).map(({extra, ...m}) => m);
const mixed = anthropicSession(1e7);
for (const [name, m, d] of [["pi", pi, "pi"], ["traj", traj, "openai-chat"], ["mixed", mixed, "anthropic"]] as const) {
  const r = name === "mixed" ? 15 : 60;
  const s = time(() => JSON.stringify(m), r, 3);
  const c = time(() => compact(m as any, d, { keepRecent: 3 })?.messages, r, 3);
  const e = time(() => estimateTokens({ messages: m }), r, 3);
  console.log(name, m.length, "msgs", "stringify", s.toFixed(3), "compact", c.toFixed(3), (c/s).toFixed(2), "estimate", e.toFixed(3), (e/s).toFixed(2), "sum", ((c+e)/s).toFixed(2));
}
