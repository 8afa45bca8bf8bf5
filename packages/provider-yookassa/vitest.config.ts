import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("provider-yookassa", { testTimeout: 20_000 });
