import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("example-embed-express");
