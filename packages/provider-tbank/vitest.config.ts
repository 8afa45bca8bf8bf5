import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("provider-tbank", { testTimeout: 20_000 });
