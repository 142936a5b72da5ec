/**
 * What AgentParley would hand the plugin for a session: `{role, content: string}` messages.
 * Structured content becomes the JSON of a provider shape the plain dialect reads back
 * (Anthropic blocks for block lists, the Chat message for tool calls).
 */
import { CliffInputError, COMPACT, isObj, serializeJson } from "../core/index.js";

/** JSON.stringify without its recursion limit. */
const stringify = (v: unknown): string => serializeJson(v, COMPACT);
import { InputError, type Session } from "./readers/index.js";


function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : stringify(content);
  return content.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).filter((t) => t !== "").join("\n");
}

/** Pi blocks → Anthropic blocks (toolCall → tool_use), so the plain dialect's JSON rules apply. */
function piBlocks(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((b) => (isObj(b) && b.type === "toolCall" ? { type: "tool_use", id: b.id, name: b.name, input: b.arguments } : b));
}

function flattenOne(m: unknown, dialect: Session["dialect"]): { role: string; content: string } | null {
  if (!isObj(m)) return null;
  if (dialect === "openai-responses") {
    const type = typeof m.type === "string" ? m.type : "message";
    if (type === "message") return { role: String(m.role ?? "user"), content: textOf(m.content) };
    if (type.endsWith("_output")) return { role: "tool", content: typeof m.output === "string" ? m.output : stringify(m.output ?? "") };
    if (type === "reasoning") return null;
    return { role: "assistant", content: stringify([{ type: "tool_use", name: m.name ?? type, input: m.arguments ?? m.input ?? m.action ?? {} }]) };
  }
  const role = typeof m.role === "string" ? m.role : "user";
  if (role === "toolResult" || role === "tool") return { role: "tool", content: textOf(m.content) };
  if (role === "bashExecution") return { role: "tool", content: `$ ${String(m.command ?? "")}\n${String(m.output ?? "")}` };
  if (role === "assistant") {
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) return { role, content: stringify({ content: m.content ?? null, tool_calls: m.tool_calls }) };
    if (typeof m.content === "string") return { role, content: m.content };
    return { role, content: stringify(dialect === "pi" ? piBlocks(m.content) : m.content ?? "") };
  }
  if (Array.isArray(m.content) && m.content.some((b) => isObj(b) && b.type === "tool_result")) return { role, content: stringify(m.content) };
  return { role, content: textOf(m.content) };
}

export function flattenSession(session: Session, file: string): { role: string; content: string }[] {
  const out: { role: string; content: string }[] = [];
  session.messages.forEach((m, i) => {
    let f: { role: string; content: string } | null;
    try {
      f = flattenOne(m, session.dialect);
    } catch (e) {
      if (e instanceof CliffInputError) throw new InputError(`${file}: message ${i + 1}: ${e.message}`);
      throw e;
    }
    if (f !== null) out.push(f);
  });
  return out;
}
