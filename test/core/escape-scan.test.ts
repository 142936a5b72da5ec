import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { escapeScanner, loadEscapeScanner, MAYBE_LONE_SURROGATE, RARE_CONTROL, type ScanPlatform } from "../../core/estimate/escape-scan.js";
import { escapedLengthSlow, scannedLength, searchedLength, stringJsonLength } from "../../core/estimate/json-string.js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// JSON.stringify escapes exactly what the Python default does with ensure_ascii=False.
const slow = (s: string): number => JSON.stringify(s).length;
const scanner = escapeScanner!;

const piece = fc.oneof(
  fc.constantFrom("\n", "\t", "\r", '"', "\\", "\u0000", "\u0001", "\u001f", "\u007f", "\b", "\f", "é", "日本", "😀", "\ud800", "\udc00", "\ue000", "\uef00", "\ufffd", "\uffff", "a", " "),
  fc.string({ maxLength: 20, unit: "binary" }),
  fc.string({ maxLength: 20 }),
);
const text = fc.tuple(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), fc.constantFrom("x", "word ", "line\n", 'say "hi"\\n ', "é ", "😀"))
  .map(([parts, n, filler]) => parts.join("") + filler.repeat(n));

describe("the SIMD escape scan", () => {
  it("runs on this platform (Node has WebAssembly SIMD and TextEncoder), so the tests below test it", () => {
    expect(escapeScanner).toBeTypeOf("function");
    expect(scanner('"\\\n\t\r' + "x".repeat(40))).toBe(5 * 4);
    expect(scanner("\u0002")).toBe(4 + RARE_CONTROL);
    expect(scanner("\udc00 ok") & MAYBE_LONE_SURROGATE).toBe(MAYBE_LONE_SURROGATE);
  });

  it("counts every string to the character, and so do the search and the unit-by-unit reader", () => {
    fc.assert(fc.property(text, (s) => {
      const want = slow(s);
      expect(scannedLength(s, scanner)).toBe(want);
      expect(searchedLength(s)).toBe(want);
      expect(escapedLengthSlow(s)).toBe(want);
      expect(stringJsonLength(s)).toBe(want);
    }), { numRuns: 3000 });
  });

  it("counts strings longer than its memory, with pairs, lone surrogates and escapes across every piece's edge", () => {
    const unit = ['😀', "é", '"', "\\", "\n", "日", "a", "\ud800", "\u0003"];
    for (const [i, tail] of unit.entries()) {
      // Lengths around the piece size (≈87,000 units) and its multiples put each kind of character on an edge.
      for (const size of [87_370, 87_376, 87_377, 174_752, 300_001]) {
        const s = "a".repeat(size - 1 - i) + tail + "😀".repeat(i + 1) + "x\"".repeat(i);
        expect(scannedLength(s, scanner), `${size} ${JSON.stringify(tail)}`).toBe(slow(s));
      }
    }
    const dense = '"'.repeat(400_000) + "😀é\n".repeat(100_000);
    expect(scannedLength(dense, scanner)).toBe(slow(dense));
    expect(stringJsonLength(dense)).toBe(slow(dense));
  });

  it("hands the encoder pieces no longer than its memory holds, never the rest of a long string", () => {
    // A browser's encoder copies all of the source it is handed: passing the rest of a 10 MB
    // string for every piece made one count quadratic there.
    const g = globalThis as unknown as Required<ScanPlatform>;
    const seen: number[] = [];
    class Recording {
      private readonly inner = new g.TextEncoder();
      encodeInto(source: string, out: Uint8Array): { written?: number } {
        seen.push(source.length);
        return this.inner.encodeInto(source, out);
      }
    }
    const scan = loadEscapeScanner({ WebAssembly: g.WebAssembly, TextEncoder: Recording as unknown as ScanPlatform["TextEncoder"] })!;
    seen.length = 0;
    const s = ('say "hi" 😀\n').repeat(100_000);
    expect(scannedLength(s, scan)).toBe(slow(s));
    expect(seen.reduce((a, b) => a + b, 0)).toBe(s.length);
    expect(Math.max(...seen)).toBeLessThan(100_000);
  });

  it("stands aside where the platform cannot run it or its encoder answers otherwise", () => {
    const g = globalThis as unknown as Required<ScanPlatform>;
    expect(loadEscapeScanner({})).toBeUndefined();
    expect(loadEscapeScanner({ TextEncoder: g.TextEncoder })).toBeUndefined();
    expect(loadEscapeScanner({ WebAssembly: g.WebAssembly })).toBeUndefined();
    const refusing = { Module: function () { throw new Error("WebAssembly is forbidden here"); }, Instance: g.WebAssembly.Instance } as unknown as ScanPlatform["WebAssembly"];
    expect(loadEscapeScanner({ WebAssembly: refusing, TextEncoder: g.TextEncoder })).toBeUndefined();
    // An encoder that writes a lone surrogate as its own three bytes (WTF-8) would hide it from the scan.
    class Wtf8 {
      encodeInto(s: string, out: Uint8Array): { read: number; written: number } {
        const r = new g.TextEncoder().encodeInto(s.replace(/[\ud800-\udfff]/g, "\u4000"), out);
        return { read: s.length, written: r.written ?? 0 };
      }
    }
    expect(loadEscapeScanner({ WebAssembly: g.WebAssembly, TextEncoder: Wtf8 as unknown as ScanPlatform["TextEncoder"] })).toBeUndefined();
    expect(loadEscapeScanner(g)).toBeTypeOf("function");
  });

  it("the committed module is assembled from core/estimate/escape-scan.wat (run npm run build:wasm after editing it)", () => {
    const check = spawnSync(process.execPath, [fileURLToPath(new URL("../../build-wasm.mjs", import.meta.url)), "--check"], { encoding: "utf8" });
    expect(check.stdout + check.stderr).toContain("matches its source");
    expect(check.status).toBe(0);
  });
});
