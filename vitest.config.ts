import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/summary-reporter.ts";

// The tests' own state folder: a proxy started by a test makes its admin token there, never in the user's.
const state = mkdtempSync(join(tmpdir(), "cliff-test-state-"));

export default defineConfig({
  test: {
    env: { XDG_STATE_HOME: state },
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
