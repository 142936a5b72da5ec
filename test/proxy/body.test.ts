import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bodyText } from "../../proxy/decision/body.js";

// Past 16 KB the proxy decodes with TextDecoder; it must give exactly what toString gives (a leading BOM kept).
const big = (piece: Uint8Array, size = 20_000): Buffer => {
  const times = Math.ceil(size / Math.max(1, piece.length));
  return Buffer.concat(Array.from({ length: times }, () => Buffer.from(piece)));
};

describe("the proxy's body decoding", () => {
  it("gives what Buffer#toString gives for any text, small or large, ASCII or not", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), fc.boolean(), (s, large) => {
      const bytes = Buffer.from(s, "utf8"); // lone surrogates become U+FFFD here, as a client's encoder writes them
      const raw = large ? big(bytes) : bytes;
      expect(bodyText(raw)).toBe(raw.toString("utf8"));
    }), { numRuns: 300 });
  });

  it("gives what Buffer#toString gives for bytes that are not UTF-8 (the same replacement characters)", () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
      const raw = big(Buffer.concat([Buffer.from('{"a":"é😀'), Buffer.from(bytes)]));
      expect(bodyText(raw)).toBe(raw.toString("utf8"));
    }), { numRuns: 300 });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), big(Buffer.from("é😀 "))]);
    expect(bodyText(bom)).toBe(bom.toString("utf8"));
    for (const bad of [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xef, 0xbb, 0xbf]]) {
      const raw = big(Buffer.concat([Buffer.from("é "), Buffer.from(bad)]));
      expect(bodyText(raw)).toBe(raw.toString("utf8"));
    }
  });
});
