/**
 * `watch --web`: the address of the proxy's web view for the person at this machine. With the
 * admin token it is the login link (the token exchanged once for the page's cookie, then on to
 * the page); the token goes in the address only for a proxy that answers, and only printed.
 */
import { getJson } from "./client.js";

export const WEB_PATH = "/_cliff/";

/** The address to open: the login link when there is a token, else the page itself. */
export function webUrl(base: string, token?: string): string {
  if (token === undefined) return base + WEB_PATH;
  return `${base}/_cliff/login?token=${encodeURIComponent(token)}&next=${encodeURIComponent(WEB_PATH)}`;
}

/** Checks that a proxy answers at `base`, then prints the address to open. */
export async function printWebUrl(base: string, token?: string, headers: Record<string, string> = {}): Promise<number> {
  await getJson(base, "/_cliff/status?sessions=0", headers);
  process.stdout.write(`Open the web view of ${base} (this replica only) in a browser on this machine:\n  ${webUrl(base, token)}\n`);
  if (token !== undefined) process.stdout.write("The link holds your admin token: it signs the browser in once (a cookie for /_cliff/ only); do not share it.\n");
  return 0;
}

/** The token in the headers `adminHeaders` made (none when there is no token to send). */
export const tokenOf = (headers: Record<string, string>): string | undefined => /^Bearer (\S+)$/.exec(headers.authorization ?? "")?.[1];
