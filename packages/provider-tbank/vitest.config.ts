import { mergeConfig } from "vitest/config";
import { kopekProject } from "../../vitest.shared.js";

export default mergeConfig(kopekProject("provider-tbank", { testTimeout: 20_000 }), {
  test: { setupFiles: ["test/spec-setup.ts"] },
});
