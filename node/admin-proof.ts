/**
 * Proving a listener holds the admin token before a client sends it. Another account can hold the
 * port while the user's proxy is down (loopback is shared by every account); a client that sent the
 * token there would hand over what opens the real proxy's session text. So the client sends a
 * fresh nonce to `/_cliff/prove`, the proxy answers HMAC(token, address, port and nonce), and only
 * an answer the client's own token reproduces for the address and port it dialled lets the token
 * go. The address and port are the ones the proxy accepted the connection on: a squatter that
 * relays the nonce to the user's proxy gets a proof for the proxy's address and port, not for its
 * own, whether it took another port or the same port at another loopback address (127.0.0.2, `::1`
 * where `localhost` resolves to it first).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const PROVE_PATH = "/_cliff/prove";

/** A nonce as the proxy accepts it: 32 to 128 hex digits. */
export const NONCE = /^[0-9a-f]{32,128}$/;

export const newNonce = (): string => randomBytes(32).toString("hex");

/** An address as both ends name it: no brackets, an IPv4-mapped IPv6 address as its IPv4 one, lower case. */
export const canonicalAddress = (address: string): string => address.replace(/^\[|\]$/g, "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").toLowerCase();

/** Domain-separated from the cookie's HMAC (access.ts), so no nonce makes the proof a cookie. */
export const proofOf = (token: string, address: string, port: number, nonce: string): string =>
  createHmac("sha256", token).update(`cliffcompaction admin proof v2\n${canonicalAddress(address)}\n${port}\n${nonce}`).digest("base64url");

/** Whether `proof` is the one `token` gives for this address, port and nonce (constant time). */
export function proves(token: string, address: string, port: number, nonce: string, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const want = Buffer.from(proofOf(token, address, port, nonce));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}
