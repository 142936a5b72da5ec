/**
 * The Gemini API (`generateContent`): `contents[]` of `{role: "user" | "model", parts}`, the
 * system prompt in `systemInstruction` beside them (outside the list, so never summarised), a
 * `cachedContent` name beside them too (left as it is: the cached prefix lives at the provider).
 *
 * Thought signatures (`thoughtSignature` on a part) are opaque and belong to the model turn that
 * made them: the API checks them on the function-call steps of the current turn (everything after
 * the newest user content that is not only function responses). A cliff keeps every kept content
 * as the client's own object, so the tail keeps its signatures; the summary, a user text content,
 * starts a new current turn, so the steps it replaced are no longer checked. A summary never
 * quotes a signature.
 *
 * The API refuses two contents of one role in a row, and the head ends with a user content while
 * the kept tail opens with a model one: the summary goes out as parts of the head's last user
 * content (`sendable`), after what the user wrote there. The kept turns keep their own objects, so
 * each function response still follows its call and the current turn (after the newest user text)
 * holds only steps it held before.
 */
import type { Dialect } from "./types.js";
import { one, AssistantPart, humanPart, isSummaryText, resultPart, type PartContext } from "../parts/index.js";
import { arr, obj, str } from "../guards.js";
import { canonicalJson } from "../estimate/json.js";
import { prim, withoutKeys, type Form, type Hash } from "./form.js";

const isModel = (m: unknown): boolean => obj(m).role === "model";

function firstText(parts: unknown): string | undefined {
  for (const p of arr(parts)) {
    const part = obj(p);
    if (typeof part.text === "string" && part.thought !== true) return part.text;
  }
  return undefined;
}

/** What a function response says: its `output` (or `error`, or `content`) when that is text, else its canonical JSON. */
export function functionResponseText(fr: Record<string, unknown>): { text: string; error: boolean } {
  const response = fr.response;
  const r = obj(response);
  if (typeof r.output === "string" && r.error === undefined) return { text: r.output, error: false };
  if (typeof r.error === "string") return { text: r.error, error: true };
  if (r.error !== undefined && r.error !== null) return { text: canonicalJson(r.error), error: true };
  if (typeof r.content === "string") return { text: r.content, error: false };
  return { text: response === undefined ? "" : canonicalJson(response), error: false };
}

function modelParts(parts: unknown, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  for (const p of arr(parts)) {
    const x = obj(p);
    if (typeof x.text === "string") {
      if (x.thought === true) part.addThinking(x.text);
      else part.addText(x.text);
    } else if (x.functionCall !== undefined) {
      const call = obj(x.functionCall);
      part.addCall(call.name, call.args ?? {}, call.id);
    } else if (x.executableCode !== undefined) {
      const code = obj(x.executableCode);
      part.addCall("code_execution", str(code.code), undefined);
    } else if (x.codeExecutionResult !== undefined) {
      const result = obj(x.codeExecutionResult);
      const outcome = str(result.outcome);
      part.addResult(str(result.output), { error: outcome !== "" && outcome !== "OUTCOME_OK" });
    }
  }
  return part.parts();
}

function userParts(parts: unknown, ctx: PartContext): string[] {
  const out: string[] = [];
  for (const p of arr(parts)) {
    const x = obj(p);
    let s: string | null = null;
    if (typeof x.text === "string" && x.thought !== true) s = humanPart("user", x.text, ctx);
    else if (x.functionResponse !== undefined) {
      const fr = obj(x.functionResponse);
      const { text, error } = functionResponseText(fr);
      s = resultPart(text, ctx, { error, callId: fr.id, tool: fr.name });
    }
    if (s !== null) out.push(s);
  }
  return out;
}

function digestPart(p: unknown, hash: Hash): Form {
  const x = obj(p);
  // A signature changes nothing the summary says, but a different one is a different turn.
  const sig = typeof x.thoughtSignature === "string" ? hash(x.thoughtSignature) : null;
  if (typeof x.text === "string") return ["text", x.text, x.thought === true, sig];
  if (x.functionCall !== undefined) {
    const c = obj(x.functionCall);
    return ["functionCall", prim(c.id), prim(c.name), canonicalJson(c.args ?? null), sig];
  }
  if (x.functionResponse !== undefined) {
    const r = obj(x.functionResponse);
    return ["functionResponse", prim(r.id), prim(r.name), canonicalJson(r.response ?? null), canonicalJson(r.parts ?? null)];
  }
  if (x.inlineData !== undefined) {
    const d = obj(x.inlineData);
    return ["inlineData", prim(d.mimeType), hash(str(d.data))];
  }
  return ["other", canonicalJson(withoutKeys(x, ["thoughtSignature"])), sig];
}

const isSummaryContent = (m: unknown): boolean => {
  const msg = obj(m);
  return msg.role === "user" && isSummaryText(firstText(msg.parts));
};

/** A content on the user's side that only text or data may join: no function response (that must follow its call). */
const joinable = (m: unknown): boolean => m !== undefined && !isModel(m) && !arr(obj(m).parts).some((p) => obj(p).functionResponse !== undefined);

/** The list with the summary at `at` joined to the user content before it (and a user content after it, if any). */
function sendable(list: readonly unknown[], at: number): unknown[] {
  if (!isSummaryContent(list[at])) return list.slice();
  let from = at;
  let to = at + 1;
  if (at > 0 && !isModel(list[at - 1])) from = at - 1;
  if (joinable(list[to])) to++;
  if (to - from === 1) return list.slice();
  const first = obj(list[from]);
  const parts: unknown[] = [];
  for (let i = from; i < to; i++) for (const p of arr(obj(list[i]).parts)) parts.push(p);
  const out = list.slice(0, from);
  out.push({ ...first, parts });
  for (let i = to; i < list.length; i++) out.push(list[i]);
  return out;
}

export const gemini: Dialect = {
  name: "gemini",
  messagesKey: "contents",
  isAssistant: isModel,
  isSummary: isSummaryContent,
  trimFromHead: () => false,
  startsTurn: (m, prev) => isModel(m) && !isModel(prev),
  summarize(m, ctx) {
    const msg = obj(m);
    if (msg.role === "model") return modelParts(msg.parts, ctx);
    if (msg.role === "user" || msg.role === undefined) return userParts(msg.parts, ctx);
    const p = humanPart(str(msg.role) || "unknown", arr(msg.parts).map((x) => str(obj(x).text)).join("\n"), ctx, false);
    return one(p);
  },
  digestForm: (m, hash) => [prim(obj(m).role), arr(obj(m).parts).map((p) => digestPart(p, hash))],
  summaryMessage: (text) => ({ role: "user", parts: [{ text }] }),
  sendable,
};
