/**
 * Dialects by name. The registry itself holds no dialect: `dialects/index.ts` registers the six,
 * so a bundle that passes dialect objects (the AgentParley plugin passes `plain`) carries only the
 * dialects it uses.
 */
import type { Dialect, DialectName } from "./types.js";

declare const __CLIFF_SANDBOX__: boolean | undefined;

const DIALECTS = new Map<string, Dialect>();

/** The names getDialect accepts (filled as dialects register). */
export const DIALECT_NAMES: DialectName[] = [];

export function registerDialect(d: Dialect): void {
  if (!DIALECTS.has(d.name)) DIALECT_NAMES.push(d.name);
  DIALECTS.set(d.name, d);
}

/** The dialect of that name (a Dialect object is returned as is); throws a clear error for an unknown name. */
export function getDialect(name: DialectName | Dialect | string): Dialect {
  // The sandbox's bundle registers no dialect and passes the one it uses as an object.
  if (typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) return name as Dialect;
  if (typeof name === "object" && name !== null) return name;
  const d = typeof name === "string" ? DIALECTS.get(name) : undefined;
  if (d === undefined) throw new TypeError(`unknown dialect ${JSON.stringify(name)}; expected one of: ${DIALECT_NAMES.join(", ")}`);
  return d;
}

/** The outgoing list as `d`'s provider takes it, `list[summaryAt]` being the summary (Dialect.sendable). */
export function sendableList(d: Dialect, list: readonly unknown[], summaryAt: number): unknown[] {
  return d.sendable === undefined ? (list as unknown[]) : d.sendable(list, summaryAt);
}
