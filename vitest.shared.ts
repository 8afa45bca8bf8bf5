import { defineProject } from "vitest/config";

/** Each package's vitest project: sources resolved through the `dev-source` export condition. */
export function kopekProject(
  name: string,
  extra: { testTimeout?: number; include?: string[]; env?: Record<string, string> } = {},
) {
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

/**
 * The storage-postgres files that run again on a schema sharded by project_id (issue 40):
 * TEST_DATABASE_SCHEMA=partitioned in `pnpm test`, =citus in `pnpm proof:citus`. The migration and
 * upgrade tests are not among them: they build their schema themselves, from nothing.
 */
export const STORAGE_SHARDED_SUITE = [
  "contract",
  "kopek",
  "idempotency-races",
  "renewal-races",
  "period-end-races",
  "trial-races",
  "change-races",
  "method-update-races",
  "create-batches",
  "metadata-order",
  "saved-method-token",
  "provider-secrets",
  "failover-errors",
].map((name) => `test/${name}.test.ts`);
