/**
 * What the docs tests need to know of Markdown: which lines are prose (outside fenced code), the
 * headings and their anchors by GitHub's rules, and the links a page makes.
 */

/** Each line with whether it lies inside a fenced code block (the fences themselves count as inside). */
export function fencedLines(text: string): { line: string; fenced: boolean }[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1];
      return { line, fenced: true };
    }
    if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
      return { line, fenced: true };
    }
    return { line, fenced: false };
  });
}

/** A heading's text as GitHub renders it: no code ticks, emphasis or link targets. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/\*\*|__/g, "")
    .replace(/(^|\s)[*_]|[*_](\s|$)/g, "$1$2");
}

/** GitHub's anchor for a heading: lowercase, punctuation removed except - and _, each space a -. */
export function slug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The ATX headings of a page, outside code. */
export function headings(text: string): string[] {
  return fencedLines(text)
    .filter((l) => !l.fenced)
    .map((l) => /^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(l.line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[1]);
}

/** Every anchor a page offers, duplicates numbered -1, -2… as GitHub numbers them. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(text)) {
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The targets of a page's inline links and images, outside fenced code and code spans. */
export function links(text: string): string[] {
  const out: string[] = [];
  for (const { line, fenced } of fencedLines(text)) {
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]);
  }
  return out;
}
