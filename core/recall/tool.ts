/**
 * The recall tool as a model sees it: its name, what it is for, and its input. Every host that
 * offers it (the proxy in each API's shape, the Pi extension) writes these same strings, so the
 * tool's bytes are the same on every request of a session and on every replica.
 */

/** The tool's name; a client's own tool of this name wins (the host then offers none). */
export const RECALL_TOOL_NAME = "cliff_recall";

/** What the model needs to know to use it. */
export const RECALL_TOOL_DESCRIPTION =
  "Bring back text that context compaction removed from this conversation. The compaction summary names each " +
  "tool result it dropped and each tool call it cut short by a ref, as in `result: dropped 3,778 chars, ref " +
  "7c928f4c697a`. Call with {\"ref\": \"7c928f4c697a\"} to get that text back exactly as it was; a long text comes " +
  "in pages, and the answer gives the `offset` of the next one. Call with {\"search\": \"some text\"} to find the " +
  "lines of the earlier history that contain it (case-insensitive), each with its ref and line number. " +
  "Prefer this to running a tool again only to see output you already had.";

/** The input's JSON Schema: `{"ref": "…", "offset"?: n}` or `{"search": "…"}` (kept to what every API accepts). */
export const RECALL_INPUT_SCHEMA = {
  type: "object",
  properties: {
    ref: { type: "string", description: "The 12 hex digits a compaction summary names a dropped text by." },
    offset: { type: "integer", description: "With ref: the character offset of the page to read, as a previous answer gave it (0: the start)." },
    search: { type: "string", description: "Text to find in the earlier history (case-insensitive); instead of ref." },
  },
} as const;
