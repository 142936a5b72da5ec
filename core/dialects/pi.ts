/** Pi AgentMessages: user / assistant / toolResult / bashExecution / custom / branchSummary / compactionSummary. */
import type { Dialect } from "./types";
import { arr, one, AssistantPart, contentText, humanPart, obj, resultPart, str, type PartContext } from "../parts";
import { startsLikeSummary } from "../summary";

/** Pi's wrapper text for a branch summary that comes back into the conversation. */
export const PI_BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:";

/** The user text Pi gives the model for a branch summary. */
export function piBranchSummaryText(summary: string): string {
  return `${PI_BRANCH_PREFIX}\n\n<summary>\n${summary}\n</summary>`;
}

function assistantParts(content: unknown, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  if (typeof content === "string") part.addText(content);
  for (const b of arr(content)) {
    const block = obj(b);
    if (block.type === "text") part.addText(block.text);
    else if (block.type === "thinking" && block.redacted !== true) part.addThinking(block.thinking);
    else if (block.type === "toolCall") part.addCall(block.name, block.arguments ?? {});
  }
  return part.parts();
}

export const pi: Dialect = {
  name: "pi",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    if (msg.role === "compactionSummary") return true;
    return msg.role === "user" && startsLikeSummary(contentText(msg.content));
  },
  trimFromHead: () => false,
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    switch (msg.role) {
      case "assistant":
        return assistantParts(msg.content, ctx);
      case "toolResult":
        return one(resultPart(contentText(msg.content), ctx));
      case "bashExecution": {
        const part = new AssistantPart(ctx);
        part.addCall("bash", str(msg.command));
        part.addResult(str(msg.output));
        return part.parts();
      }
      case "compactionSummary":
        return [];
      case "branchSummary":
        return one(humanPart("user", piBranchSummaryText(str(msg.summary)), ctx));
      case "system":
        return one(humanPart("system", contentText(msg.content), ctx, false));
      case "user":
      case "custom":
        return startsLikeSummary(contentText(msg.content)) ? [] : one(humanPart("user", contentText(msg.content), ctx));
      default:
        return one(humanPart(str(msg.role) || "unknown", contentText(msg.content), ctx, false));
    }
  },
  summaryMessage: (text) => ({ role: "user", content: text }),
};
