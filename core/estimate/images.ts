/**
 * Image pricing: an image payload costs what the provider bills for it (28×28-pixel patches,
 * capped), not its base64 length. Dimensions come from the header bytes, decoded here without
 * atob/Buffer so the same code runs in a bare sandbox.
 */

/** Most tokens one image can cost; also the price of an image whose size cannot be read. */
export const MAX_IMAGE_TOKENS = 4784;
const PATCH = 28;
const HEADER_CHARS = 8192;

const B64 = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  table["-".charCodeAt(0)] = 62; // URL-safe alphabet
  table["_".charCodeAt(0)] = 63;
  return table;
})();

/** Lenient base64 decode (characters outside the alphabet are skipped, like Python's default). */
export function decodeBase64Prefix(text: string, maxChars = HEADER_CHARS): Uint8Array {
  const limit = Math.min(text.length, maxChars - (maxChars % 4));
  const out = new Uint8Array(Math.floor((limit * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d) break; // padding ends the data
    const v = c < 128 ? B64[c] : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

const be16 = (b: Uint8Array, i: number): number => (b[i] << 8) | b[i + 1];
const le16 = (b: Uint8Array, i: number): number => b[i] | (b[i + 1] << 8);
const be32 = (b: Uint8Array, i: number): number => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const le24 = (b: Uint8Array, i: number): number => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const le32 = (b: Uint8Array, i: number): number => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;

type Size = [number, number] | null;

function pngSize(b: Uint8Array): Size {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 24) return null;
  for (let i = 0; i < 8; i++) if (b[i] !== sig[i]) return null;
  return [be32(b, 16), be32(b, 20)];
}

function jpegSize(b: Uint8Array): Size {
  if (b.length < 2 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  const n = b.length;
  while (i + 9 < n) {
    if (b[i] !== 0xff) {
      i += 1;
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += 2;
      continue;
    }
    const segment = be16(b, i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [be16(b, i + 7), be16(b, i + 5)];
    }
    if (segment < 2) return null;
    i += 2 + segment;
  }
  return null;
}

function gifSize(b: Uint8Array): Size {
  if (b.length < 10) return null;
  const tag = String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5]);
  if (tag !== "GIF87a" && tag !== "GIF89a") return null;
  return [le16(b, 6), le16(b, 8)];
}

function webpSize(b: Uint8Array): Size {
  if (b.length < 25) return null;
  const ascii = (i: number, len: number): string => String.fromCharCode(...Array.from(b.subarray(i, i + len)));
  if (ascii(0, 4) !== "RIFF" || ascii(8, 4) !== "WEBP") return null;
  const chunk = ascii(12, 4);
  if (chunk === "VP8X" && b.length >= 30) return [le24(b, 24) + 1, le24(b, 27) + 1];
  if (chunk === "VP8 " && b.length >= 30) return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
  if (chunk === "VP8L") {
    const bits = le32(b, 21);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  return null;
}

/** Width and height read from PNG, JPEG, GIF or WebP header bytes, or null. */
export function imageSize(bytes: Uint8Array): Size {
  for (const read of [pngSize, jpegSize, gifSize, webpSize]) {
    const size = read(bytes);
    if (size !== null && size[0] > 0 && size[1] > 0) return size;
  }
  return null;
}

/** Tokens for an image of the given pixel size: one per 28×28 patch, at least 1, at most MAX_IMAGE_TOKENS. */
export function tokensForSize(width: number, height: number): number {
  const patches = Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
  return Math.max(1, Math.min(patches, MAX_IMAGE_TOKENS));
}

/**
 * Tokens for one image payload: a `data:` URI or raw base64 is priced by its dimensions; a hosted
 * URL, a file id or anything undecodable costs MAX_IMAGE_TOKENS (nothing is ever fetched).
 */
export function imageTokens(payload: string): number {
  if (typeof payload !== "string") return MAX_IMAGE_TOKENS;
  let data = payload;
  if (payload.startsWith("data:")) {
    const comma = payload.indexOf(",");
    if (comma < 0) return MAX_IMAGE_TOKENS;
    data = payload.slice(comma + 1, comma + 1 + HEADER_CHARS);
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(payload)) {
    return MAX_IMAGE_TOKENS;
  }
  const size = imageSize(decodeBase64Prefix(data));
  return size === null ? MAX_IMAGE_TOKENS : tokensForSize(size[0], size[1]);
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * The image payload a JSON node carries, when the node is an image in any of the shapes the
 * dialects use (Anthropic/Pi image blocks, OpenAI image_url / input_image, computer screenshots,
 * image generation results); undefined otherwise.
 */
export function imagePayload(node: Record<string, unknown>): string | undefined {
  const type = node.type;
  // A Gemini part's `inlineData` ({mimeType, data}, no type): an image is billed as one.
  if (typeof type !== "string") return typeof node.mimeType === "string" && node.mimeType.startsWith("image/") ? str(node.data) : undefined;
  switch (type) {
    case "image": {
      const source = node.source;
      if (source !== null && typeof source === "object" && !Array.isArray(source)) {
        const s = source as Record<string, unknown>;
        return str(s.data) ?? str(s.url);
      }
      return str(node.data) ?? str(node.url);
    }
    case "input_image":
    case "image_url":
    case "computer_screenshot": {
      const url = node.image_url;
      if (typeof url === "string") return url;
      if (url !== null && typeof url === "object" && typeof (url as Record<string, unknown>).url === "string") {
        return (url as Record<string, unknown>).url as string;
      }
      return str(node.file_id);
    }
    case "image_generation_call":
      return str(node.result);
    default:
      return undefined;
  }
}
