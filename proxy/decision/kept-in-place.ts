/**
 * What an Anthropic cliff keeps where it stood. Two kinds of message in the span a cliff replaces
 * do not describe history but set up what follows, and Claude Code (2.1.185 on) sends both:
 *
 * - Mid-conversation system messages (`role: "system"` in `messages`): instructions that apply
 *   from where they stand onwards. The core folds their text into the summary (the reference's
 *   rule, since such a message may only be followed by an assistant message or end the list, and the
 *   summary is a user message); here each one goes back right after the summary, before the kept
 *   tail, which starts with an assistant turn. Several become one system message, their blocks in order.
 * - A ToolSearch result that loads deferred tools (`tool_reference` blocks in a `tool_result`, the
 *   tools sent with `defer_loading: true`): without it the tools it loaded are unknown again, and a
 *   kept turn that calls one is refused. Each such result, with the call it answers, goes back after
 *   the summary as one assistant message of those calls and one user message of their results.
 *
 * The outgoing list is head, summary, the calls, their results, the system message, the tail: every
 * tool_result follows its tool_use, and the system message follows a user message and precedes the
 * tail's first assistant message (or ends the list). A pure function of the request and the
 * engine's cut, so warm and cold requests, and replicas, send the same bytes.
 */
import { isObj, type PrepareContext } from "../../core/index.js";

const isToolReference = (b: unknown): boolean => isObj(b) && b.type === "tool_reference";
const loadsTools = (b: unknown): b is Record<string, unknown> & { tool_use_id: string } =>
  isObj(b) && b.type === "tool_result" && typeof b.tool_use_id === "string" && Array.isArray(b.content) && b.content.some(isToolReference);

const textBlocks = (content: unknown): unknown[] => (typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : []);

/** The messages of the replaced span to put back after the summary, in their order: calls, results, one system message. */
export function keptFromSpan(span: readonly unknown[]): unknown[] {
  const systems: unknown[] = [];
  const results: Record<string, unknown>[] = [];
  const calls = new Map<string, unknown>();
  for (const m of span) {
    if (!isObj(m)) continue;
    // An empty one folds to nothing in the summary and is not put back (the API refuses empty content).
    if (m.role === "system") {
      if (textBlocks(m.content).length > 0 && m.content !== "") systems.push(m);
    }
    else if (m.role === "assistant" && Array.isArray(m.content)) {
      for (const b of m.content) if (isObj(b) && b.type === "tool_use" && typeof b.id === "string") calls.set(b.id, b);
    } else if (m.role === "user" && Array.isArray(m.content)) results.push(...m.content.filter(loadsTools));
  }
  const answered = results.filter((r) => calls.has(r.tool_use_id as string));
  const out: unknown[] = [];
  if (answered.length > 0) {
    out.push({ role: "assistant", content: answered.map((r) => calls.get(r.tool_use_id as string)) });
    out.push({ role: "user", content: answered });
  }
  // One system message keeps its own bytes; several are joined, since one may not follow another.
  if (systems.length === 1) out.push(systems[0]);
  else if (systems.length > 1) out.push({ role: "system", content: systems.flatMap((s) => textBlocks((s as { content?: unknown }).content)) });
  return out;
}

/** The outgoing list with the replaced span's system messages and tool loads after the summary (Anthropic only; `list` as sent, index for index with `ctx.substituted` up to the summary). */
export function withKeptInPlace(ctx: PrepareContext, list: unknown[]): unknown[] {
  if (ctx.dialect.name !== "anthropic" || !ctx.modified || ctx.baseCut <= ctx.baseHead) return list;
  const kept = keptFromSpan(ctx.messages.slice(ctx.baseHead, ctx.baseCut));
  if (kept.length === 0) return list;
  return [...list.slice(0, ctx.baseHead + 1), ...kept, ...list.slice(ctx.baseHead + 1)];
}
