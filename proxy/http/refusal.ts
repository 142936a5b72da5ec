/** The proxy's own error answers, each in the shape of the API the client speaks, so its SDK shows the message. */
import type { ServerResponse } from "node:http";
import type { UpstreamName } from "../routes.js";

/** Anthropic's `{"type":"error","error":{type, message}}`, or OpenAI's `{"error":{message, type, code}}`. */
export function errorBody(upstream: UpstreamName, type: string, message: string): string {
  const text = `cliffcompaction: ${message}`;
  if (upstream === "anthropic") return JSON.stringify({ type: "error", error: { type, message: text } });
  return JSON.stringify({ error: { message: text, type, code: type, param: null } });
}

/** Strict mode's refusal when every rung left the request over its threshold (the proxy's and the transform endpoint's). */
export function overBudgetMessage(estTokensOut: number, thresholdTokens: number): string {
  return `the request is ${estTokensOut} estimated tokens after every compaction rung, over the threshold of ${thresholdTokens} (strict mode refuses it rather than send it)`;
}

export function refuse(res: ServerResponse, status: number, upstream: UpstreamName, type: string, message: string): void {
  if (res.headersSent) return void res.destroy();
  const body = errorBody(upstream, type, message) + "\n";
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
  res.end(body);
}
