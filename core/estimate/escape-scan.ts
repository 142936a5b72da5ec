/**
 * Counting a string's escapes at memory speed where the platform offers the means: its own UTF-8
 * encoder (TextEncoder.encodeInto) writes the string into WebAssembly memory, and a SIMD pass
 * (escape-scan.wat) counts the bytes that need escaping, sixteen at a time. Hit-dense text (code,
 * JSON in tool results) costs the same as plain prose, where a search per character pays for every
 * hit. Where either is missing (QuickJS, a bare V8 context, a page whose policy forbids
 * WebAssembly) `escapeScanner` is undefined and the caller counts by native searches instead.
 */
import { ESCAPE_SCAN_WASM_HEX } from "./escape-scan-module.js";

// The module's flags, above any count one scan can reach (its memory is 256 KiB).
const WASM_RARE = 0x10000000;
const WASM_LEAD_EF = 0x20000000;
const WASM_COUNT = 0x0fffffff;

/** In a scanner's result: a control other than \t \n \r occurs, so the count alone is not the length. */
export const RARE_CONTROL = 1;
/** In a scanner's result: a 0xEF byte occurs, so the string may hold lone surrogates (written as U+FFFD). */
export const MAYBE_LONE_SURROGATE = 2;

interface EncodeResult {
  written?: number;
}
interface Encoder {
  encodeInto(source: string, destination: Uint8Array): EncodeResult;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
/** What the scanner needs of the platform (globalThis, or a stand-in in tests). */
export interface ScanPlatform {
  WebAssembly?: WasmApi;
  TextEncoder?: new () => Encoder;
}

/**
 * Counts one string: `4 × n + flags`, where n is how many of its units are `"`, `\` or controls
 * and flags holds RARE_CONTROL and MAYBE_LONE_SURROGATE (a plain number: n has no bound an int could hold).
 */
export type EscapeScanner = (s: string) => number;

/** A scanner's result from an escape count and the module's flag bits. */
function packed(escapes: number, wasmFlags: number): number {
  return escapes * 4 + (wasmFlags & WASM_RARE ? RARE_CONTROL : 0) + (wasmFlags & WASM_LEAD_EF ? MAYBE_LONE_SURROGATE : 0);
}

/** The flags (RARE_CONTROL, MAYBE_LONE_SURROGATE) of a scanner's result. */
export function scanFlags(result: number): number {
  return result % 4;
}

/** How many units of the string need escaping, by a scanner's result. */
export function scanEscapes(result: number): number {
  return (result - (result % 4)) / 4;
}

function bytesOf(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function scannerFrom(platform: ScanPlatform): EscapeScanner | undefined {
  const wasm = platform.WebAssembly;
  const Encoder = platform.TextEncoder;
  if (typeof wasm !== "object" || wasm === null || typeof Encoder !== "function") return undefined;
  const { exports } = new wasm.Instance(new wasm.Module(bytesOf(ESCAPE_SCAN_WASM_HEX)));
  const scan = exports.scan as (length: number) => number;
  const memory = new Uint8Array((exports.memory as { buffer: ArrayBuffer }).buffer);
  // Each unit takes at most three bytes, and the scan pads its last vector past the end.
  const window = memory.subarray(0, memory.length - 16);
  const chunkUnits = Math.floor(window.length / 3);
  const encoder = new Encoder();
  return (s) => {
    if (s.length <= chunkUnits) {
      const r = scan(encoder.encodeInto(s, window).written as number);
      return packed(r & WASM_COUNT, r);
    }
    // A longer string goes through in pieces that fit, each ending between characters, never
    // inside a pair. Each piece is sliced to its own end: an encoder may copy all of the source it
    // is handed (a browser's does), so handing it the rest of the string each time would be quadratic.
    let count = 0;
    let flags = 0;
    for (let at = 0; at < s.length; ) {
      let end = Math.min(s.length, at + chunkUnits);
      const last = s.charCodeAt(end - 1);
      if (end < s.length && last >= 0xd800 && last <= 0xdbff) end--;
      const r = scan(encoder.encodeInto(s.slice(at, end), window).written as number);
      count += r & WASM_COUNT;
      flags |= r;
      at = end;
    }
    return packed(count, flags);
  };
}

/** Whether `scanner` gives what the rules say on strings whose answers are known (a platform's encoder could differ). */
function behaves(scanner: EscapeScanner): boolean {
  return (
    scanner('a"b\\c\nd\te\rf') === 5 * 4 &&
    scanner("sixteen bytes...then \"two\"") === 2 * 4 &&
    scanner("\u0001") === 1 * 4 + RARE_CONTROL &&
    scanner("\ud800") === MAYBE_LONE_SURROGATE &&
    scanner("é😀日本 plain") === 0
  );
}

/** A scanner on `platform`, or undefined where it cannot run or does not give the right answers. */
export function loadEscapeScanner(platform: ScanPlatform): EscapeScanner | undefined {
  try {
    const scanner = scannerFrom(platform);
    return scanner !== undefined && behaves(scanner) ? scanner : undefined;
  } catch {
    return undefined; // no SIMD, or WebAssembly forbidden here: the caller counts another way
  }
}

/**
 * Defined (true) by the sandbox build: the AgentParley sandbox promises ES2020 alone, no TextEncoder,
 * so that bundle leaves the scanner and its module out.
 */
declare const __CLIFF_ES2020_ONLY__: boolean | undefined;

/** The scanner on this platform, or undefined where it cannot run. */
export const escapeScanner: EscapeScanner | undefined =
  typeof __CLIFF_ES2020_ONLY__ !== "undefined" && __CLIFF_ES2020_ONLY__ ? undefined : loadEscapeScanner(globalThis as unknown as ScanPlatform);
