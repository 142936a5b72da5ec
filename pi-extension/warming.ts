/**
 * Pi 1.6's idle cache warming (`cacheWarming: "idle"`, up to 30 minutes between runs) re-sends the
 * last request with one output token before its prompt cache entry expires. Pi compacts before a
 * new run whose context passes its threshold (the window less `compaction.reserveTokens`), and our
 * cliff then replaces the middle of that prefix: every refresh of an entry the next request will
 * not read is paid for nothing. So the extension answers `cache_warming_decision` with "stop" when
 * the context and a prompt like the last one would pass the threshold; otherwise it leaves Pi's
 * own decision alone. After the cliff Pi warms the request it sends next, the prefix the cliff left.
 */

/** What the extension reads of the host: the context's size and the settings' reserve. */
export interface WarmingInputs {
  tokens: number | null | undefined;
  contextWindow: number | undefined;
  reserveTokens: number;
  /** Estimated tokens of the branch's newest user prompt: the size the next one is taken to be. */
  nextPrompt: number;
}

/** Pi's reserve when its settings say none (DEFAULT_COMPACTION_SETTINGS). */
export const DEFAULT_RESERVE = 16_384;

/** "stop" when the next request will be compacted first; undefined leaves Pi's decision as it is. */
export function warmingAction(w: WarmingInputs): "stop" | undefined {
  if (typeof w.tokens !== "number" || typeof w.contextWindow !== "number" || w.contextWindow <= 0) return undefined;
  return w.tokens + w.nextPrompt > w.contextWindow - w.reserveTokens ? "stop" : undefined;
}

type Obj = Record<string, any>;

/** The reserve Pi's settings give `model` (a per-model override first), as getSettings() shows them. */
export function reserveOf(settings: Obj | undefined, model: Obj | undefined): number {
  const c = settings?.compaction;
  const key = model === undefined ? "" : `${model.provider}/${model.id}`;
  const own = c?.modelOverrides?.[key]?.reserveTokens;
  const v = typeof own === "number" ? own : c?.reserveTokens;
  return typeof v === "number" && v >= 0 ? v : DEFAULT_RESERVE;
}

/** Estimated tokens (characters / 4) of the newest user message on the branch. */
export function lastPromptTokens(branch: readonly unknown[]): number {
  for (let i = branch.length - 1; i >= 0; i--) {
    const m = (branch[i] as Obj)?.message;
    if ((branch[i] as Obj)?.type !== "message" || m?.role !== "user") continue;
    const text = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b: Obj) => (typeof b?.text === "string" ? b.text : "")).join("") : "";
    return Math.ceil(text.length / 4);
  }
  return 0;
}

/** The handler's answer for Pi: `{ action: "stop" }`, or nothing. */
export function warmingDecision(settings: Obj | undefined, ctx: Obj | undefined): { action: "stop" } | undefined {
  try {
    if (settings?.compaction?.enabled === false) return undefined;
    const usage = ctx?.getContextUsage?.();
    const branch = ctx?.sessionManager?.getBranch?.();
    const action = warmingAction({
      tokens: usage?.tokens, contextWindow: usage?.contextWindow ?? ctx?.model?.contextWindow, reserveTokens: reserveOf(settings, ctx?.model),
      nextPrompt: lastPromptTokens(Array.isArray(branch) ? branch : []),
    });
    return action === undefined ? undefined : { action };
  } catch {
    return undefined;
  }
}
