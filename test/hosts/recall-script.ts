/**
 * The script a real Pi (or OMP) session runs against, on the scripted model of
 * test/helpers/recall-model.ts (Anthropic Messages, its request rules enforced): shell calls whose
 * outputs are large and distinct until two different cliff summaries have reached the model, then
 * `cliff_recall` with the oldest ref the first summary named (dropped by the first compaction, out
 * of the context since the second), a `{search}` for a line of that text, a ref no text has, and a
 * final answer that says whether the text came back byte for byte. It keeps every tool result it
 * saw whole, by ref, and what each recall call got back, as the host sent it.
 */
import { createHash } from "node:crypto";
import { recallModel, type RecallModel, type Reply, type Seen } from "../helpers/recall-model.js";

export const RECALL = "cliff_recall";
const SUMMARY_HEADER = "The following is a summary of your previous actions";
const DROPPED_REF = /result: dropped [\d,]+ chars, ref ([0-9a-f]{12})/g;

export const refOf = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);

/** A recall call the script made and what the tool result the host sent back held. */
export interface Asked {
  input: Record<string, string>;
  got?: { text: string; isError: boolean };
}

export interface PiRecall {
  model: RecallModel;
  /** The distinct summaries seen, in order, with the refs each names. */
  summaries: { text: string; refs: string[] }[];
  /** Every tool result seen whole, by ref. */
  known: Map<string, string>;
  shellCalls: number;
  /** The recall tool's name on the wire (OMP prefixes its tools' names with "_" on the Anthropic API). */
  via?: string;
  /** The recall by ref: the text it must bring back, and where that text stood when the model asked. */
  byRef?: Asked & { expected: string; afterSummaries: number; namedByCurrentSummary: boolean; inRequest: boolean };
  search?: Asked & { line: string };
  unknown?: Asked;
  final?: string;
}

const textOf = (content: unknown): string => (typeof content === "string" ? content : Array.isArray(content) ? content.map((b: any) => (typeof b?.text === "string" ? b.text : "")).join("\n") : "");

/** The cliff summary the request carries (Pi sends it in a user message, inside <summary> tags), or null. */
function summaryIn(body: Record<string, any>): string | null {
  for (const m of body.messages ?? []) {
    if (m.role !== "user") continue;
    const text = textOf(m.content);
    const at = text.indexOf(SUMMARY_HEADER);
    if (at < 0) continue;
    const end = text.indexOf("\n</summary>", at);
    return text.slice(at, end < 0 ? text.length : end);
  }
  return null;
}

const toolResults = (body: Record<string, any>): string[] =>
  (body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === "tool_result").map((b: any) => textOf(b.content)));

// 800 lines of 21 characters: one recall page (20,000), under Pi's 2,000-line cap on a shell output.
const seq = (k: number): string => `seq -f '%020g' ${k * 100_000} ${k * 100_000 + 799}`;
// OMP prefixes its tools' names with "_" on the Anthropic API.
const SHELLS = ["bash", "_bash"];
const RECALLS = [RECALL, "_" + RECALL];
const bash = (shell: string, command: string): Reply => ({ calls: [{ name: shell, input: { command } }] });
const recall = (s: PiRecall, input: Record<string, string>): Reply => ({ calls: [{ name: s.via!, input }] });

/** The answer to the recall the last turn asked for; the next call, or the final text. */
function afterRecall(s: PiRecall, got: { text: string; isError: boolean }): Reply {
  const r = s.byRef!;
  if (r.got === undefined) {
    r.got = got;
    const line = r.expected.split("\n")[6];
    s.search = { input: { search: line }, line };
    return recall(s, s.search.input);
  }
  if (s.search!.got === undefined) {
    s.search!.got = got;
    let ref = refOf("a text no session holds");
    while (s.known.has(ref)) ref = refOf(ref);
    s.unknown = { input: { ref } };
    return recall(s, s.unknown.input);
  }
  s.unknown!.got = got;
  s.final = r.got.text === r.expected ? `ALL DONE: recalled ${r.input.ref}, ${r.expected.length} chars, byte for byte` : `RECALL MISMATCH ${r.input.ref}`;
  return { text: s.final };
}

function decide(s: PiRecall, seen: Seen, maxCalls: number): Reply {
  const shell = seen.tools.find((t) => SHELLS.includes(t));
  if (shell === undefined) return { text: "ok" };
  const summary = summaryIn(seen.body);
  if (summary !== null && !s.summaries.some((x) => x.text === summary)) s.summaries.push({ text: summary, refs: [...summary.matchAll(DROPPED_REF)].map((m) => m[1]) });
  const results = toolResults(seen.body);
  for (const t of results) if (!s.known.has(refOf(t))) s.known.set(refOf(t), t);
  const answered = s.via === undefined ? undefined : seen.results.find((r) => r.name === s.via);
  if (answered !== undefined && s.byRef !== undefined) return afterRecall(s, { text: answered.text, isError: answered.isError });
  if (s.byRef !== undefined) return { text: "RECALL LOST: the tool's answer never came back" };
  const via = seen.tools.find((t) => RECALLS.includes(t));
  if (s.summaries.length >= 2 && summary !== null && via !== undefined) {
    const ref = s.summaries[0].refs.find((r) => s.known.has(r));
    if (ref !== undefined) {
      const expected = s.known.get(ref)!;
      s.via = via;
      s.byRef = { input: { ref }, expected, afterSummaries: s.summaries.length, namedByCurrentSummary: summary.includes(ref), inRequest: results.includes(expected) };
      return recall(s, s.byRef.input);
    }
  }
  if (s.shellCalls >= maxCalls) return { text: "GAVE UP: no ref to recall" };
  return bash(shell, seq(++s.shellCalls));
}

/** The scripted model, with the usage a provider reports (a body's characters / 4), so the host's threshold sees the context grow. */
export async function piRecallModel(maxCalls = 16, lifetimeMs = 600_000): Promise<PiRecall> {
  const state = { summaries: [], known: new Map(), shellCalls: 0 } as unknown as PiRecall;
  state.model = await recallModel((seen) => decide(state, seen, maxCalls), lifetimeMs, (raw) => Math.ceil(raw.length / 4));
  return state;
}
