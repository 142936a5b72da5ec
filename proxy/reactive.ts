/**
 * Telling an upstream's context-length refusal from any other error. Anthropic answers 400
 * `invalid_request_error` with "prompt is too long"; OpenAI `context_length_exceeded` or "maximum
 * context length". The wording follows the reference proxy's pattern.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

const CONTEXT_ERROR = /context.?length|context.?window|prompt is too long|input.tokens|maximum.context|exceeds.limit|too.many.tokens|reduce.the.(length|input)|context_length_exceeded/i;

/** Largest error body the proxy reads before deciding; a longer one is relayed without a look. */
export const ERROR_BODY_LIMIT = 4 * 1024 * 1024;

function decoded(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body).toString("utf8");
    if (encoding === "deflate") return inflateSync(body).toString("utf8");
    if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  } catch {
    return "";
  }
  return body.toString("utf8");
}

/** A 400/413 whose body says the prompt was over the model's context. */
export function isContextError(status: number, body: Buffer, encoding: string | undefined): boolean {
  return (status === 400 || status === 413) && CONTEXT_ERROR.test(decoded(body, encoding));
}
