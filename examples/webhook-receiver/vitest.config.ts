import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("example-webhook-receiver", { testTimeout: 20_000 });
