/** Whole-JSON files: request bodies, trajectories, AgentParley contexts, bare message lists. */
import { detectDialect, isObj, obj, type DialectName } from "../../core/index.js";
import { fail, type Format, type Session } from "./common.js";
import { looksLikeOpenHands, readOpenHands } from "./openhands.js";
import { recordedModel } from "./recorded-model.js";

/** The message without the `extra` key trajectories add for their own bookkeeping. */
function withoutExtra(m: unknown): unknown {
  if (!isObj(m) || !("extra" in m)) return m;
  const { extra: _extra, ...rest } = m;
  return rest;
}

function messageList(v: unknown, file: string, key: string): unknown[] {
  if (!Array.isArray(v)) fail(file, `key "${key}"`, "must be a list of messages");
  v.forEach((m, i) => {
    if (!isObj(m)) fail(file, `key "${key}[${i}]"`, "each message must be an object");
  });
  return v;
}

/** The model the file records (a request body's own, as the proxy would read it for the threshold and the bill). */
const modelOf = (value: unknown): { model?: string } => {
  const model = recordedModel(value);
  return model === undefined ? {} : { model };
};

export function readJson(value: unknown, file: string, forced?: Format): Session {
  if (forced === "openhands" || (forced === undefined && (looksLikeOpenHands(value) || looksLikeOpenHands(obj(value).history)))) {
    const events = Array.isArray(value) ? value : obj(value).history;
    if (!Array.isArray(events)) fail(file, 'key "history"', "OpenHands events are a list, or an object with a \"history\" list");
    const session = readOpenHands(events, file, Array.isArray(value) ? "" : 'key "history"');
    return session.model === undefined ? { ...session, ...modelOf(value) } : session;
  }
  if (Array.isArray(value)) {
    const messages = messageList(value, file, "(top level)");
    const named = forced !== undefined && (forced === "anthropic" || forced === "openai-chat" || forced === "openai-responses");
    return { format: forced ?? "agentparley", dialect: named ? (forced as DialectName) : detectDialect(messages), messages };
  }
  if (!isObj(value)) fail(file, "", "expected a JSON object or a list of messages");
  const isTraj = forced === "traj" || (forced === undefined && (Array.isArray(value.history) || "trajectory_format" in value || /\.traj(\.json)?$/.test(file)));
  if (isTraj) {
    const key = Array.isArray(value.messages) ? "messages" : Array.isArray(value.history) ? "history" : fail(file, 'key "messages"', 'a trajectory needs a "messages" or "history" list');
    const messages = messageList(value[key], file, key).map(withoutExtra);
    return { format: "traj", dialect: "openai-chat", messages, ...modelOf(value) };
  }
  if (forced === "openai-responses" || (forced === undefined && Array.isArray(value.input) && !Array.isArray(value.messages))) {
    return { format: "openai-responses", dialect: "openai-responses", messages: messageList(value.input, file, "input"), body: value, ...modelOf(value) };
  }
  if (forced === "gemini" || (forced === undefined && Array.isArray(value.contents) && !Array.isArray(value.messages))) {
    return { format: "gemini", dialect: "gemini", messages: messageList(value.contents, file, "contents"), body: value, ...modelOf(value) };
  }
  if (!("messages" in value)) fail(file, "", 'no "messages" (or Responses "input") list found');
  const messages = messageList(value.messages, file, "messages");
  const flat = messages.every((m) => isObj(m) && typeof m.content === "string" && Object.keys(m).every((k) => k === "role" || k === "content"));
  if (forced === "agentparley" || (forced === undefined && ("focus" in value || (flat && !("model" in value))))) {
    if (value.focus !== undefined && typeof value.focus !== "string") fail(file, 'key "focus"', "must be a string");
    return { format: "agentparley", dialect: "plain", messages, focus: value.focus as string | undefined };
  }
  const dialect = forced !== undefined ? (forced as DialectName) : detectDialect(value);
  const format: Format = dialect === "anthropic" ? "anthropic" : dialect === "openai-responses" ? "openai-responses" : "openai-chat";
  return { format, dialect, messages, body: value, ...modelOf(value) };
}
