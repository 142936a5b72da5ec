// Loaded (--import) into every Node process test:deploy starts: the process ends when the suite's
// end of its stdin closes (the suite exited, however it exited), and after its lifetime in any case.
process.stdin.on("end", () => process.exit(70));
process.stdin.on("error", () => process.exit(70));
process.stdin.resume();
process.stdin.unref?.();
const lifetime = Number(process.env.CLIFF_DEPLOY_LIFETIME_S ?? 900) * 1000;
setTimeout(() => process.exit(71), lifetime).unref();
