/**
 * A compacted body written from the text it came in, not re-serialised. `JSON.parse` reads
 * `12345678901234567891` as 12345678901234567000 and `1e400` as Infinity (which `JSON.stringify`
 * writes as null), and Node 20 has no reviver source text to recover them. So the body keeps its
 * original text everywhere but the message list, and the list keeps the original text of every
 * message it still holds: only the new messages (the summary) are serialised.
 */

type Span = [number, number];

// Character codes: the scan reads codes, not one-character strings (half the time on a 1 MB body).
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string opening at `i`. */
function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new SyntaxError("unterminated string");
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just past the value starting at `i` (any JSON value; nesting walked without recursion). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    let j = i;
    for (let d = text.charCodeAt(j); j < text.length && !isWs(d) && d !== COMMA && d !== CLOSE_BRACE && d !== CLOSE_BRACKET; d = text.charCodeAt(++j));
    return j;
  }
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const ch = text.charCodeAt(j);
    if (ch === QUOTE) {
      j = skipString(text, j);
      continue;
    }
    if (ch === OPEN_BRACE || ch === OPEN_BRACKET) depth++;
    else if ((ch === CLOSE_BRACE || ch === CLOSE_BRACKET) && --depth === 0) return j + 1;
    j++;
  }
  throw new SyntaxError("unterminated value");
}

/** A key's name as JSON.parse reads it. */
const keyName = (raw: string): string => (raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1));

/** An array's elements from `open` (its `[`): their spans and the index just past its `]`. */
function elements(text: string, open: number): { spans: Span[]; end: number } {
  const spans: Span[] = [];
  let i = skipWs(text, open + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACKET) {
    if (i >= text.length) throw new SyntaxError("unterminated array");
    const end = skipValue(text, i);
    spans.push([i, end]);
    i = skipWs(text, end);
    if (text.charCodeAt(i) === COMMA) i = skipWs(text, i + 1);
  }
  return { spans, end: i + 1 };
}

/**
 * Walks the top-level object's members in order: `visit` gets each member's name and where its value
 * starts, and returns where that value ends. False when the text is not an object read this way.
 */
function eachMember(text: string, visit: (name: string, start: number) => number): boolean {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return false;
  i = skipWs(text, i + 1);
  while (i < text.length && text.charCodeAt(i) !== CLOSE_BRACE) {
    const keyEnd = skipString(text, i);
    const name = keyName(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    if (text[i] !== ":") return false;
    const start = skipWs(text, i + 1);
    i = skipWs(text, visit(name, start));
    if (text.charCodeAt(i) === COMMA) i = skipWs(text, i + 1);
  }
  return true;
}

/**
 * The array the top-level object gives `key` (the last one, as JSON.parse keeps): its span and its
 * elements' spans, read in the one pass over the body; null when it is not an array.
 */
function topLevelList(text: string, key: string): { list: Span; spans: Span[] } | null {
  let found: { list: Span; spans: Span[] } | null = null;
  const read = eachMember(text, (name, start) => {
    if (name !== key) return skipValue(text, start);
    if (text.charCodeAt(start) !== OPEN_BRACKET) {
      found = null;
      return skipValue(text, start);
    }
    const e = elements(text, start);
    found = { list: [start, e.end], spans: e.spans };
    return e.end;
  });
  return read ? found : null;
}

/**
 * The outgoing body's text: `text` (the body as received, which parsed to an object whose `key`
 * held `original`) with that list replaced by `outgoing`. A message of `outgoing` that is one of
 * `original`'s objects is written as its original text; any other is serialised. Null when the text
 * cannot be read this way (the caller serialises the whole body instead).
 */
export function splicedBody(text: string, key: string, original: readonly unknown[], outgoing: readonly unknown[]): string | null {
  try {
    const found = topLevelList(text, key);
    if (found === null || found.spans.length !== original.length) return null;
    const { list, spans } = found;
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

/** The span of the value the top-level object gives `key` (the last one, as JSON.parse keeps), or null. */
function topLevelValue(text: string, key: string): Span | null {
  let found: Span | null = null;
  const read = eachMember(text, (name, start) => {
    const end = skipValue(text, start);
    if (name === key) found = [start, end];
    return end;
  });
  return read ? found : null;
}

/** `text` with the top-level value of `key` replaced by `json` (null when the key is absent or the text unreadable). */
export function replacedValue(text: string, key: string, json: string): string | null {
  try {
    const span = topLevelValue(text, key);
    return span === null ? null : text.slice(0, span[0]) + json + text.slice(span[1]);
  } catch {
    return null;
  }
}

/** `text` with the top-level value of `key` (an object's text) replaced by what `edit` makes of it (null when either cannot be read). */
export function editedMember(text: string, key: string, edit: (member: string) => string | null): string | null {
  try {
    const span = topLevelValue(text, key);
    const edited = span === null ? null : edit(text.slice(span[0], span[1]));
    return span === null || edited === null ? null : text.slice(0, span[0]) + edited + text.slice(span[1]);
  } catch {
    return null;
  }
}

/** The text of the top-level value of `key`, as written (null when absent or the text unreadable). */
export function valueText(text: string, key: string): string | null {
  try {
    const span = topLevelValue(text, key);
    return span === null ? null : text.slice(span[0], span[1]);
  } catch {
    return null;
  }
}

/** `text` with the top-level value of `key` set to `json`: replaced where it stands, else added as the first member (null: unreadable). */
export function withValue(text: string, key: string, json: string): string | null {
  const replaced = replacedValue(text, key, json);
  if (replaced !== null) return replaced;
  const open = skipWs(text, 0);
  if (text.charCodeAt(open) !== OPEN_BRACE || !readable(text)) return null;
  const next = skipWs(text, open + 1);
  const member = JSON.stringify(key) + ":" + json;
  return text.slice(0, open + 1) + member + (text.charCodeAt(next) === CLOSE_BRACE ? "" : ",") + text.slice(open + 1);
}

function readable(text: string): boolean {
  try {
    return eachMember(text, (_name, start) => skipValue(text, start));
  } catch {
    return false;
  }
}
