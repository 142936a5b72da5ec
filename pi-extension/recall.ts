/**
 * The cliff_recall tool in Pi and OMP: the model asks for a text a compaction dropped by the ref its
 * summary names, or searches the earlier history. Pi keeps every entry of a session, so the answer
 * comes from the session's own branch (what every earlier compaction dropped included), through the
 * same core logic the proxy answers with; nothing is stored for it.
 */
import { answerRecall, getDialect, RECALL_INPUT_SCHEMA, RECALL_TOOL_DESCRIPTION, RECALL_TOOL_NAME, RecallTexts, writesRefs, type Config, type RecallAnswer } from "../core/index.js";
import { liveFromEntries } from "../core/pi/session.js";

const piDialect = getDialect("pi");

/**
 * Every message of a branch, in order, as the model saw it when it was sent: the branch with its
 * compaction entries left out reads as one uncompacted history, so nothing a compaction dropped is
 * missed.
 */
export function branchMessages(entries: readonly unknown[]): unknown[] {
  const uncompacted = entries.filter((e) => (e as { type?: unknown } | null)?.type !== "compaction");
  return liveFromEntries(uncompacted).map((m) => m.message);
}

/**
 * The branch before the assistant message that carries call `callId`: Pi has appended that message
 * when the tool runs, and a search must not find its own query in it (the proxy answers from the
 * request, which never holds the call being answered). The whole branch when no entry carries it.
 */
export function branchBefore(entries: readonly unknown[], callId: unknown): readonly unknown[] {
  for (let i = entries.length - 1; i >= 0; i--) {
    const m = (entries[i] as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null)?.message;
    if (m?.role !== "assistant" || !Array.isArray(m.content)) continue;
    if (m.content.some((b) => (b as { type?: unknown; id?: unknown } | null)?.type === "toolCall" && (b as { id?: unknown }).id === callId)) return entries.slice(0, i);
  }
  return entries;
}

/** The answer to one recall with `args`, from the messages of `entries` (the session's branch). */
export function recallFromBranch(args: unknown, entries: readonly unknown[], cfg: Config): RecallAnswer {
  return answerRecall(args, RecallTexts.of(branchMessages(entries), piDialect, cfg));
}

/** The branch Pi keeps for the session a tool call runs in. */
function branchOf(ctx: unknown): unknown[] {
  const b = (ctx as { sessionManager?: { getBranch?: () => unknown } } | undefined)?.sessionManager?.getBranch?.();
  return Array.isArray(b) ? b : [];
}

interface ToolHost {
  registerTool?(tool: unknown): void;
}

/**
 * Offers cliff_recall when the config writes refs for it to answer (and the host takes tools: the
 * extension fails open). A failed recall is thrown, which every Pi and OMP version turns into a tool
 * error with the message as its text.
 */
export function registerRecallTool(api: ToolHost, config: () => Config): void {
  if (!writesRefs(config()) || typeof api.registerTool !== "function") return;
  api.registerTool({
    name: RECALL_TOOL_NAME,
    label: "cliff recall",
    description: RECALL_TOOL_DESCRIPTION,
    parameters: RECALL_INPUT_SCHEMA,
    // OMP 18 mounts an extension's tools as xd:// devices unless they are essential: declared, the
    // model calls it as the proxy's clients do, and a summary's refs point at a tool it can see.
    loadMode: "essential",
    execute: async (id: string, params: unknown, _signal: unknown, _onUpdate: unknown, ctx: unknown) => {
      const answer = recallFromBranch(params, branchBefore(branchOf(ctx), id), config());
      if (answer.isError) throw new Error(answer.text);
      return { content: [{ type: "text", text: answer.text }], details: answer.recalled ?? {} };
    },
  });
}
