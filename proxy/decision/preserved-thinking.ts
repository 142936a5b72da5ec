/**
 * Preserved thinking (Anthropic's prefix check on thinking blocks). On the models that run it, a
 * thinking block sent back is valid only while everything before it (`system`, `tools`, earlier
 * messages) is what the model saw when it wrote the block; a cliff replaces the middle, so every
 * block in the kept tail fails the check and the request is refused with a 400 unless it asks for
 * such blocks to be dropped. So on those models every request the proxy *changed* gets
 * `block_binding.prefix_mismatch_behavior: "drop_block"` in the client's own `thinking` object
 * (`enabled` or `adaptive`) and the `thinking-binding-controls-2026-08-01` beta merged into
 * `anthropic-beta`; a client that set the field keeps its choice. With thinking disabled, absent
 * or of a type that takes no binding, the proxy removes the thinking blocks of the kept turns itself
 * instead (adding a `thinking` object would turn thinking on). Requests it did not change go out
 * byte for byte. This is the one field and the one header the proxy writes that the client did not
 * send. Setting the field where the check would not otherwise run (an account created before the
 * check became the default) turns it on for that request: blocks are then dropped, not used.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isObj, type PrepareContext } from "../../core/index.js";
import { runsPrefixCheck } from "../../core/models/index.js";

export const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** The binding the proxy writes (the SDK's `BetaThinkingBlockBinding`). */
export interface DropBlock {
  prefix_mismatch_behavior: "drop_block";
  [key: string]: unknown;
}

/** The client's `thinking` object with the binding set: the SDK's `BetaThinkingConfigEnabled` or `BetaThinkingConfigAdaptive`, the client's other fields kept. */
export type BoundThinking = ({ type: "enabled"; budget_tokens: number } | { type: "adaptive" }) & { block_binding: DropBlock; [key: string]: unknown };

/** What a changed request needs: nothing, the binding field and its beta, or its kept turns' thinking removed. */
export type ThinkingPlan = { kind: "none" } | { kind: "bind"; thinking: BoundThinking } | { kind: "strip" };

const NONE: ThinkingPlan = { kind: "none" };

/** The plan for an Anthropic request to `body.model` (`enabled` false: the handling is off). */
export function thinkingPlan(body: Record<string, unknown>, enabled: boolean): ThinkingPlan {
  if (!enabled || typeof body.model !== "string" || !runsPrefixCheck(body.model)) return NONE;
  const t = body.thinking;
  if (!isObj(t) || (t.type !== "adaptive" && !(t.type === "enabled" && typeof t.budget_tokens === "number"))) return { kind: "strip" };
  const binding = isObj(t.block_binding) ? t.block_binding : {};
  // The client chose: its request, its rule.
  if (binding.prefix_mismatch_behavior !== undefined && binding.prefix_mismatch_behavior !== null) return NONE;
  const block_binding: DropBlock = { ...binding, prefix_mismatch_behavior: "drop_block" };
  const thinking: BoundThinking = t.type === "enabled" ? { ...t, type: "enabled", budget_tokens: t.budget_tokens as number, block_binding } : { ...t, type: "adaptive", block_binding };
  return { kind: "bind", thinking };
}

const isThinkingBlock = (b: unknown): boolean => isObj(b) && (b.type === "thinking" || b.type === "redacted_thinking");

/**
 * The outgoing list without thinking blocks in the turns after the summary (the head before it is
 * unchanged, so its blocks stay valid). A message left with no content goes: the API joins the
 * turns either side of it, as it joins any two turns of one role.
 */
export function withoutKeptThinking(ctx: PrepareContext): unknown[] {
  const out: unknown[] = [];
  ctx.substituted.forEach((m, i) => {
    if (i <= ctx.baseHead || !isObj(m) || !Array.isArray(m.content) || !m.content.some(isThinkingBlock)) return void out.push(m);
    const content = m.content.filter((b) => !isThinkingBlock(b));
    if (content.length > 0) out.push({ ...m, content });
  });
  return out;
}

/** The client's `anthropic-beta` with the binding beta added once (the client's own values kept as sent). */
export function mergedBeta(headers: IncomingHttpHeaders): string {
  const v = headers["anthropic-beta"];
  const sent = (Array.isArray(v) ? v.join(",") : v ?? "").trim();
  const has = sent.split(",").some((s) => s.trim().toLowerCase() === THINKING_BINDING_BETA);
  return has ? sent : sent === "" ? THINKING_BINDING_BETA : `${sent},${THINKING_BINDING_BETA}`;
}
