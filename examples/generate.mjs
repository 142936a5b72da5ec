#!/usr/bin/env node
// Writes examples/session.json: a deterministic, tool-heavy coding-agent session in AgentParley's
// {messages} shape (role + content string), several hundred messages long.
// Run: node examples/generate.mjs [out.json]
import { writeFileSync } from "node:fs";

let seed = 20261130;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

const files = ["src/parser.ts", "src/lexer.ts", "src/ast.ts", "src/printer.ts", "src/errors.ts", "test/parser.spec.ts", "test/lexer.spec.ts", "package.json"];
const idents = ["parseExpression", "readToken", "peekChar", "Node", "Span", "printNode", "ParseError", "expectPunct", "skipTrivia"];

function fileDump(path, lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const id = pick(idents);
    out.push(`${String(i).padStart(4)}  ${pick(["export function", "  const", "  if (", "  return", "  // ", "}"])} ${id}${pick(["(input: string) {", " = next();", ".kind === \"punct\")", ";", " handles trailing commas", ""])}`);
  }
  return `${path}\n` + out.join("\n");
}

function testRun(round, failing) {
  if (failing === 0) return `> vitest run\n\n Test Files  2 passed (2)\n      Tests  48 passed (48)\n   Duration  1.${round % 10}s`;
  const lines = [`> vitest run`, ""];
  for (let i = 0; i < 40; i++) lines.push(` ✓ test/${pick(["parser", "lexer"])}.spec.ts > ${pick(idents)} case ${i}`);
  for (let i = 0; i < failing; i++) lines.push(` × test/parser.spec.ts > trailing comma ${i}\n   AssertionError: expected ParseError to be undefined\n    at test/parser.spec.ts:${100 + i}:12`);
  lines.push("", ` Test Files  1 failed | 1 passed (2)`, `      Tests  ${failing} failed | ${48 - failing} passed (48)`);
  return lines.join("\n");
}

const messages = [
  { role: "system", content: "You are a careful coding agent. Use the tools to read, edit and test code. Keep answers short." },
  { role: "user", content: "The parser rejects trailing commas in argument lists (`f(a, b,)`), which the spec allows. Fix it in src/parser.ts, add tests, and keep `npm test` green." },
];
let failing = 6;
for (let step = 0; step < 150; step++) {
  const kind = step % 5;
  if (kind === 0) {
    const f = pick(files);
    messages.push({ role: "assistant", content: `Step ${step}: reading ${f} to see how ${pick(idents)} handles punctuation.\n[read] {"path":"${f}"}` });
    messages.push({ role: "tool", content: fileDump(f, 40 + Math.floor(rand() * 120)) });
  } else if (kind === 1) {
    const id = pick(idents);
    messages.push({ role: "assistant", content: `Step ${step}: searching for callers of ${id}.\n[bash] {"command":"grep -rn ${id} src test | head -5"}` });
    messages.push({ role: "tool", content: Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => `${pick(files)}:${10 + i * 7}:  ${id}(${pick(["input", "tok", "span"])})`).join("\n") });
  } else if (kind === 2) {
    messages.push({ role: "assistant", content: `Step ${step}: editing ${pick(files)} so ${pick(idents)} accepts a comma before the closing parenthesis.\n[edit] {"path":"src/parser.ts","old":"expectPunct(\\")\\")","new":"skipTrailingComma(); expectPunct(\\")\\")"}` });
    messages.push({ role: "tool", content: `Applied edit to src/parser.ts (1 hunk, +${1 + (step % 3)} −1).` });
  } else if (kind === 3) {
    failing = Math.max(0, failing - (rand() < 0.3 ? 1 : 0));
    messages.push({ role: "assistant", content: `Step ${step}: running the test suite.\n[bash] {"command":"npm test"}` });
    messages.push({ role: "tool", content: testRun(step, failing) });
  } else {
    messages.push({ role: "assistant", content: `Step ${step}: ${failing > 0 ? `${failing} trailing-comma cases still fail; the lexer emits a separate punct token for ',' before ')'.` : "all tests pass; checking the printer round-trips trailing commas too."}` });
    if (step % 25 === 4) messages.push({ role: "user", content: pick(["Also make sure the printer keeps the comma.", "Don't change the public API of parseExpression.", "Please add a regression test for nested calls."]) });
  }
}
messages.push({ role: "assistant", content: "All 48 tests pass, trailing commas parse and print. Summary of the change: skipTrailingComma() in parseArguments, two new tests." });

const out = process.argv[2] ?? new URL("./session.json", import.meta.url).pathname;
writeFileSync(out, JSON.stringify({ messages }, null, 1) + "\n");
console.log(`wrote ${out}: ${messages.length} messages, ${JSON.stringify(messages).length} chars`);
