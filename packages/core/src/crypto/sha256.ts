import { createHash, hash } from "node:crypto";

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`: API key hashes and request fingerprints. */
export function sha256Hex(text: string): string {
  // The one-shot `hash` (Node >= 20.12) skips the Hash object: ~3x faster for these short inputs.
  return hash("sha256", text, "hex");
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text` followed by `bytes` (a body handed over as bytes). */
export function sha256HexThen(text: string, bytes: Uint8Array): string {
  return createHash("sha256").update(text).update(bytes).digest("hex");
}
