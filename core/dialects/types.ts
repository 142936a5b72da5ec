/** What every dialect (one API's message shapes) provides to the compactor. */
import type { PartContext } from "../parts/context.js";

export type DialectName = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "pi" | "plain";

export interface Dialect {
  readonly name: DialectName;
  /** Where a request body keeps its message list. */
  readonly messagesKey: "messages" | "input" | "contents";
  /** A model turn: the head ends before the first one, and each one starts a turn (see startsTurn). */
  isAssistant(message: unknown): boolean;
  /** A previous compaction summary. */
  isSummary(message: unknown): boolean;
  /**
   * Index just past the turn that holds the provider's last own compaction (Anthropic's
   * `compaction` block, a Responses `compaction` item), 0 when none (absent: the dialect has none).
   * The provider ignores what comes before it: the head runs to here, so it is never summarised,
   * quoted or split from the rest of its turn.
   */
  providerCompactionEnd?(messages: readonly unknown[]): number;
  /** A message that may not stay at the end of the head (it is folded into the summary instead). */
  trimFromHead(message: unknown): boolean;
  /** Whether `message` opens a new turn, given the message before it in the body. */
  startsTurn(message: unknown, previous: unknown): boolean;
  /** The summary parts of one compacted message (zero or more). */
  summarize(message: unknown, ctx: PartContext): string[];
  /** The canonical form a message's digest hashes: what it says, without fields that change between requests. */
  digestForm(message: unknown, hash: (text: string) => string): unknown;
  /** A user-role message of this dialect carrying `text`. */
  summaryMessage(text: string): unknown;
  /**
   * The outgoing list as the provider takes it, given that `list[at]` is the summary (absent: the
   * list goes as it is). Gemini joins the summary to the user content before it, since the API
   * refuses two contents of one role in a row.
   */
  sendable?(list: readonly unknown[], at: number): unknown[];
}
