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
    execute: async (_id: string, params: unknown, _signal: unknown, _onUpdate: unknown, ctx: unknown) => {
      const answer = recallFromBranch(params, branchOf(ctx), config());
      if (answer.isError) throw new Error(answer.text);
      return { content: [{ type: "text", text: answer.text }], details: answer.recalled ?? {} };
    },
  });
}
