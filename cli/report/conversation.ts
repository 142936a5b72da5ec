/**
 * Messages kept verbatim, shown as a conversation: each message's role, its text, its calls as
 * one-line signatures and its results folded with their size; the message's raw JSON one click
 * away. Every dialect's shapes are read structurally (content blocks, Chat's tool_calls, Responses
 * items, Gemini parts, Pi's messages). Session text is escaped; nothing is rendered as markup.
 */
import { arr, isObj, obj, str } from "../../core/index.js";
import { n } from "../table.js";
import { esc } from "./escape.js";

type Item = { kind: "text"; text: string } | { kind: "thinking"; chars: number } | { kind: "call"; name: string; args: string } | { kind: "result"; text: string } | { kind: "image" } | { kind: "other"; label: string };

const TEXT_SHOWN = 1500;
const RESULT_SHOWN = 4000;
const SIGNATURE_SHOWN = 160;
const RAW_SHOWN = 20_000;

const textOf = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? v.map((b) => (typeof b === "string" ? b : str(obj(b).text))).filter((t) => t !== "").join("\n") : v === undefined || v === null ? "" : JSON.stringify(v) ?? "");
const argsText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? {}) ?? "");

/** One content block (or Responses item) as an item. */
function blockItem(b: Record<string, unknown>): Item | null {
  const type = str(b.type);
  if (type === "text" || type === "input_text" || type === "output_text") return str(b.text) === "" ? null : { kind: "text", text: str(b.text) };
  if (type === "thinking" || type === "redacted_thinking" || type === "reasoning") return { kind: "thinking", chars: (str(b.thinking) || textOf(b.summary) || str(b.data)).length };
  if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use" || type === "toolCall") return { kind: "call", name: str(b.name), args: argsText(b.input ?? b.arguments) };
  if (type === "function_call" || type === "custom_tool_call") return { kind: "call", name: str(b.name), args: argsText(b.arguments ?? b.input) };
  if (type === "local_shell_call") return { kind: "call", name: "shell", args: argsText(b.action) };
  if (type === "tool_result" || type.endsWith("_output") || type.endsWith("_tool_result")) return { kind: "result", text: textOf(b.content ?? b.output) };
  if (type === "image" || type === "input_image" || type === "image_url") return { kind: "image" };
  return type === "" ? null : { kind: "other", label: type };
}

/** A Gemini part as an item. */
function partItem(p: Record<string, unknown>): Item | null {
  if (isObj(p.functionCall)) return { kind: "call", name: str(p.functionCall.name), args: argsText(p.functionCall.args) };
  if (isObj(p.functionResponse)) return { kind: "result", text: textOf(obj(p.functionResponse.response).output ?? p.functionResponse.response) };
  if (isObj(p.inlineData)) return { kind: "image" };
  if (typeof p.text === "string") return p.thought === true ? { kind: "thinking", chars: p.text.length } : { kind: "text", text: p.text };
  return null;
}

const ROLES: Record<string, string> = { model: "assistant", ai: "assistant", tool: "tool", toolResult: "tool", function: "tool", observation: "tool", bashExecution: "tool" };

/** A message's role and items. */
export function messageItems(message: unknown): { role: string; items: Item[] } {
  const m = obj(message);
  const rawRole = str(m.role);
  if (typeof m.type === "string" && m.type !== "message") {
    const item = blockItem(m);
    return { role: item?.kind === "result" ? "tool" : item?.kind === "call" || item?.kind === "thinking" ? "assistant" : rawRole || "item", items: item === null ? [] : [item] };
  }
  const role = ROLES[rawRole] ?? (rawRole || "message");
  if (rawRole === "bashExecution") return { role, items: [{ kind: "call", name: "bash", args: str(m.command) }, { kind: "result", text: str(m.output) }] };
  if (role === "tool") return { role, items: [{ kind: "result", text: textOf(m.content) }] };
  const items: Item[] = [];
  if (Array.isArray(m.parts) && m.content === undefined) for (const p of m.parts) items.push(...[partItem(obj(p))].filter((i): i is Item => i !== null));
  else if (Array.isArray(m.content)) for (const b of m.content) items.push(...[typeof b === "string" ? ({ kind: "text", text: b } as Item) : blockItem(obj(b))].filter((i): i is Item => i !== null));
  else if (typeof m.content === "string" && m.content !== "") items.push({ kind: "text", text: m.content });
  for (const c of arr(m.tool_calls)) items.push({ kind: "call", name: str(obj(obj(c).function).name), args: argsText(obj(obj(c).function).arguments) });
  // A user message of tool results alone (Messages, Gemini) is the tools speaking.
  return { role: items.length > 0 && items.every((i) => i.kind === "result") ? "tool" : role, items };
}

const clip = (s: string, max: number): string => (s.length <= max ? esc(s) : `${esc(s.slice(0, max))}<span class="muted">… (${n(s.length - max)} more characters)</span>`);
const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

function itemHtml(it: Item): string {
  switch (it.kind) {
    case "text":
      return `<div class="msg-text">${clip(it.text, TEXT_SHOWN)}</div>`;
    case "thinking":
      return `<div class="muted">(thinking, ${n(it.chars)} characters)</div>`;
    case "call": {
      const sig = oneLine(`${it.name || "?"}(${it.args})`);
      return `<div class="call"><code>${esc(sig.length > SIGNATURE_SHOWN ? sig.slice(0, SIGNATURE_SHOWN) + "…" : sig)}</code></div>`;
    }
    case "result":
      return `<details class="result"><summary>result, ${n(it.text.length)} characters</summary><pre>${clip(it.text, RESULT_SHOWN)}</pre></details>`;
    case "image":
      return `<div class="muted">(an image)</div>`;
    default:
      return `<div class="muted">(${esc(it.label)})</div>`;
  }
}

/** One kept message: where it was kept, its role, its items, and its raw JSON folded. */
export function messageHtml(message: unknown, where: string): string {
  const { role, items } = messageItems(message);
  const raw = JSON.stringify(message) ?? "";
  const body = items.length === 0 ? `<div class="muted">(no text)</div>` : items.map(itemHtml).join("");
  return `<div class="msg role-${esc(role.replace(/[^a-z_-]/gi, ""))}"><div class="who">${esc(where)} · ${esc(role)}</div>${body}<details class="raw"><summary>raw JSON, ${n(raw.length)} characters</summary><pre>${clip(raw, RAW_SHOWN)}</pre></details></div>`;
}
