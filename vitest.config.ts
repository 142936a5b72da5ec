import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/summary-reporter.ts";

// The tests' own state folder: a proxy started by a test makes its admin token there, never in the user's;
// and their own cache folder: the default profile's archive (a CLI or proxy a test starts) is written there.
const state = mkdtempSync(join(tmpdir(), "cliff-test-state-"));
const cache = mkdtempSync(join(tmpdir(), "cliff-test-cache-"));

export default defineConfig({
  test: {
    env: { XDG_STATE_HOME: state, XDG_CACHE_HOME: cache },
    include: ["test/**/*.test.ts"],
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where many of
    // the files mostly wait on child processes, sockets and timers. Every file makes its own ports
    // and folders, so they can share the machine.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
