/**
 * A scripted Anthropic Messages model on 127.0.0.1 for the read-stub runs: each agent turn (a
 * request that offers the `Read` tool) is answered with the next tool call of the script, then with
 * a final text. The script's position is read from the request itself (how many of the agent's
 * tool results it holds since its prompt, counted from the tool_use ids the model issued), so a
 * retried request is answered alike. It records every request and stops by itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One step of the script: a tool call the model makes. */
export interface Step {
  name: string;
  input: Record<string, unknown>;
}

export interface Recorded {
  path: string;
  body: string;
  /** The script step this request was answered with (-1: not an agent turn; steps.length: the final text). */
  step: number;
}

export interface ScriptModel {
  url: string;
  seen: Recorded[];
  close(): void;
}

const sse = (events: Record<string, unknown>[]): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

/** The ids this model gave its tool calls: `toolu_script_<step>`. */
const idOf = (step: number): string => `toolu_script_${String(step).padStart(3, "0")}`;

/** The next step: one past the newest of this model's tool calls the request answers (any request of the agent resends all of them). */
function stepOf(body: any): number {
  let next = 0;
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m?.content)) continue;
    for (const b of m.content) {
      const id = b?.type === "tool_result" ? /^toolu_script_(\d+)$/.exec(String(b.tool_use_id)) : null;
      if (id !== null) next = Math.max(next, Number(id[1]) + 1);
    }
  }
  return next;
}

function answer(body: any, steps: readonly Step[], final: string): { text: string; step: number } {
  const agent = (body.tools ?? []).some((t: any) => t?.name === "Read");
  const step = agent ? stepOf(body) : -1;
  const msg = { id: `msg_script_${step}`, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } };
  const events: Record<string, unknown>[] = [{ type: "message_start", message: msg }];
  if (step >= 0 && step < steps.length) {
    const s = steps[step];
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: idOf(step), name: s.name, input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(s.input) } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    );
  } else {
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: step >= 0 ? final : "ok" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
    );
  }
  events.push({ type: "message_stop" });
  return { text: sse(events), step };
}

export async function scriptModel(steps: readonly Step[], final = "ALL DONE", lifetimeMs = 600_000): Promise<ScriptModel> {
  const seen: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // not JSON: answered below like any other path
      }
      if (req.method === "POST" && path.endsWith("/messages")) {
        const a = answer(body, steps, final);
        seen.push({ path: req.url ?? "", body: raw, step: a.step });
        res.writeHead(200, { "content-type": "text/event-stream" });
        return void res.end(a.text);
      }
      seen.push({ path: req.url ?? "", body: raw, step: -1 });
      if (req.method === "POST" && path.endsWith("/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"message":"not here"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}
