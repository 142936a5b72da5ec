/** A growing, tool-heavy flat session in AgentParley's {role, content} shape, with a unique marker in every message. */

export interface FlatMessage {
  role: string;
  content: string;
}

export const TASK: FlatMessage = { role: "user", content: "TASK-0: make `npm test` pass in repo widgets; the failing suite is parser.spec.ts." };

/** Turns of cycle `c`: assistant steps with tool calls, results alternating short/long, deterministic. */
export function cycleTurns(c: number, turns = 12): FlatMessage[] {
  const out: FlatMessage[] = [];
  for (let t = 0; t < turns; t++) {
    const id = `M${c}.${t}`;
    out.push({ role: "assistant", content: `Step ${id}: I will run the parser tests (attempt ${t}).` });
    const long = (c * 7 + t) % 3 !== 0;
    out.push({
      role: "tool",
      content: long ? `log ${id}\n` + `line of noisy output ${id}\n`.repeat(80) : `ok ${id}: 3 passed`,
    });
  }
  return out;
}

export function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}
