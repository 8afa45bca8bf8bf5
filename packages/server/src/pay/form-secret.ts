import { hkdfSync, randomBytes } from "node:crypto";

// Fixed labels: the derived secret is useless for anything but payment forms, and changing a label
// would invalidate every form already served.
const FROM_FORM_SECRET = "kopek payment form token, from KOPEK_FORM_SECRET";
const FROM_ENCRYPTION_KEY = "kopek payment form token, from the encryption key";

/**
 * The secret that signs payment-form CSRF tokens. Behind a load balancer a form served by one instance
 * is posted to another, so every instance must derive the same one: from KOPEK_FORM_SECRET when set,
 * else from the encryption key (PostgreSQL: shared by every instance, and never used as is, only
 * through HKDF). Memory storage is a single process: a random secret is enough there.
 */
export function formTokenSecret(formSecret: string | null, encryptionKey: Uint8Array | null): Uint8Array {
  if (formSecret !== null) return derive(Buffer.from(formSecret, "utf8"), FROM_FORM_SECRET);
  if (encryptionKey !== null) return derive(encryptionKey, FROM_ENCRYPTION_KEY);
  return randomBytes(32);
}

function derive(key: Uint8Array, label: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", key, new Uint8Array(0), label, 32));
}
