import { defineConfig } from "vitest/config";

// Opt-in end-to-end tests with real agents from the registry (npm run test:agents); never part of npm test.
export default defineConfig({
  test: {
    include: ["test/agents/**/*.e2e.ts"],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
