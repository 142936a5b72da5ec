/**
 * The serialised length of a string, counted without building it: the estimate's hot path.
 * Escapes follow JSON.stringify (and the Python default with ensure_ascii=False): quotes,
 * backslashes and control characters, lone surrogates as \\uXXXX. Where the platform allows, a
 * SIMD scan of the string's UTF-8 counts them (escape-scan.ts); elsewhere the engine's own string
 * search does, one kind of character at a time.
 */
import { escapeScanner, MAYBE_LONE_SURROGATE, RARE_CONTROL, scanEscapes, scanFlags } from "./escape-scan.js";
import { LONE_SURROGATE } from "../text.js";

// Control characters escaped as \u00XX (the line break, tab and carriage return have short forms).
const LONG_ESCAPES: string[] = [];
for (let c = 0; c < 0x20; c++) if (c !== 0x09 && c !== 0x0a && c !== 0x0d) LONG_ESCAPES.push(String.fromCharCode(c));
/** Below this length a string is read unit by unit; from it on, by native searches. */
const SHORT_STRING = 48;
/** Below this length a string is read unit by unit where the SIMD scan is there: a scan costs about 24 unit reads. */
const SHORT_FOR_SCAN = 24;
/** From this length on, rare control characters are looked for one character at a time rather than by a regex pass. */
const LONG_STRING = 512;

/** How often `ch` occurs in `s`: native string search, no per-character loop in JavaScript. */
function occurrences(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

function loneSurrogates(s: string): number {
  const wellFormed = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof wellFormed === "function" && wellFormed.call(s)) return 0;
  LONE_SURROGATE.lastIndex = 0;
  let n = 0;
  while (LONE_SURROGATE.exec(s) !== null) n++;
  return n;
}

/** Whether `s` holds a control character other than the line break, tab and carriage return. */
function hasLongEscape(s: string): boolean {
  // One native search per character: each scans at memory speed (one- and two-byte strings alike),
  // so even 29 of them cost less than one regex pass over a long string.
  for (let i = 0; i < LONG_ESCAPES.length; i++) if (s.indexOf(LONG_ESCAPES[i]) >= 0) return true;
  return false;
}

/** Control characters other than the line break, tab and carriage return. */
const HAS_RARE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/**
 * A string's escaped length by native searches: every character that needs escaping but the rare
 * control characters is counted by indexOf; a string that holds one of those rare ones (looked for
 * by one regex pass below LONG_STRING units, by a search per character above) is read unit by unit.
 */
export function searchedLength(s: string): number {
  if (s.length >= LONG_STRING ? hasLongEscape(s) : HAS_RARE_CONTROL.test(s)) return escapedLengthSlow(s);
  const short = occurrences(s, "\n") + occurrences(s, '"') + occurrences(s, "\\") + occurrences(s, "\t") + occurrences(s, "\r");
  return s.length + 2 + short + 5 * loneSurrogates(s);
}

/** A string's escaped length by the SIMD scan, which flags what its bytes cannot settle. */
export function scannedLength(s: string, scan: (s: string) => number): number {
  const r = scan(s);
  const flags = scanFlags(r);
  if (flags & RARE_CONTROL) return escapedLengthSlow(s);
  return s.length + 2 + scanEscapes(r) + (flags & MAYBE_LONE_SURROGATE ? 5 * loneSurrogates(s) : 0);
}

/** The exact count for strings with uncommon escapes or surrogates: one unit at a time. */
export function escapedLengthSlow(s: string): number {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) continue;
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) n += 1;
    else if (c < 0x20) n += 5;
    else if (c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else n += 5;
    } else n += 5;
  }
  return n;
}

declare const __CLIFF_ES2020_ONLY__: boolean | undefined;

/**
 * Serialised length of a string, quotes included, counted in UTF-16 units.
 */
export function stringJsonLength(s: string): number {
  // A short string is read directly: a native call costs more than reading a few dozen units.
  // The sandbox build (ES2020 alone) has no scanner: the branch, and the scanner's reading, compile out.
  if (!(typeof __CLIFF_ES2020_ONLY__ !== "undefined" && __CLIFF_ES2020_ONLY__) && escapeScanner !== undefined) return s.length < SHORT_FOR_SCAN ? escapedLengthSlow(s) : scannedLength(s, escapeScanner);
  return s.length < SHORT_STRING ? escapedLengthSlow(s) : searchedLength(s);
}
