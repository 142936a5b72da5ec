/**
 * `GET /_cliff/`: the web view, one self-contained page (no external asset, no network beyond the
 * proxy's own endpoints). Its script and style sheet are inline and pinned by SHA-256 in a strict
 * Content-Security-Policy (no unsafe-inline, no unsafe-eval, connect-src and img-src 'self'): the
 * hashes are computed here, from the very strings served. The page holds no session data; the
 * script fetches it and writes it as text.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { PAGE_SCRIPT } from "./script.js";
import { PAGE_STYLE } from "./style.js";

/** The path of the page. */
export const WEB_PATH = "/_cliff/";

/** The CSP source of an inline element's exact text. */
export const sha256Source = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The page's Content-Security-Policy: its one script and one style by hash, reads from its own origin only. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256Source(PAGE_SCRIPT)}`,
  `style-src ${sha256Source(PAGE_STYLE)}`,
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const BODY = `<header>
<h1>cliffcompaction <span id="live">connecting…</span></h1>
<p class="note">This page shows one replica: the proxy at <code id="listen"></code> and only the requests it served. A team with several replicas opens each one, or adds them up in Prometheus from each replica's <code>/_cliff/metrics</code>.</p>
<p id="facts" class="muted"></p><p id="totals"></p><p id="provider" class="muted"></p>
<p id="problem" role="alert" hidden></p>
</header>
<main>
<h2>The threshold each model gets</h2>
<div class="scroll"><table><thead><tr><th>model</th><th class="num">threshold</th><th class="num">window</th><th>why</th></tr></thead><tbody id="thresholds"></tbody></table></div>
<h2>Sessions</h2>
<p><span class="muted">Sort:</span> <button type="button" data-sort="recent" aria-pressed="true">newest</button><button type="button" data-sort="cost" aria-pressed="false">by cost</button><button type="button" data-sort="cliffs" aria-pressed="false">by cliffs</button> <span id="count" class="muted"></span></p>
<p class="muted">Enter or a click selects a session; arrow keys move between rows. On a narrow screen the table shows the session, its requests, cliffs, cost and net; the selected session's details follow it.</p>
<div class="scroll"><table aria-label="sessions"><thead><tr><th>session</th><th class="wide">model</th><th class="num">requests</th><th class="num">cliffs</th><th class="num wide">re-fetches</th><th class="num wide">recalls</th><th class="num wide">context / threshold</th><th class="num wide">in · cache read · cache write · out</th><th class="num wide">cache hit</th><th class="num">cost</th><th class="num">cliffs' net</th><th class="num wide">age</th></tr></thead><tbody id="sessions"></tbody></table></div>
<section id="detail" hidden>
<h2 id="detail-title"></h2>
<img id="chart" alt="" width="900" height="380">
<h2>Each cliff's bill</h2><p class="note" id="net-note">Net: the tokens a cliff shed over its span, priced as cache reads (the least they could have cost), less what rewriting the prompt's cache cost beyond a read. A cliff pays its rewrite once and saves on every request after it, so a cliff with a short span, or a model whose cache reads are cheap, nets below zero though it shed many tokens.</p><ul id="bills"></ul><h2>Re-fetches after each cliff</h2><p class="note">Calls made after a cliff that repeat a call whose result it dropped (the same file read again, the same tool and arguments), with the tokens they brought back: what the cliff cost the agent.</p><ul id="refetches"></ul><h2>Recalls after each cliff</h2><p class="note">The model's calls of <code>cliff_recall</code> the proxy answered, counted against the cliff whose summary named the ref: the calls, the rounds they took (each one more request upstream) and the tokens of the texts they brought back.</p><ul id="recalls"></ul>
<h2>What the last cliff sent and dropped</h2><p id="cliff-head"></p>
<div class="cols"><div><h3>Summary sent</h3><pre id="summary"></pre></div><div><h3>Dropped</h3><ol id="dropped"></ol></div></div>
</section>
<h2 id="events-title">Events</h2><ol id="events"></ol>
</main>`;

/** The page, the same bytes for every request. */
export const PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="/_cliff/icon.svg" type="image/svg+xml"><title>cliffcompaction: this replica's sessions</title>
<style>${PAGE_STYLE}</style></head>
<body>
${BODY}
<script>${PAGE_SCRIPT}</script>
</body></html>
`;

/** Headers every answer of the web view carries. */
export const WEB_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
};

export function sendPage(res: ServerResponse): void {
  res.writeHead(200, { ...WEB_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_CSP, "content-length": String(Buffer.byteLength(PAGE_HTML)) });
  res.end(PAGE_HTML);
}
