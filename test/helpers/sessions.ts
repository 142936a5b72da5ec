/** Builders of the synthetic sessions the reference gold values were produced from (reference-gold.md). */

export function aSession(n: number, long = 3000): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing test in repo X." }];
  for (let i = 0; i < n; i++) {
    msgs.push({
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: I will inspect module ${i} to find the bug.` },
        { type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `pytest tests/test_${i}.py -x` } },
      ],
    });
    msgs.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: i % 2 === 0 ? "X".repeat(long) : `test_${i} passed (short output)` }],
    });
  }
  return msgs;
}

export function aBody(messages: unknown[]): Record<string, unknown> {
  return { model: "claude-sonnet-5", max_tokens: 4096, system: "You are a coding agent.", messages };
}

/** Python-style builder: arguments serialised with ", " / ": " as json.dumps does. */
export function oSession(n: number): unknown[] {
  const msgs: unknown[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing test." },
  ];
  for (let i = 0; i < n; i++) {
    msgs.push({
      role: "assistant",
      content: `Step ${i}: inspecting module ${i}.`,
      tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "bash", arguments: `{"command": "pytest tests/test_${i}.py -x"}` } }],
    });
    msgs.push({ role: "tool", tool_call_id: `call_${i}`, content: i % 2 === 0 ? "Y".repeat(3000) : `test_${i} passed` });
  }
  return msgs;
}

/** A minimal PNG header of the given size as a data URI. */
export function pngDataUri(width: number, height: number): string {
  const bytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  for (const v of [width, height]) bytes.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  bytes.push(8, 6, 0, 0, 0);
  return "data:image/png;base64," + Buffer.from(bytes).toString("base64");
}
