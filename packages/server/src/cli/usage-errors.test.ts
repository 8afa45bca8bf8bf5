import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { USAGE } from "./usage.js";

// A usage mistake (issue 42 part 5): one line saying what, then the usage of the command it was given
// to — not every command's. No database is opened: the mistake is found first.
async function kopek(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    env: {},
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    openDatabase: () => {
      throw new Error("a usage mistake opens no database");
    },
    readStdin: async () => "",
  });
  return { code, stdout, stderr };
}

describe("kopek usage mistakes", () => {
  it("an unknown option: one line, then that command's own usage", async () => {
    const result = await kopek("keys", "create", "--project", "p", "--bogus");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const [first, ...rest] = result.stderr.split("\n");
    expect(first).toBe("kopek: unknown option --bogus");
    expect(rest.join("\n")).toContain("keys create --project <id>");
    expect(result.stderr).not.toContain("subscriptions cancel");
    expect(result.stderr.length).toBeLessThan(USAGE.length / 4);
  });

  it("an option of another command: that command's usage", async () => {
    const result = await kopek("keys", "revoke", "k1", "--grace", "1h");
    expect(result.stderr.split("\n")[0]).toBe("kopek: --grace is an option of keys rotate only");
    expect(result.stderr).toContain("keys revoke");
    expect(result.stderr).not.toContain("projects create");
  });

  it("a mistake naming no command still shows all of the usage", async () => {
    const result = await kopek("--bogus");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`kopek: unknown option --bogus\n\n${USAGE}`);
  });
});
