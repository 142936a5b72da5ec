/** How a model name is spelled for the table: the id alone, and whether it asks for the 1M window by name. */

/**
 * Longer than any model name: a name past it is read as its first this many characters. A body may
 * put megabytes in `model`, and the patterns below would scan them (the tag's, once per `[`).
 */
export const MODEL_NAME_MAX = 256;
const bounded = (model: string): string => (model.length > MODEL_NAME_MAX ? model.slice(0, MODEL_NAME_MAX) : model);

/** A model id as the table spells it: lowercase, without a provider or path prefix (`anthropic/`, `models/`, `us.anthropic.`) or a `[1m]` tag. */
export function modelKey(model: string): string {
  const last = bounded(model).toLowerCase().split("/").pop() ?? "";
  return last.replace(/\[[^\]]*\]$/, "").replace(/^(us|eu|apac|global)\.anthropic\./, "").replace(/^anthropic\./, "").trim();
}

/** Whether a model name carries Claude Code's `[1m]` tag (the 1M window asked for by name). */
export function hasOneMillionTag(model: string): boolean {
  return /\[1m\]\s*$/i.test(bounded(model));
}

/**
 * Whether a table id names a model key: the key starts with it at a boundary, so a row ending in a
 * digit never takes a key that goes on with digits (`claude-fable-5-2` is not `claude-fable-5-20260101`).
 */
export function idMatches(key: string, id: string): boolean {
  if (!key.startsWith(id)) return false;
  if (key.length === id.length || !/\d$/.test(id)) return true;
  return !/\d/.test(key[id.length]);
}

/** What may follow a row's id in a name that is still that row's model: a dated snapshot, `latest`, a preview, a Bedrock version. */
const SNAPSHOT = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest))?(?:-preview(?:-\d{2}-\d{2}(?:-\d{4})?)?)?(?:-v\d+(?::\d+)?)?$/;

/**
 * Whether a model key is the row's own model (its id, or the id with a snapshot date), not a variant
 * the table does not list: `gpt-4.1-nano` is not `gpt-4.1`, `o3-pro` is not `o3`. A prefix may lend
 * a variant its window; only the row's own model takes its price.
 */
export function isListed(key: string, id: string): boolean {
  return key.startsWith(id) && SNAPSHOT.test(key.slice(id.length));
}
