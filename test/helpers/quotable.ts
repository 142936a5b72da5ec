/** What a summary may quote of an input: the input's strings and the canonical JSON of its objects. */
import { canonicalJson, stripTaskNotifications, toWellFormed } from "../../core/index.js";

/** JSON text decoded, or undefined: a call's arguments (and a flat message's blocks) are quoted as decoded. */
function decoded(s: string): unknown {
  if (!/^\s*[[{]/.test(s)) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Every string in a value (and in the JSON a string holds), and the canonical JSON of every object in it. */
export function quotable(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      out.push(toWellFormed(v), toWellFormed(stripTaskNotifications(v)));
      const inner = decoded(v);
      if (inner !== undefined && inner !== null && typeof inner === "object") stack.push(inner);
    } else if (v !== null && typeof v === "object") {
      out.push(toWellFormed(canonicalJson(v)));
      for (const c of Object.values(v)) stack.push(c);
    }
  }
  return out;
}
