/**
 * A compacted body written from the text it came in, not re-serialised. `JSON.parse` reads
 * `12345678901234567891` as 12345678901234567000 and `1e400` as Infinity (which `JSON.stringify`
 * writes as null), and Node 20 has no reviver source text to recover them. So the body keeps its
 * original text everywhere but the message list, and the list keeps the original text of every
 * message it still holds: only the new messages (the summary) are serialised.
 */

type Span = [number, number];

const WS = new Set([" ", "\t", "\n", "\r"]);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i])) i++;
  return i;
}

/** The index just past the string opening at `i`. */
function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new SyntaxError("unterminated string");
    let backslashes = 0;
    for (let k = q - 1; text[k] === "\\"; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just past the value starting at `i` (any JSON value; nesting walked without recursion). */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== "{" && c !== "[") {
    let j = i;
    while (j < text.length && !WS.has(text[j]) && text[j] !== "," && text[j] !== "}" && text[j] !== "]") j++;
    return j;
  }
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const ch = text[j];
    if (ch === '"') {
      j = skipString(text, j);
      continue;
    }
    if (ch === "{" || ch === "[") depth++;
    else if ((ch === "}" || ch === "]") && --depth === 0) return j + 1;
    j++;
  }
  throw new SyntaxError("unterminated value");
}

/** A key's name as JSON.parse reads it. */
const keyName = (raw: string): string => (raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1));

/** The span of the value the top-level object gives `key` (the last one, as JSON.parse keeps), or null. */
function topLevelValue(text: string, key: string): Span | null {
  let i = skipWs(text, 0);
  if (text[i] !== "{") return null;
  i = skipWs(text, i + 1);
  let found: Span | null = null;
  while (i < text.length && text[i] !== "}") {
    const keyEnd = skipString(text, i);
    const name = keyName(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    if (text[i] !== ":") return null;
    const start = skipWs(text, i + 1);
    const end = skipValue(text, start);
    if (name === key) found = [start, end];
    i = skipWs(text, end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  return found;
}

/** The spans of an array's elements, for the array spanning `span`. */
function elementSpans(text: string, span: Span): Span[] | null {
  if (text[span[0]] !== "[") return null;
  const out: Span[] = [];
  let i = skipWs(text, span[0] + 1);
  while (i < span[1] - 1) {
    const end = skipValue(text, i);
    out.push([i, end]);
    i = skipWs(text, end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  return out;
}

/**
 * The outgoing body's text: `text` (the body as received, which parsed to an object whose `key`
 * held `original`) with that list replaced by `outgoing`. A message of `outgoing` that is one of
 * `original`'s objects is written as its original text; any other is serialised. Null when the text
 * cannot be read this way (the caller serialises the whole body instead).
 */
export function splicedBody(text: string, key: string, original: readonly unknown[], outgoing: readonly unknown[]): string | null {
  try {
    const list = topLevelValue(text, key);
    if (list === null) return null;
    const spans = elementSpans(text, list);
    if (spans === null || spans.length !== original.length) return null;
    const at = new Map<unknown, number>();
    original.forEach((m, i) => at.set(m, i));
    const parts = outgoing.map((m) => {
      const i = at.get(m);
      return i === undefined ? JSON.stringify(m) : text.slice(spans[i][0], spans[i][1]);
    });
    return text.slice(0, list[0]) + "[" + parts.join(",") + "]" + text.slice(list[1]);
  } catch {
    return null;
  }
}
