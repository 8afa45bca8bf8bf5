#!/usr/bin/env node
// The `kopek` command: the built command line (dist/cli.js, made by `pnpm build`). A file of its own, in
// the package from the start, so that installing the workspace links the command before anything is built.
try {
  await import("../dist/cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("dist/cli.js")) throw error;
  process.stderr.write("kopek: @kopek/server is not built yet: run `pnpm build` first\n");
  process.exitCode = 1;
}
