/**
 * What the HTML report shows, computed: the session's token anatomy by content class, and for each
 * cliff what was kept verbatim, excerpted and dropped (each dropped tool result with its size and
 * the call that produced it), and the files read and modified.
 */
import { arr, billableChars, filesTouched, getDialect, imagePayload, imageTokens, isObj, obj, partKind, str, tokensOfChars, type CompactResult, type Config, type DialectName, type FileLists } from "../../core/index.js";

export interface Anatomy {
  toolResults: number;
  toolCalls: number;
  assistantText: number;
  humanText: number;
  images: number;
}

const RESULT_ROLES = new Set(["tool", "toolResult", "function", "observation", "tool_result", "toolresult"]);
const ASSISTANT_ROLES = new Set(["assistant", "model", "ai"]);

/** Content class of one block (or item) by its type, given the role of its message. */
function blockClass(type: string, assistant: boolean): keyof Anatomy {
  if (type === "tool_result" || type.endsWith("_output") || type === "search_result" || type.endsWith("_tool_result")) return "toolResults";
  if (type === "tool_use" || type === "toolCall" || type.endsWith("_call") || type === "server_tool_use" || type === "mcp_tool_use") return "toolCalls";
  return assistant ? "assistantText" : "humanText";
}

function addBlock(a: Anatomy, block: unknown, assistant: boolean): void {
  const b = obj(block);
  const payload = isObj(block) ? imagePayload(b) : undefined;
  if (payload !== undefined) {
    a.images += imageTokens(payload);
    return;
  }
  const source = obj(b.source);
  if (b.type === "image" && typeof source.data === "string") {
    a.images += imageTokens(source.data);
    return;
  }
  a[blockClass(str(b.type), assistant)] += tokensOfChars(billableChars(block));
}

/** A Gemini content's part: a call, a response, an image, or text (the model's own or the user's). */
function addGeminiPart(a: Anatomy, part: unknown, assistant: boolean): void {
  const p = obj(part);
  if (isObj(p.functionCall)) a.toolCalls += tokensOfChars(billableChars(p.functionCall));
  else if (isObj(p.functionResponse)) a.toolResults += tokensOfChars(billableChars(p.functionResponse));
  else if (isObj(p.inlineData)) addBlock(a, p.inlineData, assistant);
  else a[assistant ? "assistantText" : "humanText"] += tokensOfChars(billableChars(part));
}

/** Estimated tokens of a message list by content class (a structural walk; every dialect's shapes). */
export function anatomy(messages: readonly unknown[]): Anatomy {
  const a: Anatomy = { toolResults: 0, toolCalls: 0, assistantText: 0, humanText: 0, images: 0 };
  for (const message of messages) {
    const m = obj(message);
    const role = str(m.role);
    const assistant = ASSISTANT_ROLES.has(role.toLowerCase());
    if (typeof m.type === "string" && m.type !== "message") {
      addBlock(a, m, assistant);
      continue;
    }
    if (RESULT_ROLES.has(role) || role === "bashExecution") {
      a.toolResults += tokensOfChars(billableChars(m));
      continue;
    }
    if (Array.isArray(m.parts) && m.content === undefined) {
      for (const p of m.parts) addGeminiPart(a, p, assistant);
      continue;
    }
    const calls = arr(m.tool_calls);
    if (calls.length > 0) a.toolCalls += tokensOfChars(billableChars(calls));
    if (Array.isArray(m.content)) for (const b of m.content) addBlock(a, b, assistant);
    else a[assistant ? "assistantText" : "humanText"] += tokensOfChars(billableChars(m.content ?? ""));
  }
  return a;
}

export interface DroppedResult {
  chars: number;
  /** The call signature the result answered (the last call before it), "" when none was seen. */
  call: string;
}

export interface CliffDetail {
  step: number;
  before: number;
  after: number;
  rung: number;
  summaryText: string;
  /** Messages kept verbatim: the head, and the tail after the cut. */
  head: unknown[];
  tail: unknown[];
  /** Messages the summary replaced. */
  replaced: number;
  dropped: DroppedResult[];
  files: FileLists;
}

/** The tool results the length rule dropped from the compacted span, each with the call it answered. */
export function droppedResults(span: readonly unknown[], dialect: DialectName, cfg: Config): DroppedResult[] {
  const d = getDialect(dialect);
  const all = { cfg: { ...cfg, resultMaxChars: Number.MAX_SAFE_INTEGER } };
  const out: DroppedResult[] = [];
  let call = "";
  for (const m of span) {
    for (const part of d.summarize(m, all)) {
      for (const line of part.split("\n")) if (line.startsWith("[")) call = line;
      if (partKind(part) === "result" && part.length - "result: ".length > cfg.resultMaxChars) out.push({ chars: part.length - "result: ".length, call });
    }
  }
  return out;
}

/** What one cliff kept, excerpted and dropped. */
export function cliffDetail(step: number, input: readonly unknown[], r: CompactResult, rung: number, before: number, after: number, dialect: DialectName, cfg: Config): CliffDetail {
  const span = input.slice(r.headLen, r.cut);
  return {
    step, before, after, rung, summaryText: r.summaryText,
    head: input.slice(0, r.headLen), tail: input.slice(r.cut), replaced: span.length,
    dropped: droppedResults(span, dialect, cfg), files: filesTouched(span, dialect),
  };
}
