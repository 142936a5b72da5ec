import { defineConfig } from "vitest/config";

// Opt-in tests with the real Pi CLI and OMP (npm run test:hosts); never part of npm test.
export default defineConfig({
  test: {
    include: ["test/hosts/**/*.e2e.ts"],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
