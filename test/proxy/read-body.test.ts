import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { joined, readUpTo } from "../../proxy/http/upstream.js";

const parts = (): Buffer[] => ["{\"a\":", "\"é🙂\",", "\"b\":[1,2,3]}"].map((s) => Buffer.from(s, "utf8"));
const whole = Buffer.concat(parts());

describe("reading a body (proxy/http/upstream.ts readUpTo)", () => {
  it("reads a body of a stated length into one buffer holding exactly its bytes", async () => {
    const body = await readUpTo(Readable.from(parts()), 1_000, whole.length);
    expect(body).toMatchObject({ total: whole.length, complete: true });
    expect(body.chunks).toHaveLength(1);
    expect(joined(body).equals(whole)).toBe(true);
  });

  it("keeps every byte when a body runs past its stated length, and stops past the limit", async () => {
    const over = await readUpTo(Readable.from(parts()), 1_000, 7);
    expect(over.complete).toBe(true);
    expect(joined(over).equals(whole)).toBe(true);
    const cut = await readUpTo(Readable.from(parts()), 12, 7);
    expect(cut.complete).toBe(false);
    expect(Buffer.concat(cut.chunks).equals(whole.subarray(0, cut.total))).toBe(true);
  });

  it("reads chunk by chunk without a stated length, or one over the limit", async () => {
    for (const stated of [undefined, Number.NaN, 0, 5_000]) {
      const body = await readUpTo(Readable.from(parts()), 1_000, stated);
      expect(body.chunks).toHaveLength(3);
      expect(joined(body).equals(whole)).toBe(true);
    }
  });
});
