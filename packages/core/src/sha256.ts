import { createHash } from "node:crypto";

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`: API key hashes and request fingerprints. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
