/**
 * What a platform hands, read as the plain dialect reads it (core/platform/messages.ts), and the
 * plugin's escapes over it (plugin/escape.ts): the two sides of the plugin's one reading of its input.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { platformMessages } from "../../core/platform/index.js";
import { escapedLength, escapeText, unescapeText } from "../../plugin/escape.js";

describe("platformMessages", () => {
  it("skips what is not an object, names a missing or empty role unknown, reads other content as canonical JSON", () => {
    const { messages } = platformMessages([null, 3, "x", ["user"], { content: "a" }, { role: "", content: null }, { role: "tool", content: { b: 1, a: [2] } }], (r) => r);
    expect(messages).toEqual([
      { role: "unknown", content: "a" },
      { role: "unknown", content: "" },
      { role: "tool", content: '{"a":[2],"b":1}' },
    ]);
  });

  it("content JSON cannot read (a cycle) becomes empty text, not a throw", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(platformMessages([{ role: "user", content: cyclic }], (r) => r).messages).toEqual([{ role: "user", content: "" }]);
  });

  it("names the newest message the plain dialect reads as the model's, by any of its role names; -1 when none is", () => {
    const raw = (roles: string[]): unknown[] => roles.map((role, i) => ({ role, content: String(i) }));
    expect(platformMessages(raw(["user", "assistant", "tool", "Model", "user"]), (r) => r).lastAssistant).toBe(3);
    expect(platformMessages(raw(["user", "AI", "tool"]), (r) => r).lastAssistant).toBe(1);
    expect(platformMessages(raw(["user", "tool", "system"]), (r) => r).lastAssistant).toBe(-1);
    // Skipped entries do not shift the index: it counts the messages returned.
    expect(platformMessages([7, { role: "assistant", content: "" }], (r) => r).lastAssistant).toBe(0);
  });

  it("applies the host's bound on a role before it reads the role's class", () => {
    const { messages, lastAssistant } = platformMessages([{ role: "assistant-but-long", content: "x" }], (r) => r.slice(0, 9));
    expect(messages[0].role).toBe("assistant");
    expect(lastAssistant).toBe(0);
  });
});

describe("the plugin's escapes", () => {
  it("write each lone surrogate as an escape, keep pairs, and say the escaped length without writing it", () => {
    const text = "a\ud800b😀\udc00\ud83d";
    const escaped = escapeText(text);
    expect(escaped).toBe("a\ue000d800b😀\ue000dc00\ue000d83d");
    expect(escapedLength(text)).toBe(escaped.length);
    expect(escapeText("pairs only 😀😀")).toBe("pairs only 😀😀");
  });

  it("round-trip any text, and the counted length is the written one", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), (s) => {
      const e = escapeText(s);
      expect(e.length).toBe(escapedLength(s));
      expect(unescapeText(e)).toBe(s);
    }), { numRuns: 2000 });
  });
});
