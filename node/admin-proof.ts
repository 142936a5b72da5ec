/**
 * Proving a listener holds the admin token before a client sends it. Another account can hold the
 * port while the user's proxy is down (loopback is shared by every account); a client that sent the
 * token there would hand over what opens the real proxy's session text. So the client sends a
 * fresh nonce to `/_cliff/prove`, the proxy answers HMAC(token, port and nonce), and only an answer
 * the client's own token reproduces lets the token go. The port is the one the proxy accepted the
 * connection on: a squatter that relays the nonce to the user's proxy on another port gets a proof
 * for that port, not for its own.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const PROVE_PATH = "/_cliff/prove";

/** A nonce as the proxy accepts it: 32 to 128 hex digits. */
export const NONCE = /^[0-9a-f]{32,128}$/;

export const newNonce = (): string => randomBytes(32).toString("hex");

/** Domain-separated from the cookie's HMAC (access.ts), so no nonce makes the proof a cookie. */
export const proofOf = (token: string, port: number, nonce: string): string => createHmac("sha256", token).update(`cliffcompaction admin proof v1\n${port}\n${nonce}`).digest("base64url");

/** Whether `proof` is the one `token` gives for this port and nonce (constant time). */
export function proves(token: string, port: number, nonce: string, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const want = Buffer.from(proofOf(token, port, nonce));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}
