/** The addresses only this machine can reach: 127.0.0.0/8, ::1 (bracketed or not, or IPv4-mapped), localhost. */
import { isIP } from "node:net";

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.replace(/^\[|\]$/g, "").replace(/^::ffff:/i, "");
  if (a === "localhost" || a === "::1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}
