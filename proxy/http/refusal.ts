/** The proxy's own error answers, each in the shape of the API the client speaks, so its SDK shows the message. */
import type { ServerResponse } from "node:http";
import type { UpstreamName } from "../routes.js";

/** Google's status names for the statuses the proxy answers with. */
const GOOGLE_STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 413: "INVALID_ARGUMENT", 500: "INTERNAL", 502: "UNAVAILABLE", 503: "UNAVAILABLE" };

/** Anthropic's `{"type":"error","error":{type, message}}`, Google's `{"error":{code, message, status}}` or OpenAI's `{"error":{message, type, code}}`. */
export function errorBody(upstream: UpstreamName, type: string, message: string, status = 400): string {
  const text = `cliffcompaction: ${message}`;
  if (upstream === "anthropic") return JSON.stringify({ type: "error", error: { type, message: text } });
  if (upstream === "gemini" || upstream === "vertex" || upstream === "codeassist") return JSON.stringify({ error: { code: status, message: text, status: GOOGLE_STATUS[status] ?? "FAILED_PRECONDITION", details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: type, domain: "cliffcompaction" }] } });
  return JSON.stringify({ error: { message: text, type, code: type, param: null } });
}

/** Strict mode's refusal when every rung left the request over its threshold (the proxy's and the transform endpoint's). */
export function overBudgetMessage(estTokensOut: number, thresholdTokens: number): string {
  return `the request is ${estTokensOut} estimated tokens after every compaction rung, over the threshold of ${thresholdTokens} (strict mode refuses it rather than send it)`;
}

export function refuse(res: ServerResponse, status: number, upstream: UpstreamName, type: string, message: string): void {
  if (res.headersSent) return void res.destroy();
  const body = errorBody(upstream, type, message, status) + "\n";
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
  res.end(body);
}
