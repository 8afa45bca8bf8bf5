import { readFileSync } from "node:fs";
import { USAGE } from "./usage.js";

// A command's entry in USAGE starts two spaces in; its description continues far to the right.
const CONTINUED = /^ {8,}\S/;

/** The entries of USAGE whose command starts with `name`, each with its description lines. */
function entries(name: string): string[] {
  const lines = USAGE.split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (!(line.startsWith(`  ${name} `) || line === `  ${name}`)) return;
    found.push(line);
    for (let j = i + 1; CONTINUED.test(lines[j] ?? ""); j += 1) found.push(lines[j] ?? "");
  });
  return found;
}

/** A block of USAGE: its heading line and the lines below it indented deeper, up to a blank line. */
function section(heading: string): string {
  const lines = USAGE.split("\n");
  const start = lines.findIndex((line) => line.trimEnd() === heading.trimEnd());
  const depth = heading.length - heading.trimStart().length;
  const body: string[] = [];
  for (let j = start + 1; start >= 0 && (lines[j] ?? "").startsWith(" ".repeat(depth + 2)); j += 1)
    body.push(lines[j] ?? "");
  return start < 0 ? "" : `\n${heading.trimStart()}\n${body.join("\n")}\n`;
}

/**
 * `kopek <command> --help`: that command's usage and description (for a group such as `keys`, each of
 * its commands), with the provider options or the environment where they apply; null for no command.
 */
export function commandHelp(words: readonly string[]): string | null {
  const two = words.slice(0, 2).join(" ");
  // A group (`keys --help`) lists its commands; a word that names none (`keys frobnicate`) is no command.
  const name = entries(two).length > 0 ? two : words.length === 1 ? (words[0] ?? "") : "";
  const found = name === "" ? [] : entries(name);
  if (found.length === 0) return null;
  const extra = ["projects", "projects create", "projects update"].includes(name)
    ? section("  Provider options:") + section("  Seller options (projects create, projects update):")
    : ["serve", "worker"].includes(name)
      ? section("Environment (serve, worker):")
      : "";
  return `Usage: kopek ${name} …\n\n${found.join("\n")}\n${extra}\nkopek --help lists every command.\n`;
}

/** The version of @kopek/server, from its package.json (beside src/ or dist/). */
export function kopekVersion(): string {
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "@kopek/server" && manifest.version !== undefined) return manifest.version;
    } catch {
      // not this one
    }
  }
  return "unknown";
}
