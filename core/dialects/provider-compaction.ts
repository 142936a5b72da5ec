/**
 * The provider's own compaction in a history, for the dialects that have one: the index just past
 * the turn holding the last message `holds` marks (0 when none). Like a previous summary it is never
 * summarised or quoted; unlike ours it stays where it is, with everything before it (the provider
 * already ignores that) and the rest of its turn (its calls' results) after it, up to a summary of
 * ours: a later cliff's summary sits where the head ends, so the head never runs over it.
 */
import type { Dialect } from "./types.js";

export function compactionEnd(messages: readonly unknown[], holds: (m: unknown) => boolean, startsTurn: Dialect["startsTurn"], isSummary: Dialect["isSummary"]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (!holds(messages[i])) continue;
    let j = i + 1;
    while (j < messages.length && !startsTurn(messages[j], messages[j - 1]) && !isSummary(messages[j])) j++;
    return j;
  }
  return 0;
}
