import { kopekProject } from "../../vitest.shared.js";

export default kopekProject("testing");
