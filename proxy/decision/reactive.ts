/**
 * Telling an upstream's context-length refusal from any other error. Anthropic answers 400
 * `invalid_request_error` with "prompt is too long", or 413 `request_too_large` ("Request exceeds
 * the maximum allowed number of bytes") for a body over its byte limit; OpenAI
 * `context_length_exceeded` or "maximum context length"; Gemini 400 `INVALID_ARGUMENT` with "The input
 * token count (N) exceeds the maximum number of tokens allowed (M)". The wording follows the reference proxy's
 * pattern. Any 413 says the body was too large, which a smaller body answers, whatever its text.
 */
import { decoderOf } from "../encoding.js";

const CONTEXT_ERROR = /context.?length|context.?window|prompt is too long|input.tokens|maximum.context|exceeds.limit|too.many.tokens|input.token.count|reduce.the.(length|input)|context_length_exceeded/i;

/** Largest error body the proxy reads before deciding; a longer one is relayed without a look. */
export const ERROR_BODY_LIMIT = 4 * 1024 * 1024;

/** An error body's text, decoded as its encoding says ("" when it cannot be). */
export function decodedText(body: Buffer, encoding: string | undefined): string {
  const decode = decoderOf(encoding);
  if (decode === null) return "";
  try {
    return decode(body, { maxOutputLength: 4 * ERROR_BODY_LIMIT }).toString("utf8");
  } catch {
    return "";
  }
}

/** A 413, or a 400 whose body says the prompt was over the model's context. */
export function isContextError(status: number, body: Buffer, encoding: string | undefined): boolean {
  return status === 413 || (status === 400 && CONTEXT_ERROR.test(decodedText(body, encoding)));
}
