import { defineConfig } from "vitest/config";

// Opt-in tests with real infrastructure (HAProxy, Prometheus, the Portkey gateway) on loopback: npm run test:deploy; never part of npm test.
export default defineConfig({
  test: {
    include: ["test/deploy/**/*.e2e.ts"],
    testTimeout: 900_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
