import { defineConfig, type Options } from "tsup";

/** The one tsup configuration every package builds with: ESM, declarations, Node 20. */
export function defineKopekConfig(entry: string[], overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: true,
    treeshake: true,
    ...overrides,
  });
}
