import { randomBytes } from "node:crypto";
import { createTokenCipher, type TokenCipher } from "../src/index.js";

/** A cipher with a random key, as a server would build from `KOPEK_ENCRYPTION_KEY`. */
const key = randomBytes(32);

export function testCipher(): TokenCipher {
  return createTokenCipher({ keys: [{ id: "test", key }], currentKeyId: "test" });
}
