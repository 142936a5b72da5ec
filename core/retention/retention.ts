/**
 * What a cliff keeps of what the agent needs next. Cut a history at a turn start; the *needed*
 * tokens are the distinctive tokens (core/retention/distinctive.ts) of the next model turns (their text and
 * their calls' argument values; never thinking, ids, timestamps, usage or model names) that the
 * history before the cut holds and that nothing after the cut showed again before the turn used
 * them. A needed token is *held* when the compacted request still holds it anywhere.
 */
import { resolveConfig, type Config } from "../config/index.js";
import { getDialect } from "../dialects/registry.js";
import type { Dialect, DialectName } from "../dialects/types.js";
import { addDistinctive } from "./distinctive.js";
import { estimateTokens } from "../estimate/estimate.js";
import { signatureLine, type PartContext } from "../parts/index.js";
import { isObj } from "../guards.js";

/** Model turns after the cut whose tokens count. */
export const NEXT_TURNS = 8;

// Everything a message says, uncut: every result kept, no cap on any text, thinking included.
const SEE_ALL: Config = resolveConfig({ keepThinking: true, thoughtMaxChars: 0, thinkingMaxChars: 0, cmdMaxChars: 0, resultMaxChars: Number.MAX_SAFE_INTEGER, humanMaxChars: 0 });
// A model message's own words: its visible text and its calls, no thinking, no inline results.
const MODEL_TEXT: Config = resolveConfig({ keepThinking: false, thoughtMaxChars: 0, cmdMaxChars: 0, resultMaxChars: 0, humanMaxChars: 0 });
const MODEL_THINKING: Config = resolveConfig({ ...MODEL_TEXT, keepThinking: true, thinkingMaxChars: 0 });

/**
 * Adds the distinctive tokens of every string leaf (never the keys) of `value`, walked without
 * recursion and each object once. For a call's arguments (`asArguments`), numbers count too and
 * a string holding a JSON object or list is read as that value.
 */
function addLeafTokens(value: unknown, into: Set<string>, asArguments: boolean): void {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "object" && v !== null) {
      if (seen.has(v)) continue;
      seen.add(v);
    }
    if (typeof v === "string") {
      const parsed = asArguments ? jsonValue(v) : undefined;
      if (parsed === undefined) addDistinctive(v, into);
      else stack.push(parsed);
    } else if (typeof v === "number") {
      if (asArguments) addDistinctive(String(v), into);
    } else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isObj(v)) for (const k of Object.keys(v)) stack.push(v[k]);
  }
}

/** Adds the string and number values (never the keys) of a call's arguments; a JSON string is read as its value. */
export function addValueTokens(value: unknown, into: Set<string>): void {
  addLeafTokens(value, into, true);
}

function jsonValue(text: string): unknown {
  const c = text.charCodeAt(0);
  if (c !== 0x7b && c !== 0x5b) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads messages' tokens once per message object: one instance serves every cut and policy of a
 * session, whose lists share their messages.
 */
export class TokenReader {
  readonly dialect: Dialect;
  private readonly all = new WeakMap<object, Set<string>>();
  private readonly model = new WeakMap<object, ModelTokens>();

  constructor(dialect: DialectName | Dialect) {
    this.dialect = getDialect(dialect);
  }

  /** Everything the message says: its text, results, thinking and calls; an old summary's text. */
  tokensOf(m: unknown): Set<string> {
    const key = isObj(m) ? m : null;
    const known = key === null ? undefined : this.all.get(key);
    if (known !== undefined) return known;
    const out = new Set<string>();
    // The compactor says nothing of an old summary; it still holds its words.
    if (this.dialect.isSummary(m)) addLeafTokens(m, out, false);
    else for (const p of this.dialect.summarize(m, { cfg: SEE_ALL })) addDistinctive(p, out);
    if (key !== null) this.all.set(key, out);
    return out;
  }

  /** A model message's own words: its visible text and its calls' argument values, apart. */
  modelTokensOf(m: unknown): ModelTokens {
    const key = isObj(m) ? m : null;
    const known = key === null ? undefined : this.model.get(key);
    if (known !== undefined) return known;
    const out = modelTokens(m, this.dialect);
    if (key !== null) this.model.set(key, out);
    return out;
  }

  /** The tokens of a whole message list. */
  tokensOfList(messages: readonly unknown[]): Set<string> {
    const out = new Set<string>();
    for (const m of messages) for (const t of this.tokensOf(m)) out.add(t);
    return out;
  }
}

/** A model message's tokens by where they stand. */
export interface ModelTokens {
  text: Set<string>;
  calls: Set<string>;
  /** Thinking's tokens that neither the text nor the calls hold (never needed; a cliff may still drop them). */
  thinking: Set<string>;
}

function modelTokens(m: unknown, d: Dialect): ModelTokens {
  const calls: [unknown, unknown][] = [];
  const text = ownWords(m, d, MODEL_TEXT, calls);
  const callTokens = new Set<string>();
  for (const [, args] of calls) addValueTokens(args, callTokens);
  const thinking = ownWords(m, d, MODEL_THINKING, []);
  for (const t of thinking) if (text.has(t) || callTokens.has(t)) thinking.delete(t);
  return { text, calls: callTokens, thinking };
}

/** Tokens of a message's parts under `cfg`, without the signature lines of its calls (names and keys are the tool's words, not the model's). */
function ownWords(m: unknown, d: Dialect, cfg: Config, calls: [unknown, unknown][]): Set<string> {
  const ctx: PartContext = { cfg, onCall: (name, args) => calls.push([name, args]) };
  const out = new Set<string>();
  for (const part of d.summarize(m, ctx)) addDistinctive(withoutSignatures(part, calls, ctx), out);
  return out;
}

function withoutSignatures(part: string, calls: readonly [unknown, unknown][], ctx: PartContext): string {
  if (calls.length === 0) return part;
  const lines = calls.map(([name, args]) => signatureLine(name, args, ctx)).join("\n");
  if (part === lines) return "";
  return part.endsWith("\n" + lines) ? part.slice(0, part.length - lines.length - 1) : part;
}

/** The needed tokens of a cut, each with the index of the message that first used it. */
export function neededTokens(messages: readonly unknown[], cut: number, reader: TokenReader, turns = NEXT_TURNS): Map<string, number> {
  const d = reader.dialect;
  const before = reader.tokensOfList(messages.slice(0, cut));
  const seen = new Set<string>();
  const needed = new Map<string, number>();
  let turn = 0;
  for (let i = cut; i < messages.length; i++) {
    const m = messages[i];
    if (i === cut || d.startsTurn(m, messages[i - 1])) turn++;
    if (turn > turns) break;
    if (d.isAssistant(m)) {
      const own = reader.modelTokensOf(m);
      for (const set of [own.text, own.calls]) {
        for (const t of set) if (before.has(t) && !seen.has(t) && !needed.has(t)) needed.set(t, i);
      }
    }
    for (const t of reader.tokensOf(m)) seen.add(t);
  }
  return needed;
}

/** One cut measured under one policy. */
export interface CutMeasure {
  needed: number;
  held: number;
  /** The needed tokens the compacted request no longer holds, in the order the next turns used them. */
  lost: string[];
  /** Estimated tokens of the compacted request and of the history it replaces. */
  keptTokens: number;
  historyTokens: number;
}

/** Measures `compacted` (what a policy made of `messages[0, cut)`) against the next turns after the cut. */
export function measureCut(messages: readonly unknown[], cut: number, compacted: readonly unknown[], reader: TokenReader, needed = neededTokens(messages, cut, reader)): CutMeasure {
  const present = reader.tokensOfList(compacted);
  const lost: string[] = [];
  for (const t of needed.keys()) if (!present.has(t)) lost.push(t);
  return {
    needed: needed.size,
    held: needed.size - lost.length,
    lost,
    keptTokens: estimateTokens(compacted),
    historyTokens: estimateTokens(messages.slice(0, cut)),
  };
}

/** `count` cut points: the starts of the model turns at 1/(count+1), 2/(count+1), … of the session's turns. */
export function cutPoints(messages: readonly unknown[], dialect: DialectName | Dialect, count = 5): number[] {
  const d = getDialect(dialect);
  const starts: number[] = [];
  for (let i = 1; i < messages.length; i++) if (d.isAssistant(messages[i]) && d.startsTurn(messages[i], messages[i - 1])) starts.push(i);
  const out: number[] = [];
  for (let k = 1; k <= count; k++) {
    const at = starts[Math.floor((starts.length * k) / (count + 1))];
    if (at !== undefined && out.indexOf(at) < 0) out.push(at);
  }
  return out;
}
