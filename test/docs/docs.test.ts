/**
 * The README welcomes and the docs pages go deep (issue 29): the README stays short and links every
 * page; no line of the README as it was before the split (test/fixtures/readme-b272c83.md) is lost,
 * but for the few listed here that were rewritten; every anchor it had still lands in README.md;
 * and every relative link and anchor in README.md and docs/*.md resolves, by GitHub's heading rules.
 * Every `compact` and `simulate` figure is what the built CLI prints for the command beside it, on any
 * machine and under any home folder.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { anchors, fencedLines, links } from "./markdown.js";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const read = (p: string): string => readFileSync(join(ROOT, p), "utf8");
const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const OLD = read("test/fixtures/readme-b272c83.md");

/**
 * Lines of the old README that were rewritten, not moved, and why. Each must be gone (else it would
 * be a stale entry) and be a line of the old README.
 */
const REWRITTEN = new Map<string, string>([
  ["| `archiveDir` | \"\" (the host's folder) | the archive folder |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| `archiveMaxBytes` | 256 MiB | bound on the archive folder, least recently archived out first |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["With `archive` on, every tool result a cliff drops and every call it cuts is written to a folder", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["outside the context, and its line in the summary says how long it was (UTF-16 units) and where it", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["is. The agent reads it back with its own tools; nothing else changes. None of the usual summaries", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["does this: an LLM summary or a bare placeholder keeps nothing of what it leaves out.", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["before    279 messages, 45,115 tokens (estimated)", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["head      2 message(s) kept verbatim", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["tail      4 message(s) kept verbatim from message 275 (keepRecent 3)", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["          1 modified: src/parser.ts", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["assistant: Step 0: reading package.json to see how expectPunct handles punctuation.", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["[read] {\"path\":\"package.json\"}", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["**What is kept.** A file is named by the SHA-256 of its text's UTF-8, so the same text is stored", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["once, and no part of a path comes from the message. For a tool result, the text the model saw (a", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["string content as it is; for a list of blocks, the text parts the summary rules read, joined by", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["newlines; images are not archived). For a call cut at `cmdMaxChars`, its arguments as the", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["signature line would show them uncut, on a line under the cut signature: `call: cut 8,432 chars,", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["kept at \u2026`. Paths are absolute, since some agents' read tools refuse `~`. A pointer is a fixed tag,", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["numbers and a path, so the summary still quotes nothing it did not read; it costs about 35 tokens", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["(on the session above the 51 pointers take the summary from 7,155 to 8,915 tokens). Under budget", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["pressure pointer lines go as the lines they stand for do.", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| host | folder | on |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| Pi / OMP | `<agent dir>/cliffcompaction/archive/<session id>/` (`~/.pi/agent/\u2026`, `~/.omp/agent/\u2026`), or `<archiveDir>/<session id>/` | in the recall profile, or `\"archive\": true` |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| `cliffcompaction run` | `archiveDir`, default `~/.cache/cliffcompaction/archive` (under `$XDG_CACHE_HOME` when set) | in the recall profile, or `--archive DIR` |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| `cliffcompaction serve` | the same, on loopback only | as `run`; bound beyond loopback it is off (its clients' agents may not share this machine's files), and says so when asked for |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| `compact`, `simulate`, `report` | the same | in the recall profile, or `--archive DIR` |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["| AgentParley | none: its sandbox has no filesystem | never; a plugin build with `archive: true` is refused by name |", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["Turn it on with `--archive DIR` (sets `archive` and `archiveDir`), `\"archive\": true` in a config", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["file, `CLIFF_ARCHIVE=1` (and `CLIFF_ARCHIVE_DIR=\u2026`) or `profile: \"recall\"`; off with", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["`--no-archive`, `\"archive\": false` or `CLIFF_ARCHIVE=0`, which win over the profile.", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["archive again, and a pointer in a summary older than the bound allows may outlive its file).", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["larger than the bound) gives the line the summary would have without an archive (for a dropped", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["result, none), never an error, and is logged once: on standard error for the CLI, in the proxy's", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["log, as a notice in Pi. Output is deterministic whenever the writer succeeds; a failed write", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["changes that cliff's summary (the pointer is missing), so it may differ from the same cliff made", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["on a working disk, and in the proxy from a cold replay of the same history.", "refs, not paths: a summary names a dropped text by its ref; the archive is an export, off unless asked for (docs/retention.md)"],
  ["          6 modified: src/lex0.rs, src/lex1.rs, src/lex2.rs, src/lex3.rs, src/lex4.rs, src/lex5.rs", "compact's file lists newest first, bounded with a count"],
  ["files     7 read: src/ast.ts, test/lexer.spec.ts, package.json, src/errors.ts, src/lexer.ts, src/printer.ts, test/parser.spec.ts", "compact's file lists newest first, bounded with a count"],
  ["| host | how |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **Pi** | `pi install npm:cliffcompaction`, restart Pi, check with `/cliff status` |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **OMP** (oh-my-pi) | `omp install npm:cliffcompaction`, restart OMP, `/cliff status` |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **Claude Code, Codex** | `npx cliffcompaction run -- claude` or `npx cliffcompaction run -- codex` (see [the proxy](#claude-code-and-codex-the-proxy)) |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **Any API client** | `npx cliffcompaction serve`, then point the client's base URL at `http://127.0.0.1:8257` |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **The library** | `npm install cliffcompaction` (ESM and CommonJS entries, each with its declarations; Node ≥ 20.19) |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["| **The CLI** | `npx cliffcompaction --help` |", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["Working on the project itself:", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["npm install && npm start     # build the AgentParley plugin and run it in QuickJS on examples/session.json", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["npm install && npm test      # type-check, build, and run every test", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["const dialect = detectDialect(body);                       // \"anthropic\" | \"openai-chat\" | \"openai-responses\" | \"pi\" | \"plain\"", "the install rows that work before publication come first (a clone, a git URL, a packed tarball, Pi and OMP from a path); the registry's are labelled once published; docs/library.md's detectDialect names gemini"],
  ["`run` starts the proxy on a free loopback port, starts the agent with `ANTHROPIC_BASE_URL`,", "rewritten when run began exporting only the variables its agent reads: docs/proxy.md"],
  ["`OPENAI_BASE_URL` and `OPENAI_API_BASE` pointing at it, passes signals on (Ctrl-C reaches the agent", "rewritten when run began exporting only the variables its agent reads: docs/proxy.md"],
  ["| **AgentParley** | upload `cliffcompaction-agentparley-0.2.0.zip` (built by `npm run build`, see [the plugin](#the-agentparley-plugin)), then Settings → Engines → Context compaction → CliffCompaction |", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["**Install.** `npm run build` writes `dist/cliffcompaction-agentparley-0.2.0.zip` (the script, its", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["manifest, a short plugin README and the licence); `npm run build:recall` (`node build.mjs --profile", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["recall`, or a `\"profile\"` in the `--config` file) writes the recall profile's plugin as", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["`dist/cliffcompaction-agentparley-recall-0.2.0.zip`, whose manifest (`cliffcompaction-recall`,", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["\"CliffCompaction (recall profile)\") and README say so. Upload it, then choose it under **Settings →", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["Engines → Context compaction**. It asks for no permissions: no model, no network, no timers.", "issue 44: the package ships the AgentParley zip; where to upload it; README and docs/agentparley.md"],
  ["* `npm install && npm test`: type-check, build, and every test (about a minute). Pi 1.6 needs Node", "issue 44: how npm test is made quick, test:deep, npm install's warnings; docs/development.md"],
  ["  ≥ 22.19 and the system Node is 20, so `npm test` runs the test runner through", "issue 44: how npm test is made quick, test:deep, npm install's warnings; docs/development.md"],
  ["On your own session, `simulate --json` says what each cliff cost. Here the third cliff of the", "issue 30: simulate --json and report name the rule that kept each needed token (heldBy); docs/retention.md"],
  ["example session dropped the previous summary, which alone still named a file the next turns read:", "issue 30: simulate --json and report name the rule that kept each needed token (heldBy); docs/retention.md"],
  ["`message` is the item's index in the session (null for a previous summary, which the session", "issue 30: simulate --json and report name the rule that kept each needed token (heldBy); docs/retention.md"],
  ["`report` shows the same under each cliff, and the session replayed under both profiles.", "issue 30: simulate --json and report name the rule that kept each needed token (heldBy); docs/retention.md"],
  ["| `enable`, `disable`, `status` | the proxy always on, as a user service |", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["terminal alone: its log goes to a file named once at start. A base URL you already set", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["  larger: see [what each replica holds](#what-each-replica-holds-in-memory). (The proxy hashes", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["| `GET /_cliff/sessions/ID/last-cliff` | a session's newest summary beside what it dropped; only from a proxy bound to loopback, to loopback (403 otherwise) |", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["`last-cliff`, kept and served only by a proxy bound to loopback.", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["shell    /home/me/.bashrc exports ANTHROPIC_BASE_URL and OPENAI_BASE_URL for http://127.0.0.1:8257 (this shell not yet: source /home/me/.bashrc)", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["cliffcompaction: no service manager here (no systemd user session, no launchd); run the proxy yourself instead: /usr/bin/node /usr/lib/node_modules/cliffcompaction/dist/cli.mjs serve --port 8257", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["sessions of about 2 KB each, and their last cliffs' text within 16 MiB, kept only on loopback), the", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["`/_cliff/sessions/ID/last-cliff` answers 403 on such a proxy: the text of a summary is shown only", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["to the machine the proxy runs on.", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["$ npx cliffcompaction compact examples/session.json --archive /tmp/cliff-archive --lines 13", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["archive   51 dropped result(s) and 0 cut call(s) kept in /tmp/cliff-archive", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["result: dropped 3,778 chars, kept at /tmp/cliff-archive/7c/7c928f4c697410046f7179ee61b03a6b4dbd1148a05a5a521ccdeed5940afd06.txt", "issue 34: the access rule, run's log, restart, the archive example under the cache; docs/proxy.md, security.md, team.md"],
  ["| `report FILE [-o report.html]` | one self-contained HTML file (no network, no scripts, opens from disk): the sawtooth, the bill, the session's token anatomy, a table of cliffs and, for each, the summary beside what was kept verbatim, which tool results were dropped (size and call) and what the next turns needed that the cliff dropped, the files read and modified, and the session replayed under both profiles (reference and recall) side by side: tokens after a cliff, peak, the bill and the needed tokens each dropped. Without `--threshold` it picks a round number near a third of the session |", "docs/cli.md: simulate and report take the proxy's default for the model, bill in dollars and read timestamps (issue 33)"],
  ["| `simulate FILE --threshold N` | replays the session request by request and bills input tokens under a prefix-cache model (a repeated prefix is a cache hit at `--cache-discount`, default 0.1), against no compaction and an LLM summary at the same cliffs; `--svg`, `--csv`; `--json` lists every cliff (`cliffs[]`: step, message index, tokens before and after, rung, and `neededDropped`: each dropped or cut item, by kind and message index, with the tokens the next 8 model turns needed that it held and the compacted request lost; see [What a cliff keeps](#what-a-cliff-keeps)) |", "docs/cli.md: simulate and report take the proxy's default for the model, bill in dollars and read timestamps (issue 33)"],
  ["(`anthropic-beta: context-1m-…`) gives a Claude model 1,000,000; a model missing from the table is", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["(`cliffcompaction simulate /work/shared/corpus/pi-large-session.jsonl --threshold 100000`; the", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["**When it compacts.** The threshold is a share of the context window of the model each request", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["73.0% with Claude Code's own auto-compaction. And it is cheaper: `simulate` on the corpus's Pi", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["Why 50%: the proxy has to cliff before the agent's own compaction does, or the agent's LLM summary", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["[Configuration](#configuration)). Each replica holds, at most: the prefix store (`storeMaxBytes`,", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["`--threshold 150000` for a fixed number of estimated tokens for every model). Windows come from one", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["and the threshold it gave.", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["assumed to have 128,000 unless `--context-window N` says otherwise. `/_cliff/status` shows, for each", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["corpus's mini-swe-agent session peaks at 57,436 tokens and never reaches a 100k threshold.)", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["estimated is about 58% counted: below both, with a turn or two of room. Earlier is also better: the", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["model seen, the window, where it came from (`table`, `anthropic-beta`, `context-window`, `default`)", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["name prefix, so `claude-sonnet-4-5-20250929` finds `claude-`); Anthropic's 1M-context beta header", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["names: by default **50%** (`--threshold 60%` or `--threshold-share 0.6` for another share,", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["paper's Claude Code runs on Terminal-Bench 2.1 scored 76.7% with cliffs at a 45k threshold against", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["provider's count); Codex at `model_auto_compact_token_limit` (256,000 of GPT-5's 272,000-token", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["runs first. Claude Code auto-compacts at about 73–83% of the window (as users report it, from the", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["session (453 model calls, cached input at 0.1×), billed input tokens:", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["table (`proxy/window.ts`: current Claude, GPT, Gemini, Kimi, GLM and DeepSeek models, matched by", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["the same bytes upstream as one replica would give it (with `calibrate` off, its default: see", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["window in Codex's model table, about 94%). The estimate (characters / 4) runs about 15% under a provider's count on code, so 50%", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["| 100,000 | **50%** (the default) | 2 | 2,786,361 | −55.6% |", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["| `thresholdTokens` | 200000 | the engine / CLI threshold; budget for `strict` (the proxy's default is 50% of each model's window: see the proxy) |", "rewritten for the default threshold by model (issue 33): docs/proxy.md, docs/team.md, docs/configuration.md"],
  ["Nothing else is downloaded: the package has no dependencies (1.5 MB installed). The CLI's", "README.md: the size measured again (the pack test's consumer install), docs pages included"],
  ["| `serve`, `run -- CMD` | the proxy, below |", "docs/cli.md: the proxy is a page of its own now, linked"],
  ["below), then `CLIFF_*` environment variables over it (`CLIFF_KEEP_RECENT=1`, `CLIFF_SHADOW=yes`;", "docs/pi.md: the table of keys is on docs/configuration.md, linked"],
  ["below (validated; a bad key fails the build and names it). The same `summarize` is a library:", "docs/agentparley.md: the keys are on docs/configuration.md, linked"],
  ["| `profile` | `reference` | group of defaults: `reference` (the reference's output, byte for byte) or `recall` |", "docs/configuration.md: the reference profile's one exception (keepStubbedReads, issue 31) where the profile is described"],
  ["identical to the paper's reference; it is the right one when the agent mostly works from what it", "docs/retention.md: the same exception where the profiles are compared"],
  ["| plugin bundle, default / recall build | 45.2 KB (44.1 KiB) / 45.2 KB (44.2 KiB): the recall rules, with image pricing and the archive's pointers left out of the sandbox build (`__CLIFF_SANDBOX__`) | ≤ 45 KiB |", "docs/benchmarks.md: the bundles measured again with the working set (issue 30)"],
  ["| `thoughtMaxChars` | 0 | cap on assistant text in a summary (0 = unlimited) |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["| `cmdMaxChars` | 150 | cap on a tool-call signature |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["| `humanMaxChars` | 20000 | sanity cap on human text |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["| `focusResultMaxChars`, `focusTotalMaxChars` | 800, 6000 | focus excerpt caps |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["| `editMaxChars` | 0 (recall: 1000) | recall rule: an edit or write call (Pi `edit` / `write`, Claude Code `Edit` / `MultiEdit` / `Write` / `NotebookEdit`, `apply_patch`, `str_replace_editor`, `write_file` / `edit_file`, a shell command of several lines) shows its path and its new text, the input's own lines, up to this many characters; 0 = off |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["| `focusContextLines` | 1 (recall: 2) | lines of context either side of a focus excerpt's matching line |", "docs/configuration.md: the recall profile's values retuned on the corpus (issue 30)"],
  ["On the two corpus sessions (a Pi session and a mini-swe-agent trajectory) and 15 generated agent", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["sessions (three seeds in each of the five dialects: file reads, edits and writes, failing tests", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["with stack traces, todo lists, long build logs, later turns that go back to earlier files):", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| policy | corpus: needed held | context kept | generated: needed held | context kept |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| reference (the defaults) | 79.9% | 19.7% | 85.6% | 18.7% |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| paper (`thoughtMaxChars` 300, no thinking) | 79.9% | 17.6% | 82.4% | 17.4% |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| recall (`profile: \"recall\"`) | 98.5% | 25.1% | 95.0% | 22.7% |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| observation masking (all results but the newest 3 replaced by a placeholder) | 97.8% | 64.8% | 89.9% | 36.6% |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| head + kept tail only | 35.1% | 2.5% | 59.2% | 7.2% |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["What the defaults lose is mostly in long tool results (a file read, a failing test's trace) and in", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["calls cut at `cmdMaxChars`: an edit's lines, a write's content, the path after them. Masking keeps", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["more of it in two to three times the tokens, and cannot stop the context from growing. Over all", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["sessions the recall profile holds 95.4% of the needed tokens at 23.5% of the history (the", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["reference: 84.9% at 19.0%; masking: 90.9% at 46.3%).", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["**What each recall rule pays.** The profile's value of each key is where its gain stopped paying on", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["these sessions. Each row is the profile with one rule changed, over all sessions (needed held,", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["context kept; the profile itself: 95.4%, 23.5%):", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| change | held | kept | so the profile |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["|---|---|---|---|", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| edits and writes cut at `cmdMaxChars` again (`editMaxChars` 0) | 92.3% | 20.6% | keeps their new text to 1000 (2000: 95.4%, 24.1%; 600: 95.1%, 22.9%) |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| no tail focus (`tailFocus` false) | 90.5% | 19.8% | keeps it, with windows of two lines (one: 93.8%, 23.5%), 1200 a result and 4000 in all |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| every plan cut at `cmdMaxChars` (`planMaxChars` 0) | 92.2% | 24.0% | keeps only the newest, whole: more held in less context |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| thinking kept (`keepThinking` true) | 95.8% | 24.0% | drops it, as the paper's configuration does |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| short results to 500 (`resultMaxChars` 500) | 95.4% | 24.7% | keeps results to 200 |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| failed results keep their end (`errorTailMaxChars` 200) | 95.4% | 24.0% | leaves it off (no gain here); set it when your agent goes back to its stack traces |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["| no pins (`keepFiles` empty) | 95.4% | 23.5% | pins `AGENTS.md` and `CLAUDE.md` (no session here reads them; they cost nothing until one does) |", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["The recall profile's summaries are larger than the reference's (about a quarter of the history", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["instead of a fifth) and still fall back to the same floor at every cliff.", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["held (long reads, stack traces, todo lists), in about a quarter more context than the reference", "docs/retention.md: measured again on the whole corpus, both halves, per family (issue 30)"],
  ["64 MiB, and `storeMaxEntries`, 4,096), the message memo (64 MiB), the session table (1,000", "docs/team.md: the proxy's memo is 16 MiB now (issue 35)"],
  ["| proxy memory, 200 sessions at once, 20,000 requests (histories to 200 KB), proxy in its own process: RSS under load / peak / idle; heap after a collection under load / idle | 509–567 / 542–568 / 359–404 MiB; 91–98 / 85 MiB | ≤ 450 MiB + 5 × the bytes in flight; idle ≤ 450 MiB |", "docs/benchmarks.md: the memory bench runs dist/cli.mjs serve, median of three, against 400 / 250 MiB (issue 35)"],
  ["`npm run bench` (its `memory` section) drives 200 sessions at once through a proxy in a process of", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["its own, 20,000 requests of histories growing to 200 KB, and reads the proxy's heap after a full", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["collection and its resident memory (RSS):", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["memory: 200 sessions at once, 20000 requests (histories to 200 KB, threshold 30000), proxy in its own process, 79 s", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["  under load: RSS 509 MiB (peak 542 MiB), heap after a collection 98 MiB of 206 MiB held, external 93 MiB", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["  idle after: RSS 359 MiB, heap after a collection 85 MiB of 144 MiB held (memo 64 MiB, store 5 MiB), external 3 MiB", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["Where the RSS goes, idle after that run: about 90 MiB is Node itself before any request (code, the", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["runtime, the TypeScript loader of the bench); 144 MiB is the JavaScript heap V8 holds, of which 85", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["MiB is live (the memo at its 64 MiB bound, the store, the sessions) and the rest free pages V8 keeps", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["for the next burst; and about 125 MiB is native memory outside the heap that the C allocator keeps", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["after the peak of bodies in flight (200 bodies of up to 200 KB, each held as bytes, as a decoded", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["string and as parsed objects, and the outgoing bytes of a compacted one) had been freed: `external`", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["is back to 3 MiB, the pages are not returned. `MALLOC_ARENA_MAX=1` changed that by 15 to 40 MiB in", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["our runs, not more. So the true bound of a replica, with the default `memoMaxBytes` and", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["`storeMaxBytes`, is about **450 MiB, plus about five times the bytes of the requests in flight**", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["while they are (the bench checks both; over our runs idle RSS was 359–425 MiB and the peak 542–628", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["MiB with 40–60 MB of bodies in flight); the heap after a collection stays within the memo, the", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["store, the sessions and what is in flight. Size a container's limit for that (the unit's", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["`MemoryMax=1G` leaves room for about 100 MB of bodies at once); lower `memoMaxBytes` (an option of", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["`startProxy`) and `storeMaxBytes` to shrink the idle part.", "docs/team.md: the memory section measured again by the bench that runs dist/cli.mjs serve, median of three (issue 35)"],
  ["  at once, never held back. When the floor is within the gain of the threshold, the log, that", "issue 32: the floor warning against each request's own gain; docs/proxy.md"],
  ["no threshold flag, Claude Code's largest request was 92,938 tokens and Codex's (signed in with", "docs/proxy.md: Codex through run told the window the model-facts table gives gpt-6.2-sol (issue 32)"],
  ["ChatGPT, on the 128k assumed for a model the table does not know) 57,540: 22 and 26 compacted", "docs/proxy.md: Codex through run told the window the model-facts table gives gpt-6.2-sol (issue 32)"],
  ["requests, no refusal, no summarisation request from either. Both also exit 0 with a Claude", "docs/proxy.md: Codex through run told the window the model-facts table gives gpt-6.2-sol (issue 32)"],
  ["`turn`, `probe` or `one-shot`; `shadow: true` in shadow mode (the action is what would have been", "issue 32: sessions counted as the reference's newest version counts them (opening turns, side calls); docs/proxy.md"],
  ["(`max_tokens` ≤ 1, such as Claude Code's quota check) and one-shots (no model turn yet: titles,", "issue 32: sessions counted as the reference's newest version counts them (opening turns, side calls); docs/proxy.md"],
  ["classifiers) are counted apart (`probes`, `oneShots`), never in a session's requests or cliffs.", "issue 32: sessions counted as the reference's newest version counts them (opening turns, side calls); docs/proxy.md"],
  ["{ id, model, api, requests, cliffs, reuses, escalations, failOpens, probes, oneShots,", "issue 32: sessions counted as the reference's newest version counts them (opening turns, side calls); docs/proxy.md"],
  ["![context per request: four cliffs back to ~2k tokens under a 12k threshold](https://unpkg.com/cliffcompaction@0.2.0/docs/cliffs.svg)", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["summary   26,974 chars, 6,744 tokens (16.4% of the threshold), rung 0", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["kept      task 2 message(s) verbatim, recent 4 message(s) verbatim, digest 222 parts", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["<cliff-summary v=\"3\" check=\"e68d9ee1\">", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["requests  151 model calls replayed, threshold 12,000 tokens", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["cliffs    4   peak context 11,770   floor after a cliff 2,025", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["  cliffcompaction            1,021,656     968,624   149,894", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["  LLM summary, same cliffs   1,070,576   1,014,827   157,232   +4 summary calls, 6,030 output tokens", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["cliffcompaction bills 64.4% less than no compaction and 4.7% less than an LLM summary at the same threshold.", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["manifest, a short plugin README and the licence); `npm run build:recall` (`node build.mjs --profile", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["recall`, or a `\"profile\"` in the `--config` file) writes the recall profile's plugin as", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["`dist/cliffcompaction-agentparley-recall-0.2.0.zip`, whose manifest (`cliffcompaction-recall`,", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["\"CliffCompaction (recall profile)\") and README say so. Upload it, then choose it under **Settings →", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `keepThinking` | true | keep thinking as text |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `resultMaxChars` | 500 | longer tool results are dropped |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `planMaxChars` | 0 (recall: 3000) | recall rule: the newest plan of the compacted span (`TodoWrite`, `update_plan`, OpenHands' `task_tracker`, a `todo` tool) kept whole up to this many characters; older plans dropped; 0 = off |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `tailFocus` | false (recall: true) | recall rule: the distinctive tokens of the kept tail act as a focus on the results the length rule drops, merged with a `/compact` focus under the same caps |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `keepResultsOf`, `keepFiles` | none (recall: `keepFiles` `AGENTS.md,CLAUDE.md`) | pins: results of tools whose name matches a glob (any case; `mcp__*`), and reads of files whose path matches one (`*.md` matches any folder; `docs/*.md` the whole path), kept whole up to `pinMaxChars` (4000); comma-separated in flags and variables |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["| `archive` | false (true in `recall`) | keep dropped results and cut calls in a folder, point at them ([Nothing is lost](#nothing-is-lost)) |", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["after     7 messages, 8,915 tokens (estimated), 80.2% smaller", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["summary   273 parts from 273 messages: 148 assistant steps, 68 tool results kept, 51 dropped as too long, 6 human, 0 system", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["**Which to choose.** The reference profile (the default) for the smallest context and output", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["reads again. `profile: \"recall\"` when the next turns go back to what earlier results and edits", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["(its rules are config keys of their own, see [Configuration](#configuration)). Neither, but your", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["agent's own LLM compaction, when what it needs is a long tool result it cannot find again; and", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["`simulate --json` and `report` show, cliff by cliff, what the next turns of your own session", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["needed that a cliff dropped.", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["cliffcompaction: on", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["keepRecent 3 · resultMaxChars 500 · cmdMaxChars 150", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["thoughtMaxChars 0 · thinkingMaxChars 0 · keepThinking true", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["humanMaxChars 20000 · strict false · thresholdTokens 200000", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],
  ["archive: off", "issue 45: the recall profile is the default; outputs regenerated under it, the profile's values first"],  ["dollars per million tokens, come from one table (`proxy/prices.ts`: Claude, GPT and o-series list", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["Pi loads the prebuilt `pi-extension/index.js` (built from the TypeScript beside it; a test checks", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["they match; it imports only Node built-ins, so a clone installed with `npm install --omit=dev` loads", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["too). Restart Pi after installing, then:", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["**Needed**, as `core/retention.ts` defines it: the distinctive tokens of the next 8 model turns", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["`npm run bench` on the development machine (2 vCPU AMD EPYC VM, the system Node 20.20; each section,", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["and each row of the core table, in its own process; times the fastest of several runs after a", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["warm-up). Ranges are over this session's runs:", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| what | measured | target |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| compact + estimate, plain English 10 MB, / one `JSON.stringify` | 0.15–0.18 | ≤ 0.5 |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| compact + estimate, mixed text 10 MB (quotes, tabs, non-ASCII, emoji) | 0.47–0.57 | ≤ 0.7 |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| compact + estimate, corpus Pi session / mini-swe-agent trajectory | 0.67–0.76 / 0.58–0.67 | ≤ 0.8 |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| growth to 50 MB (mixed) | 0.48–0.56 of stringify at 1, 10 and 50 MB, extra heap 0.47–0.95× | near-linear, < 1× |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| micro scenario: compact (result read) / estimateTokens | 0.045–0.056 ms / 0.052–0.076 ms | ≤ 0.08 / ≤ 0.1 |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| plugin `summarize`, 4 MB: node:vm / QuickJS | 5.7–10.7 ms / 92–150 ms | ≤ 60 ms / ≤ 300 ms |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| the same, default build vs recall build, five runs each on a loaded machine: node:vm / QuickJS | 5.2–10.5 ms vs 5.5–7.9 ms / 94–128 ms vs 89–137 ms (on a quiet machine: 5.71 vs 5.54 ms / 92 vs 90 ms) | recall ≤ 1.5× |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| stress rows at 10 MB, default vs recall build, alternated in one process (QuickJS): many small parts, assistant text, an unmatched focus, 300,000 tiny messages, a 10,000-term focus | 1.10×, 1.16×, 1.15×, 1.14×, 0.48× (node:vm 0.8–1.4× on the rows over 10 ms; the 1–3 ms rows vary 0.8–2× run to run) | recall ≤ 1.5× |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| engine: fresh prepare / grow 76 prepares | 0.26–0.32 ms / 4.3–5.7 ms | ≤ 0.85 / ≤ 7.3 |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| engine: 161 messages at first sight, node:crypto, side by side with a plain loop in the same process (per message canonical text and a digest, then the chain) | 0.59–0.60 ms vs 0.41 ms: 1.44–1.47× | ≤ 1.5× |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| proxy added p50: 100 KB / 1 MB (under the threshold) | 1.0–1.6 ms / 5.5–7.8 ms | ≤ 2 / ≤ 10 ms |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| proxy added p50: 100 KB / 1 MB compacted every request | 1.4–1.7 ms / 6.5–9.0 ms | ≤ 2 / ≤ 10 ms |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| proxy work beyond a pass-through relay, compacted, vs one parse + stringify of the body's bytes: 1 MB / 100 KB | 5.4–8.1 vs 7.9–11.3 ms / 0.98–1.22 vs 0.78–1.24 ms | ≤ 1× (100 KB: over on the last quiet run, 1.22 vs 0.78 ms, since the body is written from the request's own text to keep its numbers) |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| proxy reading the provider's usage, per answer (48–68 KB SSE in 1.4 KB pieces, each API; plain / gzip) | 0.050–0.074 ms / 0.054–0.070 ms p50 | ≤ 0.2 ms |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| proxy time to first byte of an SSE answer, usage read vs a plain relay, each API | +0.026–0.063 ms (the relay's interquartile range 0.08–0.47 ms) | equal within noise |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| Pi hook, 2,127 entries, 1.05M tokens | 4.4–10.8 ms | < 100 ms |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| stress, 10 MB versions (node:vm per 100 MB / QuickJS): task over budget; many small parts; 300,000 tiny messages; a 10,000-term focus | 0.18–0.26 s / 0.2–1.0 s; 1.6–2.1 s / 1.4–2.1 s; 2.7–3.8 s / 2.6–4.1 s; 0.20–0.30 s / 0.7–1.3 s | ≤ 3 s per 100 MB / ≤ 30 s (tiny messages: met on the last quiet run, 2.7 s; over on earlier ones) |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| stress at the review's sizes (`npm run bench:stress`; node:vm / QuickJS): 101 MB task over budget; 138 MB of 5,000-call messages; 1,000,000 tiny messages (38 MB); 200 MB assistant text; 100 MB unmatched focus; 129 MB with a 10,000-term focus | 0.02–0.03 s / 1.4–10.6 s; 2.0–4.3 s / 14.1–23.9 s; 0.67–1.1 s / 8.5–13.4 s; 0.04–0.08 s / 1.6–2.6 s; 0.02–0.05 s / 0.8–1.4 s; 0.06–0.09 s / 1.8–3.1 s (the lower ends from the last run, on a quiet machine) | ≤ 3 s per 100 MB / ≤ 30 s |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| stress, third review (`npm run bench:stress`; node:vm / QuickJS, from the call to `summarize`, the context already parsed in the sandbox): 36 M NULs of assistant text in 36 messages / in 6,000 messages (216 MB of JSON each) | 0.05–0.20 s / 0.27–0.95 s; 0.12–0.55 s / 0.33–1.18 s (before: 4 M NULs took 4.7 s / 32 s and 8.3 s / 43 s) | < 2 s / < 10 s |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["| readers at the third review's sizes (`npm run bench:stress`): 100,000 split lines of one Claude Code message (17 MB); a Codex rollout of 30,000 items and 30,000 rollbacks (6 MB); an OpenHands condensation range of 0..1e15 | 0.20–1.0 s; 0.06–0.25 s; 1 ms and no heap growth (before: 20,000 lines 5.0 s, 10,000 + 10,000 3.1 s, both quadratic; the range a `RangeError`) | < 2 s each; constant memory |", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["time (`core/escape-scan.wat`): about 0.4 ns per character of one-byte text and 1 ns of two-byte", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["* `npm run build:extension` after editing `pi-extension/` or the core: it rewrites the committed", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["  `pi-extension/index.js` (a test fails while it is stale).", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["* `npm run build:wasm` after editing `core/escape-scan.wat`: it assembles the module into the", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["  committed `core/escape-scan-module.ts` with `wabt` (a test fails while it is stale).", "docs/benchmarks.md: per area a table of the current figures, their target and the command that gives them; earlier rounds in the CHANGELOG"],
  ["$ npx cliffcompaction simulate examples/session.json --threshold 12000 --json | jq '.cliffs[2]'", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"step\": 89,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"index\": 167,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"before\": 12324,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"after\": 2025,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"needed\": 8,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["  \"held\": 7,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["      \"message\": null,", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["      \"kind\": \"summary\",", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["      \"action\": \"dropped\",", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["        \"src/printer.ts\"", "the simulate figures regenerated under the default (recall) profile, each from the command beside it: docs/retention.md shows the fourth cliff, which cuts a needed line"],
  ["| 45,000 | 22.5% | 6 | 1,442,995 | −77.0% |", "docs/proxy.md's Pi threshold table regenerated from its command under the default (recall) profile, the transcript's timestamps expiring the cache"],
  ["| 120,000 | 60% | 2 | 3,330,365 | −47.0% |", "docs/proxy.md's Pi threshold table regenerated from its command under the default (recall) profile, the transcript's timestamps expiring the cache"],
  ["| 146,000 | 73% (Claude Code's earliest) | 1 | 3,957,559 | −37.0% |", "docs/proxy.md's Pi threshold table regenerated from its command under the default (recall) profile, the transcript's timestamps expiring the cache"],
  ["| none | | 0 | 6,281,275 | |", "docs/proxy.md's Pi threshold table regenerated from its command under the default (recall) profile, the transcript's timestamps expiring the cache"],
  ["| a long tool output in the compacted span | paraphrased or left out by the model | dropped, or kept in the archive and pointed at (see [Nothing is lost](#nothing-is-lost)) |", "docs/pi.md: a dropped output is named by its ref and the model gets it back with cliff_recall; the archive is an export"],
  ["● acb25cbf6a  claude-opus-5-5     █××××××                           13/17         74k→19k       6    0%        —     0s", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["third on is a new cliff (`×` after `×`, no reuse, nothing for a cache to hit). The log said so once:", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["proxy answers it says so in one line and exits 1. A frame (`watch --once`) from a real run: Claude", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["Code 2.1.332 through `cliffcompaction run --threshold 12000 --keep-recent 1` against the scripted", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["model of `npm run test:agents` (shell calls with 6,000-line outputs), taken while the model held its", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["final answer:", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["cliffcompaction 0.2.0 · http://127.0.0.1:35187 · up 1s · threshold 12,000 · keepRecent 1", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["requests 8 · cliffs 6 · reuses 0 · saved 197k tokens, net —", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["provider's count: input 151k · cache read 0 · cache write 0 · output 160", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["09:44:25 acb25cbf6a cliff     17→4 msgs 74,486→19,213 tok +16.2ms 200 · provider in 19k cache 0/0 out 20", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["09:44:25 acb25cbf6a cliff     15→4 msgs 65,694→19,252 tok +2.5ms 200 · provider in 19k cache 0/0 out 20", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["09:44:25 acb25cbf6a cliff     13→5 msgs 56,909→19,263 tok +2.0ms 200 · provider in 19k cache 0/0 out 20", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["It shows the hazard the floor warning names: Claude Code's own head (system prompt and tools) is", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["about 10.4k tokens, so what stays after a cliff (12,961 with the summary) is over the 12k threshold and every request from the", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["2026-12-01T09:44:25.166Z WARNING session acb25cbf6a: what stays after a cliff is 12,961 tokens (head 10,364, summary 2,556, tail 41), at or over the threshold (12,000): cliffs come as often as the minimum gain (0) allows and the prompt cache rarely hits; raise the threshold or lower keepRecent", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["(The model's name has no price in the table, so the net is `—`; the scripted model reports no", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["cache use.)", "docs/proxy.md: the watch frame taken again from the recall run of test:agents (Claude Code 2.1.332 recalls a ref in two pages), with its RECALLS column and this run's floor warning"],
  ["proxy    http://127.0.0.1:8257 answers: cliffcompaction 0.2.0, threshold 50% of the model's window, keepRecent 3, 0 sessions, store 0 entries (0 KiB), 2 requests", "docs/proxy.md: status's proxy line as the proxy prints it now (its profile, its recalls)"],
]);

/** Files the layout moved (issue 29): an old line naming one is kept when a page names it at its new place. */
const MOVED: [string, string][] = [
  ["core/escape-scan.wat", "core/estimate/escape-scan.wat"],
  ["core/escape-scan-module.ts", "core/estimate/escape-scan-module.ts"],
  ["proxy/window.ts", "proxy/decision/window.ts"],
  ["proxy/prices.ts", "proxy/observe/prices.ts"],
  ["core/retention.ts", "core/retention/retention.ts"],
];
const moved = (line: string): string => MOVED.reduce((l, [from, to]) => l.split("`" + from + "`").join("`" + to + "`"), line);

/**
 * A line as a fact: white space collapsed, a heading's level forgotten (a section's depth changes
 * when it moves to a page of its own), link targets forgotten (they point at the new pages).
 */
function fact(line: string): string {
  return line
    .trim()
    .replace(/\s+/g, " ")
    .replace(/^#{1,6} /, "# ")
    .replace(/\]\([^)]*\)/g, "]()");
}

/**
 * The text blocks that start with `$ npx cliffcompaction compact|simulate FILE …` on a file of the
 * repository (a figure of the user's own session, under ~, is not one); an archive example names a
 * folder of the machine it ran on, so it is not one either.
 */
function commandBlocks(page: string): { command: string; shown: string[] }[] {
  return page
    .split(/^```text\n/m)
    .slice(1)
    .map((b) => b.split(/^```$/m)[0].trimEnd().split("\n"))
    .filter(([first]) => /^\$ npx cliffcompaction (compact|simulate) /.test(first))
    .filter(([first]) => existsSync(join(ROOT, first.split(" ")[4])) && !first.includes("--archive"))
    .map(([command, ...shown]) => ({ command, shown }));
}

/**
 * Runs a figure's command with the built CLI in a fresh folder (the repository's examples and
 * fixtures linked in, so what it writes stays there) under a fresh HOME, and returns what it printed
 * and each file it wrote beside the committed file of the same path. `| jq '.key[n]'` is applied here.
 */
function runFigure(command: string): { stdout: string; written: [string, string][] } {
  const [cli, jq] = command.slice("$ npx cliffcompaction ".length).split(" | jq ");
  const args = cli.split(" ");
  const cwd = mkdtempSync(join(tmpdir(), "cliff-figure-"));
  const home = mkdtempSync(join(tmpdir(), "cliff-figure-home-"));
  try {
    for (const dir of ["examples", "test"]) symlinkSync(join(ROOT, dir), join(cwd, dir));
    const outputs = args.flatMap((a, i) => (["--svg", "--csv", "-o"].includes(a) ? [args[i + 1]] : []));
    for (const out of outputs) mkdirSync(join(cwd, dirname(out)), { recursive: true });
    const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local", "state"), XDG_CONFIG_HOME: join(home, ".config") };
    const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], { cwd, env, encoding: "utf8", timeout: 120_000 });
    expect(r.status, `${command}: ${r.stderr}`).toBe(0);
    let stdout = r.stdout.trimEnd();
    if (jq !== undefined) {
      const path = [...jq.replace(/'/g, "").matchAll(/\.(\w+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
      stdout = JSON.stringify(path.reduce((v: any, k) => v[k], JSON.parse(stdout)), null, 2);
    }
    return { stdout, written: outputs.map((o) => [readFileSync(join(cwd, o), "utf8"), o]) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

describe("the README and the docs pages", () => {
  it("the README is at most 250 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(250);
  });

  it("the README links every docs page", () => {
    const linked = new Set(links(read("README.md")).map((t) => t.split("#")[0]));
    for (const page of PAGES.filter((p) => p !== "README.md")) expect(linked, page).toContain(page);
  });

  it("every anchor of the old README still lands in README.md", () => {
    const now = anchors(read("README.md"));
    const missing = [...anchors(OLD)].filter((a) => !now.has(a));
    expect(missing).toEqual([]);
  });

  it("no fact lost: every line of the old README is in README.md or a docs page, but for the rewritten few", () => {
    const facts = new Set(PAGES.flatMap((p) => read(p).split("\n").map(fact)));
    const old = new Set(OLD.split("\n").map(fact));
    const lost = OLD.split("\n").filter((l) => l.trim() !== "" && !facts.has(fact(moved(l))) && !REWRITTEN.has(l));
    expect(lost).toEqual([]);
    for (const line of REWRITTEN.keys()) {
      expect(old.has(fact(line)), `not a line of the old README: ${line}`).toBe(true);
      expect(facts.has(fact(line)), `listed as rewritten but still there: ${line}`).toBe(false);
    }
  });

  it("the package ships every page and every file a page links to, so the links work from node_modules", () => {
    const files: string[] = JSON.parse(read("package.json")).files;
    // npm always packs these; the rest must match an entry of `files` (a path, a folder/, or folder/*.ext).
    const shipped = (p: string): boolean =>
      ["README.md", "LICENSE", "package.json"].includes(p) ||
      files.some((f) => f === p || (f.endsWith("/") && p.startsWith(f)) || (f.includes("*") && dirname(f) === dirname(p) && p.endsWith(f.slice(f.indexOf("*") + 1))));
    const targets = PAGES.flatMap((page) =>
      links(read(page))
        .filter((t) => !/^[a-z][a-z+.-]*:/i.test(t) && !t.startsWith("#"))
        .map((t) => relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(t.split("#")[0])))),
    );
    expect([...PAGES, ...targets].filter((p) => !shipped(p))).toEqual([]);
  });

  it("every file or folder of the project a page names in code ticks exists (so a move updates the docs)", () => {
    const PATH = /`((?:core|plugin|pi-extension|proxy|cli|node|bench|test|examples|docs)\/[^`\s*]*)`/g;
    const named = PAGES.flatMap((page) =>
      fencedLines(read(page))
        .filter((l) => !l.fenced)
        .flatMap((l) => [...l.line.matchAll(PATH)].map((m) => ({ page, path: m[1] }))),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => !existsSync(join(ROOT, n.path))).map((n) => `${n.page}: ${n.path}`)).toEqual([]);
  });

  it("every compact and simulate figure shows what the built CLI prints for the command beside it, under any home folder", () => {
    const figures = PAGES.flatMap((page) => commandBlocks(read(page)).map((b) => ({ page, ...b })));
    expect(figures.length).toBeGreaterThanOrEqual(6);
    for (const { page, command, shown } of figures) {
      const runs = [runFigure(command), runFigure(command)];
      for (const run of runs) {
        const printed = run.stdout.split("\n");
        // A figure ending in a bare "…" shows the output's first lines only.
        const expected = shown.at(-1) === "…" ? shown.slice(0, -1) : shown;
        const got = shown.at(-1) === "…" ? printed.slice(0, expected.length) : printed;
        expect(got.join("\n"), `${page}: ${command}`).toBe(expected.join("\n"));
        for (const [written, committed] of run.written) expect(written, `${page}: ${command} writes ${committed}`).toBe(read(committed));
      }
    }
  }, 300_000);

  it("states the bundle and zip sizes the build makes, in every page that prints the build's line", () => {
    const version = (JSON.parse(read("package.json")) as { version: string }).version;
    const bundle = statSync(join(ROOT, "dist", "cliffcompaction.js")).size;
    const zip = statSync(join(ROOT, "dist", `cliffcompaction-agentparley-${version}.zip`)).size;
    const lines = PAGES.flatMap((p) => read(p).split("\n").filter((l) => l.startsWith("build: cliffcompaction.js ")).map((l) => [p, l]));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const [page, line] of lines) expect(line, page).toBe(`build: cliffcompaction.js ${bundle} bytes, dist/cliffcompaction-agentparley-${version}.zip ${zip} bytes`);
  });

  it("states the installed size the package unpacks to (it has no dependencies), to a tenth of a MB", () => {
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
    const r = spawnSync(npm[0], [...npm.slice(1), "pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
    const packed = JSON.parse(r.stdout) as { unpackedSize: number }[];
    expect(JSON.parse(read("package.json")).dependencies).toBeUndefined();
    const stated = PAGES.flatMap((p) => [...read(p).matchAll(/\(([\d.]+) MB installed\)/g)].map((m) => [p, m[1]]));
    expect(stated.length).toBeGreaterThanOrEqual(1);
    for (const [page, mb] of stated) expect(mb, page).toBe((packed[0].unpackedSize / 1e6).toFixed(1));
  }, 60_000);

  it("every relative link resolves to a file, and every anchor to a heading of its page", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const target of links(read(page))) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split("#", 2);
        const file = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
        if (!existsSync(join(ROOT, file))) {
          broken.push(`${page}: ${target} (no ${file})`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(join(ROOT, file)).isDirectory() || !file.endsWith(".md")) broken.push(`${page}: ${target} (an anchor into a file that is not a page)`);
        else if (!anchors(read(file)).has(decodeURIComponent(anchor))) broken.push(`${page}: ${target} (no such heading in ${file})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
