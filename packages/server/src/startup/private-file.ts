import { stat } from "node:fs/promises";

/**
 * The rule for every secret the server reads from a file (the encryption key file, provider secret key
 * and password files): only the file's owner may read or write it. A secret others can read is as good
 * as leaked, so the server refuses to start on it rather than use it. (POSIX modes only: Windows has
 * none to check.)
 */
export async function isPrivateFile(path: string): Promise<boolean> {
  if (process.platform === "win32") return true;
  return ((await stat(path)).mode & 0o077) === 0;
}

/** What the refusal says after the file's name; `instead` names the way to give the secret otherwise. */
export function openFileProblem(path: string, instead: string): string {
  return `is open to other users; allow only its owner (chmod 600 ${path}) or use ${instead}`;
}
