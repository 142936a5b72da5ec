/** A tool call's line in a summary: `[name] args` capped, or an edit's path and new text. */
import { editTextOf } from "./call-kinds.js";
import { canonicalJson, stringPrefixJson } from "../estimate/json.js";
import { withPointer, writesRefs, type DroppedTexts } from "../archive.js";
import { truncate } from "../text.js";
import { getPrototypeOf, isArray, jsonStringify, OBJECT_PROTOTYPE, objectKeys } from "../guards.js";
import { pointerTo, type PartContext } from "./context.js";

/**
 * An edit or write call as its path and new text (the input's own lines, cut at `editMaxChars`),
 * or null when the rule is off or the call is not one.
 */
export function editLines(name: unknown, args: unknown, ctx: PartContext): string | null {
  const cap = ctx.cfg.editMaxChars;
  if (cap <= 0) return null;
  const edit = editTextOf(name, args);
  if (edit === null) return null;
  const whole = edit.texts.join("\n");
  const text = truncate(whole, cap);
  const line = `[${typeof name === "string" && name !== "" ? name : "?"}] ` + (edit.path === null ? text : edit.path + "\n" + text);
  return whole.length <= cap ? line : (withPointer(line, callPointer(args, ctx)) as string);
}

/** The text a call's ref names: its arguments as the signature line would show them uncut. */
export function callText(args: unknown): string {
  return typeof args === "string" ? args : flatCanonical(args, 0) ?? canonicalJson(args);
}

// The sandbox's build writes no ref lines (context.ts): its cut calls have none to compute.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** The ref line of a cut call's arguments. */
function callPointer(args: unknown, to: DroppedTexts): string | null {
  if ((typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) || !writesRefs(to.cfg) && to.archive === undefined) return null;
  return pointerTo(to, callText(args), "call");
}

/** `[name] args`, args capped at cmdMaxChars; a string is passed through, anything else is canonical JSON. */
export function signatureLine(name: unknown, args: unknown, ctx: PartContext): string {
  return cappedSignature(name, args, ctx.cfg.cmdMaxChars, ctx);
}

export function cappedSignature(name: unknown, args: unknown, cap: number, to: DroppedTexts): string {
  const text = typeof args === "string" ? args : args === undefined ? "" : flatCanonical(args, cap) ?? canonicalJson(args, cap);
  const label = typeof name === "string" && name !== "" ? name : "?";
  const line = `[${label}] ${truncate(text, cap)}`;
  if (!(cap > 0) || text.length <= cap) return line;
  return withPointer(line, callPointer(args, to)) as string;
}

/**
 * Canonical JSON of a flat object (string, number, boolean or null values: most tool arguments),
 * keys sorted, or undefined when the object is not one. Only what a signature line can show is
 * written: past `cap` units the text is a prefix of the full one, which `truncate` cuts the same way.
 */
function flatCanonical(args: unknown, cap: number): string | undefined {
  if (args === null || typeof args !== "object" || isArray(args) || getPrototypeOf(args) !== OBJECT_PROTOTYPE) return undefined;
  const keys = objectKeys(args);
  if (keys.length > 16) return undefined;
  let size = 0;
  for (const k of keys) {
    const v = (args as Record<string, unknown>)[k];
    if (v !== null && typeof v === "object") return undefined;
    if (typeof v === "string") size += v.length;
    if (k === "__proto__" || typeof v === "bigint") return undefined;
  }
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  // No cap (0) shows the whole text; short and already in order (one key, most often): the engine's serialiser writes it in one call.
  const limit = cap > 0 ? cap : Infinity;
  if (sorted && size <= limit) return jsonStringify(args);
  if (!sorted) keys.sort();
  let out = "{";
  for (const k of keys) {
    const v = (args as Record<string, unknown>)[k];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    out += (out.length > 1 ? "," : "") + jsonStringify(k) + ":";
    if (typeof v === "string" && v.length > limit - out.length + 2) return out + stringPrefixJson(v, limit - out.length);
    out += typeof v === "number" && !isFinite(v) ? "null" : jsonStringify(v);
    if (out.length > limit) return out;
  }
  return out + "}";
}
