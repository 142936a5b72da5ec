import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  billableChars,
  canonicalJson,
  compact,
  estimateTokens,
  imageTokens,
  MAX_IMAGE_TOKENS,
  pythonJson,
  pythonJsonLength,
  SUMMARY_HEADER,
} from "../../core/index.js";
import { aBody, aSession, oSession, pngDataUri } from "../helpers/sessions.js";

const gold = JSON.parse(readFileSync(new URL("../fixtures/reference-gold.json", import.meta.url), "utf8"));

// Every compaction here runs under the reference profile, named: the gold values are the reference's output.
describe("reference gold values", () => {
  it("canon_obj", () => {
    expect(canonicalJson({ b: 1, a: 2 })).toBe(gold.canon_obj);
  });

  it("a10: head, cut, count, byte-exact summary, tail roles", () => {
    const msgs = aSession(10);
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 2 })!;
    expect(r.headLen).toBe(gold.a10.head_len);
    expect(r.cut).toBe(gold.a10.cut);
    expect(r.messages.length).toBe(gold.a10.n);
    expect((r.summary as { content: string }).content).toBe(gold.a10.summary);
    expect(r.messages.slice(2).map((m) => (m as { role: string }).role)).toEqual(gold.a10.tail_roles);
  });

  it("a6_cmd20_summary", () => {
    const r = compact(aSession(6), "anthropic", { profile: "reference", keepRecent: 1, cmdMaxChars: 20 })!;
    expect(r.summaryText).toBe(gold.a6_cmd20_summary);
  });

  it("o10 with a Python-style builder, byte-exact", () => {
    const r = compact(oSession(10), "openai-chat", { profile: "reference", keepRecent: 2 })!;
    expect(r.headLen).toBe(gold.o10.head_len);
    expect(r.cut).toBe(gold.o10.cut);
    expect(r.messages.length).toBe(gold.o10.n);
    expect(r.summaryText).toBe(gold.o10.summary);
  });

  it("dumps_len, billable_body, est_tokens", () => {
    const body = aBody(aSession(10));
    expect(pythonJson(body).length).toBe(gold.dumps_len);
    expect(pythonJsonLength(body)).toBe(gold.dumps_len);
    expect(billableChars(body)).toBe(gold.billable_body);
    expect(estimateTokens(body)).toBe(gold.est_tokens);
  });

  it("image_tokens and max_image_tokens", () => {
    for (const [w, h, tokens] of gold.image_tokens as number[][]) expect(imageTokens(pngDataUri(w, h))).toBe(tokens);
    expect(MAX_IMAGE_TOKENS).toBe(gold.max_image_tokens);
  });

  it("the header is the reference sentence", () => {
    expect(gold.a10.summary.startsWith(SUMMARY_HEADER + "\n\n")).toBe(true);
  });
});
