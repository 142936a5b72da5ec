/**
 * One frame of `cliffcompaction watch`, as lines of text from what the proxy said: a header
 * (settings, uptime, totals), one row per session newest first, and the newest events. Pure: the
 * same state and size give the same frame. In a terminal the selected row is shown in reverse
 * and cliffs in colour; `plain` frames (`watch --once`) have no escape sequences at all. Every
 * string the proxy sent is made inert first (terminal-text.ts): a model name or a version cannot
 * move the cursor, and columns are counted in terminal cells.
 */
import { sparkline } from "./sparkline.js";
import { fitCells, inertCell, inertDeep, textWidth } from "../terminal-text.js";

/** What the proxy's /_cliff/status and /_cliff/events say, as far as a frame reads them. */
export interface WatchEvent {
  time: string;
  session: string | null;
  api: string;
  model: string;
  action: string;
  messagesIn: number;
  messagesOut: number;
  tokensIn: number;
  tokensOut: number;
  addedMs: number;
  status: number;
  shadow?: boolean;
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number } | null;
  /** The recalls the proxy answered for the request, and the running counts of its cliff (proxy/observe/after-cliff/recalls.ts). */
  recall?: { calls: number; rounds: number; tokens: number; cliff?: { calls: number; tokens: number } };
  /** A `refetch` event's own fields (proxy/observe/after-cliff/refetches.ts). */
  count?: number;
  tokens?: number;
  cut?: number;
  calls?: { tool: string; tokens: number; message: number }[];
}

export interface FrameState {
  url: string;
  status: any;
  events: readonly WatchEvent[];
  paused: boolean;
  selected: number;
  /** A line about the connection (the proxy went away, say), or null. */
  problem: string | null;
  now: number;
}

/** Since this long without a request, a session is idle. */
export const LIVE_MS = 60_000;

const REVERSE = "\x1b[7m";
const DIM = "\x1b[2m";
const RED = "\x1b[31m";
const BOLD = "\x1b[1m";
const RESET = "\x1b[0m";

export const int = (n: number): string => Math.round(n).toLocaleString("en-US");

/** 1234 → 1.2k, 3456789 → 3.5M. */
export function short(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 1e6) return (n / 1e3).toFixed(a < 1e4 ? 1 : 0) + "k";
  return (n / 1e6).toFixed(a < 1e7 ? 1 : 0) + "M";
}

/** Recalls and their tokens in a few cells: `0`, or `2 (7.9k)`. */
export const recalls = (r: { calls?: number; tokens?: number } | undefined): string => ((r?.calls ?? 0) === 0 ? "0" : `${int(r!.calls!)} (${short(r!.tokens ?? 0)})`);

export const dollars = (d: number | null | undefined): string => (d === null || d === undefined ? "—" : `${d < 0 ? "-" : ""}$${Math.abs(d).toFixed(Math.abs(d) < 10 ? 3 : 2)}`);

export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
  return `${Math.floor(s / 86400)}d${String(Math.floor(s / 3600) % 24).padStart(2, "0")}h`;
}

/** Made inert, then cut or padded to exactly `width` terminal cells. */
export const fit = (text: string, width: number): string => fitCells(inertCell(text), width);

// A cliff rewrites the prompt's cache once and saves a little on every request after it.
const NEGATIVE_NET = " (below zero: each cliff's cache rewrite, paid once, not yet earned back by the requests after it)";

function header(s: any, state: FrameState): string[] {
  const c = s.config ?? {};
  const top = `${state.paused ? "PAUSED · " : ""}cliffcompaction ${s.version ?? ""} · ${state.url} · up ${duration((s.uptimeSeconds ?? 0) * 1000)} · threshold ${typeof s.thresholdShare === "number" ? `${Math.round(s.thresholdShare * 100)}% of each model's window` : s.thresholdRule === "default" ? "by model" : int(c.thresholdTokens ?? 0)} · keepRecent ${c.keepRecent ?? "?"}${c.shadow ? " · shadow" : ""}`;
  const u = s.usage ?? { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  const fallbacks = ((s.fallbacks ?? 0) > 0 ? ` · fallbacks ${int(s.fallbacks)}` : "") + ((s.answered ?? 0) > 0 ? ` · compactions answered ${int(s.answered)}` : "") + ((s.refetches?.count ?? 0) > 0 ? ` · re-fetches ${int(s.refetches.count)} (${short(s.refetches.tokens ?? 0)} tokens)` : "") + ((s.recalls?.calls ?? 0) > 0 ? ` · recalls ${int(s.recalls.calls)} (${short(s.recalls.tokens ?? 0)} tokens)` : "");
  const totals = `requests ${int(s.compactable ?? 0)} · cliffs ${int(s.cliffs ?? 0)} · reuses ${int(s.reuses ?? 0)}${fallbacks} · saved ${short(s.tokensSaved ?? 0)} tokens, net ${dollars(s.netDollars)}${(s.netDollars ?? 0) < 0 ? NEGATIVE_NET : ""}`;
  const provider = `provider's count: input ${short(u.input)} · cache read ${short(u.cacheRead)} · cache write ${short(u.cacheWrite)} · output ${short(u.output)}`;
  const models = Object.entries(s.windows ?? {}) as [string, any][];
  if (models.length === 0) return [top, totals, provider];
  const byModel = models.map(([m, w]) => `${m || "(no model)"} ${short(w.thresholdTokens ?? 0)} (${w.reason ?? w.source}${w.warning !== undefined ? ", past its tier!" : ""})`);
  return [top, totals, provider, `thresholds: ${byModel.join(" · ")}`];
}

const COLUMNS = "  SESSION     MODEL               CONTEXT";
const RECALLS_HEAD = "   RECALLS";
/** The narrowest frame whose session rows hold the recalls column beside a sparkline of 8 cells. */
export const RECALLS_FROM = 108;

function sessionRows(s: any, state: FrameState, width: number, rows: number, plain: boolean): string[] {
  const sessions: any[] = s.sessions ?? [];
  if (sessions.length === 0) return ["  no sessions yet"];
  const ceiling = s.config?.thresholdTokens ?? 0;
  // The recalls column needs the room of a sparkline of 8: a narrower terminal leaves it out (the header keeps the total).
  const withRecalls = width >= RECALLS_FROM;
  const rightHead = `  MSGS CUT   TOKENS IN→OUT  CLIFFS${withRecalls ? RECALLS_HEAD : ""}   HIT      NET    AGE`;
  const spark = Math.max(8, width - COLUMNS.length + "CONTEXT".length - rightHead.length - 1);
  const out = [fit(`${COLUMNS}${" ".repeat(Math.max(0, spark - "CONTEXT".length))}${rightHead}`, width)];
  const first = Math.max(0, Math.min(state.selected - rows + 1, sessions.length - rows));
  for (const [i, x] of sessions.slice(first, first + rows).entries()) {
    const live = state.now - Date.parse(x.lastSeen) < LIVE_MS;
    const line = sparkline(x.context ?? [], x.threshold > 0 ? x.threshold : ceiling, new Set<number>(x.cliffAt ?? []), spark);
    const cut = `${int(Math.max(0, x.messagesIn - x.messagesOut))}/${int(x.messagesIn)}`;
    const hit = x.cacheHitRate === null || x.cacheHitRate === undefined ? "—" : `${Math.round(x.cacheHitRate * 100)}%`;
    const net = x.ledger?.cliffs > 0 ? dollars(x.ledger.netDollars) : "";
    const right = `${cut.padStart(10)} ${`${short(x.tokensIn)}→${short(x.tokensOut)}`.padStart(15)} ${String(x.cliffs).padStart(7)}${withRecalls ? recalls(x.recalls).padStart(RECALLS_HEAD.length) : ""} ${hit.padStart(5)} ${net.padStart(8)} ${duration(state.now - Date.parse(x.started)).padStart(6)}`;
    const drawn = plain ? line : line.replace(/×/g, `${RED}${BOLD}×${RESET}`);
    const row = `${live ? "●" : "○"} ${fit(x.id, 11)} ${fit(x.model || "", 19)} ${drawn}${" ".repeat(Math.max(0, spark - textWidth(line)))}${right}`;
    out.push(!plain && first + i === state.selected ? `${REVERSE}${row}${RESET}` : row);
  }
  if (sessions.length > rows) out.push(`  … ${sessions.length - rows} more (of ${s.sessionCount ?? sessions.length})`);
  return out;
}

export function eventLine(e: WatchEvent): string {
  if (e.action === "refetch") return refetchLine(e);
  const u = e.usage === null ? "" : ` · provider in ${short(e.usage.input)} cache ${short(e.usage.cacheRead)}/${short(e.usage.cacheWrite)} out ${short(e.usage.output)}`;
  const time = e.time.slice(11, 19);
  const r = e.recall === undefined ? "" : ` · recalls ${int(e.recall.calls)} (${short(e.recall.tokens)} tok)${e.recall.cliff !== undefined ? `, ${int(e.recall.cliff.calls)} since its cliff` : ""}`;
  return `${time} ${fit(e.session ?? "-", 10)} ${fit(e.action + (e.shadow ? "*" : ""), 9)} ${int(e.messagesIn)}→${int(e.messagesOut)} msgs ${int(e.tokensIn)}→${int(e.tokensOut)} tok +${e.addedMs.toFixed(1)}ms ${e.status || "no upstream"}${r}${u}`;
}

/** A `refetch` event: the calls of a session that asked again for what its cliff dropped. */
function refetchLine(e: WatchEvent): string {
  const tools = (e.calls ?? []).map((c) => c.tool).join(", ");
  return `${e.time.slice(11, 19)} ${fit(e.session ?? "-", 10)} ${fit("refetch", 9)} ${int(e.count ?? 0)} call${e.count === 1 ? "" : "s"} (${tools}) ${int(e.tokens ?? 0)} tok after the cliff at message ${int(e.cut ?? 0)}`;
}

/** The frame's lines, at most `height` of them, each at most `width` characters. */
export function frame(raw: FrameState, width: number, height: number, plain: boolean): string[] {
  const state: FrameState = { ...raw, status: inertDeep(raw.status), events: inertDeep(raw.events), problem: raw.problem === null ? null : inertCell(raw.problem), url: inertCell(raw.url) };
  const s = state.status;
  const out = [...header(s, state)];
  if (state.problem !== null) out.push(plain ? state.problem : `${RED}${fit(state.problem, width).trimEnd()}${RESET}`);
  out.push("");
  const feedRows = Math.max(3, Math.min(10, Math.floor((height - out.length) / 3)));
  const sessionRoom = Math.max(1, height - out.length - feedRows - 5);
  out.push(...sessionRows(s, state, width, sessionRoom, plain));
  out.push("", plain ? "EVENTS" : `${BOLD}EVENTS${RESET}`);
  const newest = state.events.slice(-feedRows).reverse();
  out.push(...(newest.length === 0 ? ["  none yet"] : newest.map((e) => fit(eventLine(e), width))));
  if (!plain) out.push(`${DIM}↑↓ select · enter: last cliff · p: ${state.paused ? "resume" : "pause"} · q: quit${RESET}`);
  return out.slice(0, height).map((l) => (l.includes("\x1b") ? l : fit(l, width).trimEnd()));
}
