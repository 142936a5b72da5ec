/**
 * Outlines of the working set's file copies (the rule is core/shapes/outline.ts): one settling's
 * running budget, and the text a whole write gives a file.
 */
import type { PartContext } from "../parts/context.js";
import { editTextOf } from "../parts/call-kinds.js";
import { outlinePart } from "./outline.js";

// The sandbox build has no one to tell which rule made a line (ctx.note): it leaves the calls out.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** The outline caps: per file, and in all; who is told which rule made a line. */
export interface OutlineCaps {
  file: number;
  total: number;
  note?: PartContext["note"];
}

/** What an outline reads of a copy: its path, the file's text, how much of it the copy shows. */
export interface OutlinedCopy {
  readonly path: string;
  readonly text?: string;
  readonly shown?: number;
  readonly patch?: boolean;
}

/**
 * One settling's outliner, newest copies first: the outlines of `copies` (of what the per-file cap
 * left out of each when `cutOnly`, else of its whole text) within what the total has left, or null.
 */
export function outliner(caps: OutlineCaps | null): (copies: readonly OutlinedCopy[], cutOnly: boolean) => string | null {
  let used = 0;
  return (copies, cutOnly) => {
    if (caps === null) return null;
    const parts: string[] = [];
    for (const c of copies) {
      if (c.text === undefined || used >= caps.total) continue;
      const rest = cutOnly ? c.text.slice(c.shown ?? 0) : c.text;
      const p = rest.length === 0 ? null : outlinePart(c.path, rest, Math.min(caps.file, caps.total - used), c.patch === true);
      if (p === null) continue;
      used += p.length;
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) caps.note?.("outline", p);
      parts.push(p);
    }
    return parts.length === 0 ? null : parts.join("\n");
  };
}

/** The text a whole write gives `path`: its content, or the patch's section that adds it. */
export function writtenText(path: string, name: unknown, args: unknown): { text: string; patch: boolean } | null {
  const edit = editTextOf(name, args);
  if (edit === null) return null;
  const text = edit.texts.join("\n");
  const header = "*** Add File: " + path;
  const at = text.indexOf(header);
  if (at < 0) return { text, patch: false };
  const from = at + header.length;
  const next = text.indexOf("\n*** ", from);
  return { text: text.slice(from, next < 0 ? text.length : next), patch: true };
}
