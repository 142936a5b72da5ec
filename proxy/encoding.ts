/**
 * The content encodings the proxy can read, and the offer it makes the upstream. The proxy reads
 * each compactable answer (usage, the bill) and each error body (a context-length refusal, a
 * refusal we caused), so an answer in an encoding it cannot decode is one it is blind to. Clients
 * offer what they can decode themselves (Codex 0.171 sends `accept-encoding: zstd,gzip`), and
 * Node has zstd only from 22.15 (`zlib.zstdDecompressSync`; none on Node 20): the offer sent on is
 * the client's own, less the encodings this runtime cannot decode, in the client's order with its
 * weights. Whatever the upstream then picks is one the client accepted.
 */
import zlib from "node:zlib";
import type { IncomingHttpHeaders } from "node:http";

export type Decode = (body: Buffer, options: { maxOutputLength: number }) => Buffer;

/** Node's zstd decoder where the runtime has one (feature-detected: absent before Node 22.15). */
const zstd = (zlib as { zstdDecompressSync?: Decode }).zstdDecompressSync;

/** Each encoding this runtime decodes, by its name in `content-encoding`. */
export const DECODERS: Readonly<Record<string, Decode>> = Object.freeze({
  gzip: zlib.gunzipSync, "x-gzip": zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync,
  ...(zstd === undefined ? {} : { zstd }),
});

/** The bytes as they are: an answer with no `content-encoding`, or `identity`. */
export const IDENTITY: Decode = (body) => body;

/** The decoder of an answer's `content-encoding` (`IDENTITY` for none), or null when the runtime has none. */
export function decoderOf(encoding: string | undefined, decoders: Readonly<Record<string, Decode>> = DECODERS): Decode | null {
  const e = (encoding ?? "").trim().toLowerCase();
  if (e === "" || e === "identity") return IDENTITY;
  return Object.prototype.hasOwnProperty.call(decoders, e) ? decoders[e] : null;
}

interface Coding {
  name: string;
  q: number;
  text: string;
}

function codings(header: string): Coding[] {
  return header.split(",").map((part) => part.trim()).filter((t) => t !== "").map((text) => {
    const [name, ...params] = text.split(";").map((s) => s.trim());
    const q = params.map((p) => /^q\s*=\s*([0-9.]+)$/i.exec(p)).find((m) => m !== null);
    const weight = q === undefined ? 1 : Number(q![1]);
    return { name: name.toLowerCase(), q: Number.isFinite(weight) ? weight : 1, text };
  });
}

/**
 * The `accept-encoding` to send on for a client's: the client's codings this runtime decodes (and
 * `identity`), in its order with its weights; not `*`, which would let the upstream pick any.
 * Nothing left: `identity`, unless the client refused identity, in which case the client's own
 * header goes on (an answer the proxy cannot read is better than one the client cannot). An offer
 * with nothing to remove comes back as it was.
 */
export function readableOffer(header: string, decoders: Readonly<Record<string, Decode>> = DECODERS): string {
  const all = codings(header);
  const kept = all.filter((c) => c.name === "identity" || Object.prototype.hasOwnProperty.call(decoders, c.name));
  if (kept.length === all.length) return header;
  if (kept.some((c) => c.q > 0)) return kept.map((c) => c.text).join(", ");
  const identity = all.find((c) => c.name === "identity") ?? all.find((c) => c.name === "*");
  return identity !== undefined && identity.q === 0 ? header : "identity";
}

/** The client's headers with the offer made readable (the same object when nothing changes). */
export function withReadableOffer(headers: IncomingHttpHeaders, decoders: Readonly<Record<string, Decode>> = DECODERS): IncomingHttpHeaders {
  const offer = headers["accept-encoding"];
  if (typeof offer !== "string") return headers;
  const readable = readableOffer(offer, decoders);
  return readable === offer ? headers : { ...headers, "accept-encoding": readable };
}
