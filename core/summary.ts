/** The summary text: a fixed header, then the parts, and fitting the newest parts into a budget. */

/** First line of every summary; also how a previous summary is recognised. */
export const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
/** Between the header and the first part. */
export const HEADER_GLUE = "\n\n";
/** Between two parts. */
export const PART_SEPARATOR = "\n\n---\n\n";

/** The parts as one text, separated as in a summary (what follows the header). */
export function joinParts(parts: readonly string[]): string {
  return parts.join(PART_SEPARATOR);
}

/** Length of `joinParts(parts)`, without building it. */
export function joinedLength(parts: readonly string[]): number {
  let n = parts.length > 1 ? (parts.length - 1) * PART_SEPARATOR.length : 0;
  for (const p of parts) n += p.length;
  return n;
}

/** `HEADER + "\n\n" + parts.join("\n\n---\n\n")`, or the header alone when there are no parts. */
export function renderSummary(parts: readonly string[]): string {
  return parts.length === 0 ? SUMMARY_HEADER : SUMMARY_HEADER + HEADER_GLUE + joinParts(parts);
}

/** The parts of a summary text (after the header, stripped of surrounding blank lines); [] for a header-only text. */
export function summaryParts(text: string): string[] {
  const body = text.startsWith(SUMMARY_HEADER) ? text.slice(SUMMARY_HEADER.length) : text;
  const trimmed = body.replace(/^\n+|\n+$/g, "");
  return trimmed === "" ? [] : trimmed.split(PART_SEPARATOR);
}

/**
 * The longest newest-contiguous run of `parts` whose rendering still `fits`, appended to `prefix`
 * (glue `"\n\n"` after a header-only prefix, `"\n\n---\n\n"` after one that already holds parts).
 * `fits` must be monotone (fewer parts never fit worse); it is called O(log n) times with the
 * number of parts kept and a way to render that candidate, so a caller that sizes candidates by
 * arithmetic never pays for a rendering it does not read.
 * Returns how many parts were kept (0: the prefix alone, even when that does not fit) and their
 * text, rendered when first read.
 */
export function fitSummary(
  prefix: string,
  parts: readonly string[],
  fits: (kept: number, render: () => string) => boolean,
): { text: string; kept: number } {
  const glue = prefix === SUMMARY_HEADER ? HEADER_GLUE : PART_SEPARATOR;
  const render = (k: number): string => (k === 0 ? prefix : prefix + glue + parts.slice(parts.length - k).join(PART_SEPARATOR));
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid, () => render(mid))) lo = mid;
    else hi = mid - 1;
  }
  let text: string | undefined;
  return {
    kept: lo,
    get text(): string {
      return (text ??= render(lo));
    },
  };
}
