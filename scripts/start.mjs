// `pnpm start`: `kopek serve` straight from the TypeScript sources (package.json runs this file with
// `--conditions=dev-source --import tsx`), so no build stands between a fresh clone and the server.
//
// It is also the process to stop. A signal sent to `pnpm start` reaches pnpm, which dies and leaves
// its children running; so when this process finds its parent gone (pnpm, or the shell it ran the
// script in), it stops as it does on SIGTERM: in-flight work finished, storage closed, exit 0.
// Operators who deploy run the built `kopek serve` (the `kopek` bin of @kopek/server) instead.

const parent = process.ppid;
const watchdog = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watchdog);
  process.kill(process.pid, "SIGTERM");
}, 200);
watchdog.unref();

process.argv.splice(2, process.argv.length - 2, "serve", ...process.argv.slice(2));
await import("../packages/server/src/cli.ts");
