/**
 * A Claude Code-shaped session for test:deploy: the requests Claude Code sends over one session
 * (Messages API, streaming, a two-part system prompt with cache breakpoints, tool definitions,
 * thinking on, a session id header, the cache breakpoint on the newest message), with its side
 * calls (a one-token quota probe first, a title request now and then) among the turns.
 */
import { anthropicSession } from "../../bench/sessions.js";

export interface SessionRequest {
  /** Position in the session (0-based), sent as `x-test-seq` so an upstream can tell requests apart. */
  seq: number;
  kind: "turn" | "probe" | "title";
  headers: Record<string, string>;
  body: string;
}

const SYSTEM = [
  { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: "ephemeral" } },
  { type: "text", text: "You are an interactive CLI tool that helps users with software engineering tasks.\n".repeat(60) + "Working directory: /home/dev/widgets\nIs a git repository: true\n", cache_control: { type: "ephemeral" } },
];

const schema = (props: Record<string, string>, required: string[]) => ({ type: "object", properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: "string", description: d }])), required, additionalProperties: false, $schema: "http://json-schema.org/draft-07/schema#" });
const TOOLS = [
  { name: "Bash", description: "Executes a given bash command in a persistent shell session.", input_schema: schema({ command: "The command to execute", description: "What it does, in 5-10 words" }, ["command"]) },
  { name: "Read", description: "Reads a file from the local filesystem.", input_schema: schema({ file_path: "The absolute path to the file to read" }, ["file_path"]) },
  { name: "Edit", description: "Performs exact string replacements in files.", input_schema: schema({ file_path: "The absolute path", old_string: "The text to replace", new_string: "The text to replace it with" }, ["file_path", "old_string", "new_string"]) },
  { name: "Grep", description: "A powerful search tool built on ripgrep.", input_schema: schema({ pattern: "The regular expression", path: "Where to search" }, ["pattern"]) },
];

/** The newest message with Claude Code's cache breakpoint on its last block (a copy: the history itself is not changed). */
function withBreakpoint(messages: unknown[]): unknown[] {
  const last = messages[messages.length - 1] as { role: string; content: unknown };
  const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : (last.content as Record<string, unknown>[]);
  const content = blocks.map((b, i) => (i === blocks.length - 1 ? { ...b, cache_control: { type: "ephemeral" } } : b));
  return [...messages.slice(0, -1), { ...last, content }];
}

/** `turns` requests of one session (plus its side calls), the history growing by one tool round each turn. */
export function claudeCodeSession(turns: number, seed = 7, sessionId = "5d1c0de0-0000-4000-8000-00000000000" + (seed % 10)): SessionRequest[] {
  const history = anthropicSession(turns * 4200, seed);
  const headers = {
    "content-type": "application/json",
    "anthropic-version": "2023-06-01",
    "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14",
    "x-api-key": "sk-ant-test-key",
    "x-app": "cli",
    "user-agent": "claude-cli/2.0.0 (external, cli)",
    "x-claude-code-session-id": sessionId,
  };
  const metadata = { user_id: `user_${"ab".repeat(32)}_account__session_${sessionId}` };
  const out: SessionRequest[] = [];
  const push = (kind: SessionRequest["kind"], body: Record<string, unknown>) => out.push({ seq: out.length, kind, headers: { ...headers, "x-test-seq": String(out.length) }, body: JSON.stringify(body) });
  push("probe", { model: "claude-haiku-4-5-20251001", max_tokens: 1, messages: [{ role: "user", content: "quota" }], metadata });
  for (let t = 0, n = 1; t < turns && n <= history.length; t++, n += 2) {
    if (t > 0 && t % 12 === 0) {
      push("title", { model: "claude-haiku-4-5-20251001", max_tokens: 512, system: [{ type: "text", text: "Summarize this coding conversation in under 50 characters." }], messages: [{ role: "user", content: `Please write a 5-10 word title for the conversation so far (turn ${t}).` }], metadata, stream: true });
    }
    push("turn", { model: "claude-sonnet-4-5-20250929", max_tokens: 32000, system: SYSTEM, tools: TOOLS, thinking: { type: "enabled", budget_tokens: 31999 }, metadata, stream: true, messages: withBreakpoint(history.slice(0, n)) });
  }
  return out;
}
