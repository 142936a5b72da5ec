/**
 * SHA-256 of a string's UTF-8 bytes, in plain ES2020 (no crypto, no TextEncoder), so the engine's
 * hash chain is the same in Node, in a bare V8 context and in QuickJS.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const W = new Int32Array(64);
let buffer = new Uint8Array(1 << 16);

/**
 * UTF-8 bytes of `text` into the shared buffer, padded for SHA-256 as the tail of a message that
 * already had `before` bytes hashed; returns the padded length. Lone surrogates encode as U+FFFD.
 */
function encodePadded(text: string, before: number): number {
  const worst = text.length * 3 + 72;
  if (buffer.length < worst) buffer = new Uint8Array(Math.max(worst, buffer.length * 2));
  const b = buffer;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      b[n++] = c;
      continue;
    }
    if (c < 0x800) {
      b[n++] = 0xc0 | (c >> 6);
      b[n++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = text.charCodeAt(i + 1);
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        b[n++] = 0xf0 | (c >> 18);
        b[n++] = 0x80 | ((c >> 12) & 63);
        b[n++] = 0x80 | ((c >> 6) & 63);
        b[n++] = 0x80 | (c & 63);
        continue;
      }
      c = 0xfffd;
    }
    b[n++] = 0xe0 | (c >> 12);
    b[n++] = 0x80 | ((c >> 6) & 63);
    b[n++] = 0x80 | (c & 63);
  }
  const bits = (n + before) * 8;
  b[n++] = 0x80;
  while (n % 64 !== 56) b[n++] = 0;
  const hi = Math.floor(bits / 0x100000000);
  b[n++] = hi >>> 24;
  b[n++] = (hi >>> 16) & 255;
  b[n++] = (hi >>> 8) & 255;
  b[n++] = hi & 255;
  b[n++] = bits >>> 24;
  b[n++] = (bits >>> 16) & 255;
  b[n++] = (bits >>> 8) & 255;
  b[n++] = bits & 255;
  return n;
}

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? "0" : "") + i.toString(16));

function hex32(x: number): string {
  return HEX[(x >>> 24) & 255] + HEX[(x >>> 16) & 255] + HEX[(x >>> 8) & 255] + HEX[x & 255];
}

const NON_ASCII = /[^\u0000-\u007f]/;
const H = new Int32Array(8);

/** Lower-case hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  H[0] = 0x6a09e667; H[1] = 0xbb67ae85 | 0; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a | 0;
  H[4] = 0x510e527f; H[5] = 0x9b05688c | 0; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
  let from = 0;
  if (!NON_ASCII.test(text)) {
    // ASCII: the characters are the bytes, so whole blocks are read straight from the string.
    from = text.length - (text.length % 64);
    compress(text, 0, from);
  }
  const length = encodePadded(from === 0 ? text : text.slice(from), from);
  compress(buffer, 0, length);
  return hex32(H[0]) + hex32(H[1]) + hex32(H[2]) + hex32(H[3]) + hex32(H[4]) + hex32(H[5]) + hex32(H[6]) + hex32(H[7]);
}

/** Runs the compression function over the 64-byte blocks of `src[start..end)` (a byte array or an ASCII string). */
function compress(src: string | Uint8Array, start: number, end: number): void {
  let h0 = H[0], h1 = H[1], h2 = H[2], h3 = H[3], h4 = H[4], h5 = H[5], h6 = H[6], h7 = H[7];
  for (let off = start; off < end; off += 64) {
    if (typeof src === "string") {
      for (let t = 0, j = off; t < 16; t++, j += 4) {
        W[t] = (src.charCodeAt(j) << 24) | (src.charCodeAt(j + 1) << 16) | (src.charCodeAt(j + 2) << 8) | src.charCodeAt(j + 3);
      }
    } else {
      for (let t = 0, j = off; t < 16; t++, j += 4) W[t] = (src[j] << 24) | (src[j + 1] << 16) | (src[j + 2] << 8) | src[j + 3];
    }
    for (let t = 16; t < 64; t++) {
      const x = W[t - 15];
      const y = W[t - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  H[0] = h0; H[1] = h1; H[2] = h2; H[3] = h3; H[4] = h4; H[5] = h5; H[6] = h6; H[7] = h7;
}

/** Bytes of `text` in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
