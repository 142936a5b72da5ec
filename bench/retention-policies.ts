/**
 * The policies the retention bench compares, each a function from a history (cut at a turn start)
 * to the request it would send instead: cliffcompaction under three configurations, observation
 * masking (every tool result but the newest few replaced by a placeholder, everything else
 * verbatim, as Anthropic's `clear_tool_uses` defaults do) and head + kept tail only.
 */
import { compact, getDialect, plainClass, type Config, type DialectName } from "../core/index.js";

export type Policy = (history: unknown[], dialect: DialectName) => unknown[];

export const MASK_PLACEHOLDER = "[Old tool result content cleared]";
const MASK_KEEP = 3;
type Msg = Record<string, unknown>;

function cliff(cfg: Partial<Config>): Policy {
  return (history, dialect) => compact(history, dialect, cfg)?.messages ?? history;
}

/** Where a message holds tool results: the result blocks of a message, or the message itself. */
function resultSlots(m: unknown, dialect: DialectName): Msg[] {
  const msg = m as Msg;
  if (dialect === "anthropic") return Array.isArray(msg.content) ? (msg.content as Msg[]).filter((b) => b?.type === "tool_result") : [];
  if (dialect === "openai-chat") return msg.role === "tool" ? [msg] : [];
  if (dialect === "openai-responses") return typeof msg.type === "string" && msg.type.endsWith("_output") ? [msg] : [];
  if (dialect === "pi") return msg.role === "toolResult" || msg.role === "bashExecution" ? [msg] : [];
  if (dialect === "gemini") return Array.isArray(msg.parts) ? (msg.parts as Msg[]).filter((p) => p?.functionResponse !== undefined) : [];
  return plainClass(msg.role) === "tool" ? [msg] : [];
}

function masked(slot: Msg, dialect: DialectName): Msg {
  if (dialect === "anthropic") return { ...slot, content: MASK_PLACEHOLDER };
  if (dialect === "gemini") return { functionResponse: { ...(slot.functionResponse as Msg), response: { output: MASK_PLACEHOLDER } } };
  if (dialect === "openai-responses") return { ...slot, output: MASK_PLACEHOLDER };
  if (dialect === "pi") return slot.role === "bashExecution" ? { ...slot, output: MASK_PLACEHOLDER } : { ...slot, content: [{ type: "text", text: MASK_PLACEHOLDER }] };
  return { ...slot, content: MASK_PLACEHOLDER };
}

/** Observation masking: the newest `keep` tool results kept, a placeholder for each older one. */
export function masking(keep = MASK_KEEP): Policy {
  return (history, dialect) => {
    let seen = 0;
    const out = history.slice();
    for (let i = out.length - 1; i >= 0; i--) {
      const slots = resultSlots(out[i], dialect);
      if (slots.length === 0) continue;
      const replace = new Set<Msg>();
      for (let k = slots.length - 1; k >= 0; k--) if (++seen > keep) replace.add(slots[k]);
      if (replace.size === 0) continue;
      const m = out[i] as Msg;
      if (dialect === "anthropic") out[i] = { ...m, content: (m.content as Msg[]).map((b) => (replace.has(b) ? masked(b, dialect) : b)) };
      else if (dialect === "gemini") out[i] = { ...m, parts: (m.parts as Msg[]).map((p) => (replace.has(p) ? masked(p, dialect) : p)) };
      else out[i] = masked(m, dialect);
    }
    return out;
  };
}

/** Head and the reference's kept tail, nothing of the middle. */
export const headAndTail: Policy = (history, dialect) => {
  const r = compact(history, getDialect(dialect), { profile: "reference" });
  return r === null ? history : [...history.slice(0, r.headLen), ...history.slice(r.cut)];
};

export interface NamedPolicy {
  name: string;
  policy: Policy;
}

/**
 * The five policies, then any named in `extra` (JSON: `{"name": {config}}`, from
 * $CLIFF_RETENTION_EXTRA), so a rule's gain and cost can be read off one run.
 */
export function policies(extra = process.env.CLIFF_RETENTION_EXTRA): NamedPolicy[] {
  const more = extra === undefined || extra === "" ? {} : (JSON.parse(extra) as Record<string, Partial<Config>>);
  return [
    { name: "reference", policy: cliff({ profile: "reference" }) },
    { name: "paper", policy: cliff({ profile: "reference", thoughtMaxChars: 300, keepThinking: false }) },
    { name: "recall", policy: cliff({ profile: "recall" }) },
    { name: "masking", policy: masking() },
    { name: "tail", policy: headAndTail },
    ...Object.entries(more).map(([name, cfg]) => ({ name, policy: cliff(cfg) })),
  ];
}

/**
 * Each recall rule's key and the value that turns it off (named "recall -key"), then the profile's
 * tuned values of other keys set back to the reference's (named "recall key=value"): what each pays
 * is the profile's difference from it.
 */
export const RECALL_RULES: readonly [string, Partial<Config>][] = [
  ["-editMaxChars", { editMaxChars: 0 }],
  ["-workingSetFileMaxChars", { workingSetFileMaxChars: 0 }],
  ["-planMaxChars", { planMaxChars: 0 }],
  ["cmdMaxChars=150", { cmdMaxChars: 150 }],
  ["humanMaxChars=20000", { humanMaxChars: 20000 }],
  ["thoughtMaxChars=0", { thoughtMaxChars: 0 }],
  ["-tailFocus", { tailFocus: false }],
  ["-backRefMaxChars", { backRefMaxChars: 0 }],
  ["-askedTwiceMaxChars", { askedTwiceMaxChars: 0 }],
  ["-outlineFileMaxChars", { outlineFileMaxChars: 0 }],
  ["-listingMaxChars", { listingMaxChars: 0 }],
];

/** The recall profile with one rule changed, per rule (named "recall <change>"): what each rule pays. */
export function rulesOff(): NamedPolicy[] {
  return RECALL_RULES.map(([name, change]) => ({ name: `recall ${name}`, policy: cliff({ profile: "recall", ...change }) }));
}
