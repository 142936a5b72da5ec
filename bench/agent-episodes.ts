/**
 * The story of one session: bug-fix episodes over a generated project. Each episode plans, greps,
 * reads the file and its test, runs the test (a failure with a stack trace), edits, reruns, writes
 * a helper, builds (a long log) and sums up; later episodes go back to files, functions and
 * numbers met in earlier ones, so their turns need what only the earlier history held.
 */
import { Story, type PlanItem } from "./agent-story.js";

type File = Story["files"][number];

function testRun(s: Story, f: File, failing: boolean, fn: string): [string, number] {
  const lines = [`> vitest run ${f.test}`, "", ` RUN  v4.1.12 /work/app`, ""];
  const passed = s.int(6, 40);
  for (let i = 0; i < passed; i++) lines.push(` ✓ ${f.test} > ${f.cls} > ${s.pick(f.fns)} ${s.prose(s.int(3, 7))} ${s.int(1, 40)}ms`);
  if (!failing) {
    lines.push("", ` Test Files  1 passed (1)`, `      Tests  ${passed} passed (${passed})`, `   Duration  ${s.int(300, 4000)}ms`);
    return [lines.join("\n"), 0];
  }
  const [, at] = s.lineOf(f, fn);
  const field = s.pick(f.fields);
  const testLine = s.int(20, 300);
  lines.push(
    "", ` FAIL  ${f.test} > ${f.cls} > ${fn} keeps the ${field}`,
    `TypeError: Cannot read properties of undefined (reading '${field}')`,
    ` ❯ ${f.cls}.${fn} ${f.path}:${at + 3}:${s.int(5, 40)}`,
    ` ❯ ${f.test}:${testLine}:${s.int(5, 30)}`,
    `    ${testLine - 1}|   const got = store.${fn}("${s.pick(f.fields)}:${s.int(100, 9999)}");`,
    `    ${testLine}|   expect(got.${field}).toBe(${s.int(100, 9999)});`,
    "", ` Test Files  1 failed (1)`, `      Tests  1 failed | ${passed} passed (${passed + 1})`,
  );
  return [lines.join("\n"), 1];
}

function buildLog(s: Story): string {
  const lines = ["> app@2.4.0 build", "> tsc -p tsconfig.json && node build.mjs", ""];
  for (let i = s.int(60, 200); i > 0; i--) {
    const f = s.pick(s.files);
    lines.push(`[build] ${s.pick(["compiled", "bundled", "checked"])} ${f.path} in ${s.int(2, 90)}ms (${s.int(1, 40)}.${s.int(0, 9)} kB)`);
  }
  lines.push(`dist/app.mjs  ${s.int(100, 900)}.${s.int(0, 9)} kB`, `done in ${s.int(2, 20)}.${s.int(10, 99)}s`);
  return lines.join("\n");
}

function grepResult(s: Story, fn: string): string {
  const hits: string[] = [];
  for (const f of s.files) {
    for (let i = 0; i < f.lines.length; i++) if (f.lines[i].includes(fn)) hits.push(`${f.path}:${i + 1}:${f.lines[i]}`);
  }
  for (let k = s.int(1, 4); k > 0; k--) hits.push(`${s.pick(s.files).test}:${s.int(10, 200)}:  expect(store.${fn}("${s.int(100, 999)}")).toBeDefined();`);
  return hits.join("\n");
}

function plan(f: File, fn: string, done: number): PlanItem[] {
  const items = [
    `Reproduce the failure of ${f.test}`,
    `Find why ${f.cls}.${fn} returns undefined for ${f.fields[0]}`,
    `Fix ${fn} in ${f.path}`,
    `Add a regression test for ${f.consts[0]}`,
    `Run the build and the whole suite`,
  ];
  return items.map((text, i) => ({ text, status: i < done ? "completed" : i === done ? "in_progress" : "pending" }));
}

/** One episode: fix `fn` in `f`; `back` is a file from an earlier episode that this one returns to. */
function episode(s: Story, f: File, back: File | undefined): void {
  const fn = s.pick(f.fns);
  s.turn(`Next: ${fn} in ${f.path}. I will track the steps.`, [[{ tool: "plan", items: plan(f, fn, 0) }, "Todos have been modified successfully."]], `The failing test points at ${f.cls}; start from ${fn}.`);
  s.turn(`Looking for the callers of \`${fn}\`.`, [[{ tool: "grep", pattern: fn, path: "src" }, grepResult(s, fn)]]);
  s.turn("", [[{ tool: "read", path: f.path }, s.numbered(f)]], `${f.cls} keeps entries in byKey; ${f.consts[0]} is the default limit.`);
  const [failLog, failCode] = testRun(s, f, true, fn);
  s.turn(`Running ${f.test} to see the failure.`, [[{ tool: "bash", command: `npx vitest run ${f.test}` }, failLog, failCode]]);
  const [line, hitAt] = s.block(f, fn, "const hit", s.int(1, 4));
  const at = hitAt + 1;
  const guard = `${fn}Guarded`;
  const field = failLog.match(/reading '(\w+)'/)?.[1] ?? f.fields[0];
  const next = `${line}\n    if (hit === undefined) return ${guard}(input, ${f.consts[1]});`;
  const trace = failLog.match(new RegExp(`${f.path.replace(/[./]/g, "\\$&")}:\\d+:\\d+`))?.[0] ?? f.path;
  s.turn(
    `The trace points at ${trace}: the ${field} is read from an entry that ${fn} never found (line ${at}); guarding it with ${guard}.`,
    [[{ tool: "edit", path: f.path, old: line, next }, `The file ${f.path} has been updated.`]],
    `Line ${at}: hit may be undefined when the key is missing.`,
  );
  f.lines.splice(at, 0, `    if (hit === undefined) return ${guard}(input, ${f.consts[1]});`);
  if (back !== undefined) backReference(s, f, back);
  const helper = `src/${f.path.split("/")[1]}/${guard.toLowerCase()}.ts`;
  const content = [`import { ${f.cls}, ${f.consts[1]} } from "./${f.noun.toLowerCase()}.js";`, "", `/** ${s.prose(12)}. */`, `export function ${guard}(input: string, fallback = ${f.consts[1]}): ${f.noun} | undefined {`, `  const [${f.fields[1]}] = input.split(":");`, `  return ${f.fields[1]} === "" ? undefined : new ${f.cls}().${s.pick(f.fns)}(input, fallback);`, "}"].join("\n");
  s.turn(`Writing ${guard} in its own file.`, [[{ tool: "write", path: helper, content }, `File created successfully at: ${helper}`]]);
  const [passLog] = testRun(s, f, false, fn);
  s.turn(`Rerunning ${f.test}.`, [[{ tool: "bash", command: `npx vitest run ${f.test}` }, passLog, 0]]);
  s.turn("Updating the plan.", [[{ tool: "plan", items: plan(f, fn, 4) }, "Todos have been modified successfully."]]);
  s.turn("Building to check the types.", [[{ tool: "bash", command: "npm run build" }, buildLog(s), 0]]);
  s.turn(`Fixed ${f.cls}.${fn} (${f.path}:${at}): a missing key now goes to ${guard} with ${f.consts[1]}; ${f.test} passes.`, []);
}

/** A turn that needs what an earlier episode read: an edit of a line only that read showed. */
function backReference(s: Story, f: File, back: File): void {
  const other = s.pick(back.fns);
  const [line, hitAt] = s.block(back, other, "const hit", 3);
  const guardLine = `    if (hit === undefined) return undefined; // ${back.consts[0]} reached`;
  s.turn(
    `${back.cls}.${other} (${back.path}:${hitAt + 1}) has the same unchecked lookup; it needs the same guard as ${f.cls}.`,
    [[{ tool: "edit", path: back.path, old: line, next: `${line}\n${guardLine}` }, `The file ${back.path} has been updated.`]],
  );
  back.lines.splice(hitAt + 1, 0, guardLine);
}

/** A session's story: the task, then `episodes` bug fixes, with a user's note now and then. */
export function agentStory(seed: number, episodes = 7): Story {
  const s = new Story(seed);
  for (let i = 0; i < 10; i++) s.files.push(s.makeFile(seed + i));
  const first = s.files[0];
  s.user(`The tests of ${first.test} fail since the ${first.consts[0]} change (commit ${s.int(1000000, 9999999).toString(16)}). Fix ${first.cls} and anything else that fails; keep the public API of ${first.path}.`);
  for (let e = 0; e < episodes; e++) {
    const f = s.files[e % s.files.length];
    const back = e > 1 ? s.files[s.int(0, e - 2)] : undefined;
    if (e === 3) s.user(`Also keep ${first.consts[1]} at its current value; ${s.files[1].cls} reads it.`);
    episode(s, f, back);
  }
  return s;
}
