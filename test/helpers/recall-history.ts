/**
 * The step outputs and agent histories the recall tests cliff: numbered lines a recall must bring
 * back byte for byte, each tagged by its step so a search finds one step's lines alone.
 */

/** `n` numbered lines of step `tag`; `paths` adds a source path to each, as a build log names files. */
export const stepLines = (tag: string, n: number, paths = false): string =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i}: value ${i * 7}${paths ? ` at src/${tag}/mod${i}.ts` : ""}`).join("\n");

/** The outputs of steps 0 … count-1, `n` lines each. */
export const stepTexts = (count: number, n: number, paths = false): string[] => Array.from({ length: count }, (_, i) => stepLines(`step${i}`, n, paths));

/** An Anthropic history: the task, then `steps` bash calls, step i answered by texts[i]. */
export function bashSteps(texts: readonly string[], steps: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
  for (let i = 0; i < steps; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Running step ${i}.` }, { type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `make step${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: texts[i] }] });
  }
  return msgs;
}
