/**
 * Distinctive tokens: the words an agent cannot guess back once they are gone (paths,
 * identifiers, numbers). A token is a run of letters, digits and `_ . / : -`; it is distinctive
 * when it holds a digit, an underscore, a dot, a slash, a colon or a dash, or a capital after its
 * first character in a word that also has a lower-case letter (`parseHeader`, `HTTPServer`, not
 * `ERROR`); a number is distinctive from three digits on. Matches are exact and case-sensitive.
 */

// A JSON escape inside quoted text (a signature line, a JSON string argument) separates words as
// the character it stands for would: `a\nb` holds `a` and `b`, not `nb`.
const JSON_ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[nrt"\\/])/g;
const RUN = /[A-Za-z0-9_./:-]+/g;
const EDGES = /^:+|[.:]+$/g;
const NUMERIC = /^[0-9.,:-]+$/;
const MARK = /[0-9_./:-]/;
const ALNUM = /[A-Za-z0-9]/;
const LOWER = /[a-z]/;
const INNER_CAPITAL = /^.+[A-Z]/;

/** Whether one token (already cut from its text) is distinctive. */
export function isDistinctive(token: string): boolean {
  if (!ALNUM.test(token)) return false;
  if (NUMERIC.test(token)) return digits(token) >= 3;
  return MARK.test(token) || (LOWER.test(token) && INNER_CAPITAL.test(token));
}

function digits(token: string): number {
  let n = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** Adds the distinctive tokens of `text` to `into` (a sentence's closing dot or colon is not part of a token). */
export function addDistinctive(text: string, into: Set<string>): Set<string> {
  const clean = text.indexOf("\\") < 0 ? text : text.replace(JSON_ESCAPE, " ");
  const runs = clean.match(RUN);
  if (runs === null) return into;
  for (const run of runs) {
    const token = run.replace(EDGES, "");
    if (token !== "" && isDistinctive(token)) into.add(token);
  }
  return into;
}

/** The distinctive tokens of `text`. */
export function distinctiveTokens(text: string): Set<string> {
  return addDistinctive(text, new Set());
}
