import { hash } from "node:crypto";

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`: API key hashes and request fingerprints. */
export function sha256Hex(text: string): string {
  // The one-shot `hash` (Node >= 20.12) skips the Hash object: ~3x faster for these short inputs.
  return hash("sha256", text, "hex");
}
