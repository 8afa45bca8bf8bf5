import { kopekProject, STORAGE_SHARDED_SUITE } from "../../vitest.shared.js";

// The storage suite again on tenant tables HASH-partitioned by project_id (test/partitioned-schema.ts),
// part of `pnpm test` through the root config's projects.
export default kopekProject("storage-postgres (partitioned)", {
  include: STORAGE_SHARDED_SUITE,
  env: { TEST_DATABASE_SCHEMA: "partitioned" },
});
