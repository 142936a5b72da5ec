/**
 * JSON serialisation without recursion (any nesting depth works) in two styles:
 * canonical (sorted keys, `,` and `:`), used for tool-call signatures and digests, and the
 * Python default (`", "` and `": "`, insertion order, non-ASCII kept) that the reference's token
 * estimate measures. Values follow JSON.stringify's rules: undefined/functions are skipped in
 * objects and become null in arrays, non-finite numbers become null, numbers use JS formatting.
 */
import { CliffInputError } from "../errors.js";
import { isArray, jsonStringify, objectKeys } from "../guards.js";
import { stringJsonLength } from "./json-string.js";

export { stringJsonLength };

export interface JsonStyle {
  sortKeys: boolean;
  itemSep: string;
  keySep: string;
}

export const CANONICAL: JsonStyle = { sortKeys: true, itemSep: ",", keySep: ":" };
export const PYTHON_DEFAULT: JsonStyle = { sortKeys: false, itemSep: ", ", keySep: ": " };
/** JSON.stringify's own layout (insertion order, no spaces), at any depth. */
export const COMPACT: JsonStyle = { sortKeys: false, itemSep: ",", keySep: ":" };

function isSkipped(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

function scalarJson(v: unknown): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return jsonStringify(v);
    case "number":
      return isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return String(v);
    default:
      return "null";
  }
}

/**
 * The start of a long string's JSON, enough to pass `room` more units, without escaping the rest.
 * The closing quote is left off: the caller stops right after, so it is never part of the prefix used.
 */
export function stringPrefixJson(s: string, room: number): string {
  let end = Math.max(0, room) + 2;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // keep a pair whole, as the full serialisation does
  const json = jsonStringify(s.slice(0, end));
  return json.slice(0, json.length - 1);
}

/** 10^0 … 10^21, each exact in a double. */
const POWERS_OF_TEN: number[] = [];
for (let k = 0, p = 1; k <= 21; k++, p *= 10) POWERS_OF_TEN.push(p);

/**
 * Characters of a number as JSON: whole numbers below 1e21 (which print as plain digits, however
 * large: timestamps, token counts) counted against exact powers of ten, anything else formatted.
 */
function numberLength(v: number): number {
  if (v >= 0 && v < 1e21 && v === Math.floor(v) && !(v === 0 && 1 / v < 0)) {
    // The least k with v < 10^k, by halving: five comparisons for a 13-digit timestamp.
    let lo = 1;
    let hi = 21;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v >= POWERS_OF_TEN[mid]) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  return String(v).length;
}

function scalarLength(v: unknown): number {
  if (typeof v === "string") return stringJsonLength(v);
  if (typeof v === "number") return isFinite(v) ? numberLength(v) : 4;
  if (v === true) return 4;
  if (v === false) return 5;
  if (typeof v === "bigint") return String(v).length;
  return 4;
}

function keysOf(o: object, sort: boolean): string[] {
  const keys = objectKeys(o);
  return sort ? keys.sort() : keys;
}

function cyclic(): CliffInputError {
  return new CliffInputError("cyclic structure: a message refers to itself, so it cannot be serialised");
}

interface Frame {
  value: object;
  keys: string[] | null;
  index: number;
  wrote: boolean;
}

/**
 * Serialises `value` in `style`. With `limit > 0` it stops once the output is longer than `limit`
 * (the result is then a prefix of the full text, at least `limit + 1` units long when the full text is).
 */
export function serializeJson(value: unknown, style: JsonStyle, limit = 0): string {
  if (value === null || typeof value !== "object") return isSkipped(value) ? "null" : scalarJson(value);
  let out = "";
  const path = new Set<object>();
  const stack: Frame[] = [];
  const open = (o: object): void => {
    if (path.has(o)) throw cyclic();
    path.add(o);
    const isArr = isArray(o);
    out += isArr ? "[" : "{";
    stack.push({ value: o, keys: isArr ? null : keysOf(o, style.sortKeys), index: 0, wrote: false });
  };
  open(value);
  while (stack.length > 0) {
    if (limit > 0 && out.length > limit) return out;
    const f = stack[stack.length - 1];
    const arr = f.value as unknown[];
    const obj = f.value as Record<string, unknown>;
    const count = f.keys === null ? arr.length : f.keys.length;
    if (f.index >= count) {
      out += f.keys === null ? "]" : "}";
      path.delete(f.value);
      stack.pop();
      continue;
    }
    const i = f.index++;
    let child: unknown;
    if (f.keys === null) {
      child = arr[i];
      if (f.wrote) out += style.itemSep;
      f.wrote = true;
      if (isSkipped(child)) {
        out += "null";
        continue;
      }
    } else {
      const key = f.keys[i];
      child = obj[key];
      if (isSkipped(child)) continue;
      if (f.wrote) out += style.itemSep;
      f.wrote = true;
      out += jsonStringify(key) + style.keySep;
    }
    if (child !== null && typeof child === "object") open(child);
    else if (limit > 0 && typeof child === "string" && child.length > limit - out.length + 2) out += stringPrefixJson(child, limit - out.length);
    else out += scalarJson(child);
  }
  return out;
}

/** Canonical JSON: sorted keys, `,`/`:` separators, non-ASCII kept. */
export function canonicalJson(value: unknown, limit = 0): string {
  return serializeJson(value, CANONICAL, limit);
}

/** Python `json.dumps(value, ensure_ascii=False)` with JS number formatting and key order. */
export function pythonJson(value: unknown): string {
  return serializeJson(value, PYTHON_DEFAULT);
}

/**
 * Visitor for `measureJson`: called on every object (not array) before it is measured; a number
 * returned means "this node is fully handled: add this adjustment and count it without looking inside".
 */
export type NodeAdjuster = (node: Record<string, unknown>) => number | undefined;

/**
 * Serialised lengths of object keys seen before. Keys repeat across every message of a history
 * ("role", "content", "type"…) and the engine finds them in its table faster than reading them;
 * only short keys are kept, and at most KEY_CACHE_MAX, so no input can make the table grow.
 */
const keyLengths = new Map<string, number>();
const KEY_CACHE_MAX = 4096;
const KEY_CACHED_CHARS = 64;

function keyLength(key: string): number {
  const known = keyLengths.get(key);
  if (known !== undefined) return known;
  const n = stringJsonLength(key);
  if (key.length <= KEY_CACHED_CHARS && keyLengths.size < KEY_CACHE_MAX) keyLengths.set(key, n);
  return n;
}

/** Nesting past which a value is checked once for a cycle (a cycle nests without end). */
const CYCLE_CHECK_DEPTH = 10_000;

/** Throws CliffInputError when an object is its own ancestor. Iterative, any depth. */
function assertAcyclic(value: object): void {
  const EXIT = {};
  const path = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === EXIT) {
      path.delete(stack.pop() as object);
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.has(v)) throw cyclic();
    path.add(v);
    stack.push(v, EXIT);
    const children = isArray(v) ? v : Object.values(v);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/**
 * Length of `serializeJson(value, style)` without building the string, plus the sum of the
 * adjustments `adjust` returned. Handles any depth; throws CliffInputError on a cycle.
 */
export function measureJson(value: unknown, style: JsonStyle = PYTHON_DEFAULT, adjust?: NodeAdjuster): number {
  if (value === null || typeof value !== "object") return isSkipped(value) ? 4 : scalarLength(value);
  const itemSep = style.itemSep.length;
  const keySep = style.keySep.length;
  let total = 0;
  // Values and their depths, walked depth first; strings are counted as they are pushed.
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  let handled = -1; // depth of a node the adjuster handled: its subtree is counted without asking again
  let checked = false;
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth <= handled) handled = -1;
    if (depth > CYCLE_CHECK_DEPTH && !checked) {
      assertAcyclic(value);
      checked = true;
    }
    if (adjust !== undefined && handled < 0 && !isArray(v)) {
      const extra = adjust(v as Record<string, unknown>);
      if (extra !== undefined) {
        total += extra;
        handled = depth;
      }
    }
    if (isArray(v)) {
      const n = v.length;
      total += 2 + (n > 0 ? (n - 1) * itemSep : 0);
      for (let i = n - 1; i >= 0; i--) {
        const child = v[i];
        if (child !== null && typeof child === "object") {
          stack.push(child);
          depths.push(depth + 1);
        } else total += isSkipped(child) ? 4 : scalarLength(child);
      }
    } else {
      const o = v as Record<string, unknown>;
      const keys = objectKeys(o);
      let written = 0;
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = o[keys[i]];
        if (isSkipped(child)) continue;
        written++;
        total += keyLength(keys[i]) + keySep;
        if (child !== null && typeof child === "object") {
          stack.push(child);
          depths.push(depth + 1);
        } else total += scalarLength(child);
      }
      total += 2 + (written > 0 ? (written - 1) * itemSep : 0);
    }
  }
  return total;
}

/** Length of `pythonJson(value)`, counted without building it. */
export function pythonJsonLength(value: unknown): number {
  return measureJson(value, PYTHON_DEFAULT);
}
