import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, compact, truncate } from "../../core/index.js";

const flatValue = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 900 }),
  fc.string({ maxLength: 2000 }).map((s) => s + "\ud83d"),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const flatArgs = fc.dictionary(fc.string({ maxLength: 8 }).filter((k) => k !== "__proto__"), flatValue, { maxKeys: 6 });

/** The signature line the summary carries for one call with these arguments. */
function lineFor(input: unknown, cmdMaxChars: number): string {
  const msgs = [
    { role: "user", content: "task" },
    { role: "assistant", content: [{ type: "tool_use", id: "t", name: "edit", input }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
    { role: "assistant", content: "done" },
    { role: "user", content: "next" },
  ];
  const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 1, cmdMaxChars });
  const line = r!.summaryText.split("\n").find((l) => l.startsWith("[edit] "));
  return line ?? "";
}

describe("signature lines of flat arguments", () => {
  it("equal the capped canonical JSON, for any keys, values, order and cap (0: no cap)", () => {
    fc.assert(
      fc.property(flatArgs, fc.constantFrom(0, 1, 7, 150), (input, cap) => {
        const full = canonicalJson(input);
        const expected = "[edit] " + truncate(full, cap);
        const got = lineFor(input, cap);
        // A line holds no line break of its own: canonical JSON escapes them.
        expect(got).toBe(expected.split("\n")[0]);
      }),
      { numRuns: 1000 },
    );
  });

  it("an edit call's long old and new text is shown up to the cap only", () => {
    const input = { path: "src/a.ts", oldText: "x".repeat(5000), newText: "y".repeat(5000) };
    expect(lineFor(input, 150)).toBe("[edit] " + canonicalJson(input).slice(0, 150) + "...");
    expect(lineFor(input, 0)).toBe("[edit] " + canonicalJson(input));
  });
});
