/**
 * Text the proxy keeps beyond one request (a session's, an event's) is copied out of the request
 * and cut to a bound first. A cut made with `slice` is, in V8, a view that keeps its whole parent
 * string alive: a 400-character excerpt of a 40 MB result would hold the 40 MB while every bound
 * counted 400 characters. Concatenating and cutting again makes V8 flatten the text into a string
 * of its own, so what is kept holds only its own characters.
 */

/** Characters of a name (a tool's) the proxy keeps or publishes. */
export const NAME_MAX = 64;

/** `s` as a string of its own: no view of whatever it was cut from. */
export const ownCopy = (s: string): string => (" " + s).slice(1);

/** The first `max` characters of `s` (never half of a surrogate pair), as a string of its own. */
export function keptText(s: string, max: number): string {
  if (s.length <= max) return ownCopy(s);
  const end = /[\uD800-\uDBFF]/.test(s[max - 1]) ? max - 1 : max;
  return ownCopy(s.slice(0, end));
}

/** A name as kept and published: its first NAME_MAX characters, a string of its own. */
export const keptName = (s: string): string => keptText(s, NAME_MAX);

/** What a kept string costs the heap at most: two bytes a character, and a string's header. */
export const stringBytes = (s: string): number => 16 + 2 * s.length;
