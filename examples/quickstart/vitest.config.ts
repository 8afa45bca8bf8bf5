import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("example-quickstart", { testTimeout: 60_000 });
