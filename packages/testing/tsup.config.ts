import { defineKopekConfig } from "../../tsup.config.base.js";

export default defineKopekConfig(["src/index.ts"]);
