import { describe, expect, it } from "vitest";
import {
  billableChars,
  canonicalJson,
  estimateTokens,
  imageTokens,
  MAX_IMAGE_TOKENS,
  pythonJson,
  pythonJsonLength,
  resolveConfig,
  ConfigError,
  DEFAULT_CONFIG,
} from "../../core/index.js";
import { pngDataUri } from "../helpers/sessions.js";
import { stringJsonLength } from "../../core/estimate/json-string.js";
import fc from "fast-check";

const b64 = (bytes: number[]): string => Buffer.from(bytes).toString("base64");

describe("images", () => {
  it("caps an 8000×8000 image and ignores payload length", () => {
    expect(imageTokens(pngDataUri(8000, 8000))).toBe(MAX_IMAGE_TOKENS);
    const small = { type: "image", source: { type: "base64", media_type: "image/png", data: pngDataUri(200, 200).split(",")[1] } };
    const padded = { type: "image", source: { type: "base64", media_type: "image/png", data: pngDataUri(200, 200).split(",")[1] + "A".repeat(40000) } };
    expect(billableChars(padded)).toBe(billableChars(small));
  });

  it("prices raw base64 (Anthropic, Pi) by dimensions", () => {
    const raw = pngDataUri(200, 200).split(",")[1];
    const block = { type: "image", source: { type: "base64", media_type: "image/png", data: raw } };
    expect(billableChars(block)).toBe(pythonJsonLength(block) - raw.length + 64 * 4);
    const piBlock = { type: "image", data: raw, mimeType: "image/png" };
    expect(billableChars(piBlock)).toBe(pythonJsonLength(piBlock) - raw.length + 64 * 4);
  });

  it("a hosted URL, a file id and an undecodable payload cost the maximum", () => {
    expect(imageTokens("https://example.com/cat.png")).toBe(MAX_IMAGE_TOKENS);
    expect(imageTokens("data:image/png;base64,!!!!")).toBe(MAX_IMAGE_TOKENS);
    const fileImage = { type: "input_image", file_id: "file-abc123" };
    expect(billableChars(fileImage)).toBe(pythonJsonLength(fileImage) - "file-abc123".length + MAX_IMAGE_TOKENS * 4);
  });

  it("reads JPEG (with fill bytes), GIF and WebP sizes; a 28-byte VP8L costs 1 token", () => {
    const jpeg = [0xff, 0xd8, 0xff, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xc2, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0];
    expect(imageTokens("data:image/jpeg;base64," + b64(jpeg))).toBe(Math.ceil(640 / 28) * Math.ceil(450 / 28));
    const gif = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x40, 0x01, 0xc8, 0x00, 0, 0];
    expect(imageTokens("data:image/gif;base64," + b64(gif))).toBe(Math.ceil(320 / 28) * Math.ceil(200 / 28));
    const riff = (chunk: string, rest: number[]): number[] => [..."RIFF"].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0], [..."WEBP"].map((c) => c.charCodeAt(0)), [...chunk].map((c) => c.charCodeAt(0)), rest);
    const vp8l = riff("VP8L", [0, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0, 0, 0]);
    expect(vp8l.length).toBe(28);
    expect(imageTokens(b64(vp8l))).toBe(1);
    const vp8x = riff("VP8X", [10, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0x01, 0x00, 0xef, 0x00, 0x00]);
    expect(imageTokens(b64(vp8x))).toBe(Math.ceil(320 / 28) * Math.ceil(240 / 28));
  });

  it("ignores documents; 32 screenshots cost between 64k and 153k tokens", () => {
    const doc = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK".repeat(100) } };
    expect(billableChars(doc)).toBe(pythonJsonLength(doc));
    const shots = Array.from({ length: 32 }, () => ({ type: "image", source: { type: "base64", media_type: "image/png", data: pngDataUri(1920, 1080).split(",")[1] } }));
    const est = estimateTokens({ messages: [{ role: "user", content: shots }] });
    expect(est).toBeGreaterThan(64000);
    expect(est).toBeLessThan(153000);
  });

  it("per-message cost is billable + 2 and sums to the body estimate within 8", () => {
    const msgs = [{ role: "user", content: "a" }, { role: "user", content: [{ type: "image", source: { data: pngDataUri(500, 500) } }] }];
    const body = { messages: msgs };
    const sum = msgs.reduce((n, m) => n + billableChars(m) + 2, 0);
    expect(sum).toBeLessThanOrEqual(billableChars(body) + 8);
    expect(billableChars(msgs)).toBe(2 + msgs.reduce((n, m) => n + billableChars(m), 0) + 2 * (msgs.length - 1));
  });
});

describe("json", () => {
  it("the count-only serializer matches the real one", () => {
    const values: unknown[] = [
      { a: [1, 2.5, -0, 1e-7, 1e21, null, true, false, "q\"\\\n\t\u0001é😀"], b: { "2": "x", "1": undefined, c: () => 1 } },
      [undefined, NaN, Infinity, [], {}],
      "lone \ud800 surrogate \udc00",
      { "__proto__": 1, constructor: { prototype: 2 } },
    ];
    for (const v of values) expect(pythonJsonLength(v)).toBe(pythonJson(v).length);
    expect(pythonJson(JSON.parse('{"__proto__": {"x": 1}}'))).toBe('{"__proto__": {"x": 1}}');
  });

  it("counts escapes exactly on random strings (quotes, controls, astral and lone surrogates)", () => {
    const alphabet = ['"', "\\", "\n", "\t", "\r", "\b", "\f", "\u0001", "\u001f", "a", "é", "😀", "\ud800", "\udc00", " ", "\u2028"];
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let i = 0; i < 2000; i++) {
      let s = "";
      const len = rand(40);
      for (let j = 0; j < len; j++) s += alphabet[rand(alphabet.length)];
      expect(pythonJsonLength(s)).toBe(JSON.stringify(s).length);
    }
  });

  it("counts whole numbers to the digit, at and around every power of ten up to 1e21", () => {
    const near = fc.tuple(fc.integer({ min: 0, max: 21 }), fc.integer({ min: -3, max: 3 })).map(([k, d]) => 10 ** k + d);
    const whole = fc.oneof(near, fc.maxSafeInteger(), fc.double({ min: 0, max: 1e21, noNaN: true }).map(Math.floor));
    fc.assert(fc.property(fc.array(whole, { maxLength: 20 }), (xs) => {
      expect(pythonJsonLength(xs)).toBe(pythonJson(xs).length);
    }), { numRuns: 2000 });
  });

  it("formats numbers the JS way and orders keys the JS way", () => {
    expect(canonicalJson([1.0, -0, 1e-7])).toBe("[1,0,1e-7]");
    expect(canonicalJson({ "！": 1, "😀": 2 })).toBe('{"😀":2,"！":1}');
    expect(pythonJsonLength("😀")).toBe(4);
    expect(pythonJson({ b: 1, a: [1, 2] })).toBe('{"b": 1, "a": [1, 2]}');
  });

  it("handles 100,000-deep nesting and rejects cycles with a clear error", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100000; i++) deep = [deep];
    expect(pythonJsonLength(deep)).toBe(200003);
    expect(canonicalJson(deep, 10)).toBe("[".repeat(11));
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    expect(() => pythonJsonLength(cyc)).toThrow(/cyclic/);
    expect(() => canonicalJson(cyc)).toThrow(/cyclic/);
  });
});

describe("config", () => {
  it("has the reference defaults under the reference profile, the recall profile's by default", () => {
    expect(DEFAULT_CONFIG.profile).toBe("recall");
    expect(resolveConfig({ profile: "reference" })).toMatchObject({ keepRecent: 3, thoughtMaxChars: 0, cmdMaxChars: 150, resultMaxChars: 500, humanMaxChars: 20000, keepThinking: true, thresholdTokens: 200000 });
  });
  it("accepts snake_case and camelCase, rejects wrong types, negatives, fractions and unknown keys by name", () => {
    expect(resolveConfig({ keep_recent: 1, thoughtMaxChars: 300 })).toMatchObject({ keepRecent: 1, thoughtMaxChars: 300 });
    expect(() => resolveConfig({ keepRecent: -1 })).toThrow(/keepRecent/);
    expect(() => resolveConfig({ result_max_chars: 1.5 })).toThrow(/result_max_chars/);
    expect(() => resolveConfig({ keepThinking: "yes" })).toThrow(/keepThinking/);
    expect(() => resolveConfig({ keepRecnt: 1 })).toThrow(/keepRecnt/);
    expect(() => resolveConfig({ maxSummaryRatio: 2 })).toThrow(/maxSummaryRatio/);
    expect(() => resolveConfig([1])).toThrow(ConfigError);
    try {
      resolveConfig({ cmdMaxChars: "x" });
    } catch (e) {
      expect((e as ConfigError).key).toBe("cmdMaxChars");
    }
  });
});

describe("the fast estimate against a slow, obviously right one", () => {
  // JSON.stringify escapes exactly what the Python default does with ensure_ascii=False: quotes,
  // backslashes and control characters (short forms for \b \f \n \r \t), and lone surrogates.
  const slow = (s: string): number => JSON.stringify(s).length;
  const piece = fc.oneof(
    fc.constantFrom("\n", "\t", "\r", '"', "\\", "\u0000", "\u0001", "\u001f", "\u007f", "\b", "\f", "é", "日本", "😀", "\ud800", "\udc00", "\ue000", "a", " "),
    fc.string({ maxLength: 20, unit: "binary" }),
    fc.string({ maxLength: 20 }),
  );
  const text = fc.tuple(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), fc.constantFrom("x", "word ", "line\n", "é ")).map(([parts, n, filler]) => parts.join("") + filler.repeat(n));

  it("counts every string to the character, short and long, one byte or two", () => {
    fc.assert(fc.property(text, (s) => {
      expect(stringJsonLength(s)).toBe(slow(s));
    }), { numRuns: 3000 });
  });

  it("measures every value as its Python-default serialisation is long", () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(text, tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(fc.property(value, (v) => {
      expect(pythonJsonLength(v)).toBe(pythonJson(v).length);
    }), { numRuns: 1000 });
  });
});
