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

/** Whether a character code belongs to a token: a letter, a digit or one of `_ . / : -`. */
function inToken(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 45 && c <= 58) || c === 95;
}

/**
 * Adds the distinctive tokens of `text` to `into` (a sentence's closing dot or colon is not part of a token).
 * One reading of the text, each token judged as it is read (isDistinctive's rule, by character codes:
 * a history's text holds millions of words, most of them plain).
 */
export function addDistinctive(text: string, into: Set<string>): Set<string> {
  const clean = text.indexOf("\\") < 0 ? text : text.replace(JSON_ESCAPE, " ");
  const n = clean.length;
  for (let i = 0; i < n; ) {
    if (!inToken(clean.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && inToken(clean.charCodeAt(end))) end++;
    let s = i;
    let e = end;
    i = end;
    while (s < e && clean.charCodeAt(s) === 58) s++;
    while (e > s && (clean.charCodeAt(e - 1) === 46 || clean.charCodeAt(e - 1) === 58)) e--;
    if (s < e && judged(clean, s, e)) into.add(clean.slice(s, e));
  }
  return into;
}

/** isDistinctive of clean[s, e), read once by character codes. */
function judged(clean: string, s: number, e: number): boolean {
  let digits = 0;
  let letters = false;
  let lower = false;
  let innerCapital = false;
  let marks = false; // `_ . / : -`
  let nonNumeric = false; // `_` or `/`
  for (let k = s; k < e; k++) {
    const c = clean.charCodeAt(k);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 97 && c <= 122) letters = lower = true;
    else if (c >= 65 && c <= 90) {
      letters = true;
      if (k > s) innerCapital = true;
    } else {
      marks = true;
      if (c === 95 || c === 47) nonNumeric = true;
    }
  }
  if (digits === 0 && !letters) return false;
  // Digits with only `.`, `:` and `-` among them: a number, distinctive from three digits on.
  if (!letters && !nonNumeric) return digits >= 3;
  return digits > 0 || marks || (lower && innerCapital);
}

/** The distinctive tokens of `text`. */
export function distinctiveTokens(text: string): Set<string> {
  return addDistinctive(text, new Set());
}
