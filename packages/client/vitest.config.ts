import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("client", { testTimeout: 20_000 });
