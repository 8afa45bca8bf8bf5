import { defineProject } from "vitest/config";

/** Each package's vitest project: sources resolved through the `dev-source` export condition. */
export function kopekProject(name: string, extra: { testTimeout?: number } = {}) {
  return defineProject({
    resolve: { conditions: ["dev-source"] },
    ssr: { resolve: { conditions: ["dev-source"] } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node",
      ...extra,
    },
  });
}
