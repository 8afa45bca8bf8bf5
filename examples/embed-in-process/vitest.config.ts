import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("example-embed-in-process", { testTimeout: 20_000 });
