/**
 * `GET /_cliff/sessions/ID/sawtooth.svg`: a session's context per request with its cliffs marked,
 * drawn by the report's own chart (node/sawtooth.ts) from the counts the session keeps (its newest
 * requests). Numbers only: no text of a body is in it. Served as an image with a CSP of its own,
 * so even opened directly it runs nothing.
 */
import type { ServerResponse } from "node:http";
import { renderSvg } from "../../node/sawtooth.js";
import { WEB_HEADERS } from "./page.js";

export interface SawtoothCounts {
  requests: number;
  /** Tokens sent per request, newest last. */
  context: readonly number[];
  /** Tokens each of those held as the client sent it (the no-compaction line). */
  baseline: readonly number[];
  /** Whether each of those made a new cliff. */
  cliffAt: readonly boolean[];
  threshold: number;
}

export function sawtoothSvg(s: SawtoothCounts): string {
  const shown = s.context.length;
  const title = shown < s.requests ? `context per request: the newest ${shown} of ${s.requests} requests` : `context per request: ${s.requests} requests`;
  const cliffs = s.cliffAt.flatMap((c, i) => (c ? [i] : []));
  // The client's own requests are the session without us: the gap between the two lines is what the cliffs saved.
  return renderSvg({ context: [...s.context], baseline: [...s.baseline], cliffs, threshold: s.threshold, title });
}

export function sendSawtooth(res: ServerResponse, s: SawtoothCounts): void {
  const svg = sawtoothSvg(s);
  res.writeHead(200, { ...WEB_HEADERS, "content-type": "image/svg+xml; charset=utf-8", "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "content-length": String(Buffer.byteLength(svg)) });
  res.end(svg);
}

/** The page's icon: a small sawtooth, so a browser asks the proxy for `/_cliff/icon.svg` and never sends `/favicon.ico` upstream. */
export const ICON_PATH = "/_cliff/icon.svg";
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><polyline points="1,14 6,4 6,12 11,3 11,11 15,2" fill="none" stroke="#2563eb" stroke-width="2"/></svg>`;

export function sendIcon(res: ServerResponse): void {
  res.writeHead(200, { ...WEB_HEADERS, "cache-control": "max-age=86400", "content-type": "image/svg+xml", "content-security-policy": "default-src 'none'", "content-length": String(Buffer.byteLength(ICON)) });
  res.end(ICON);
}
