import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { refOf, REF_PATTERN } from "../../core/recall/index.js";

describe("refOf", () => {
  it("is the first 12 lowercase hex digits of the SHA-256 of the text's UTF-8", () => {
    for (const text of ["", "hello", "naïve — ünïcode 🎉", "x".repeat(70_000)]) {
      const expected = createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex").slice(0, 12);
      expect(refOf(text)).toBe(expected);
      expect(refOf(text)).toMatch(REF_PATTERN);
    }
  });

  it("differs when one character differs", () => {
    expect(refOf("result A")).not.toBe(refOf("result B"));
  });
});
