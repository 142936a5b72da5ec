/**
 * The size of the suite's heaviest generated inputs. `npm test` checks every property and limit
 * over a quarter of the cases (or a smaller input that fails the same way), so the suite answers in
 * minutes on two shared cores; `npm run test:deep` (`CLIFF_DEEP=1`) runs the full counts and sizes.
 */
export const DEEP = process.env.CLIFF_DEEP === "1";

/** `full` generated cases under `test:deep`, a quarter of them otherwise. */
export const runs = (full: number): number => (DEEP ? full : Math.ceil(full / 4));
