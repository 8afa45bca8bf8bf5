import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { spawnCli } from "./cli-process.js";

// `kopek serve` with a real provider in the projects file (API.md 10.8): what the operator sees.
const dir = await mkdtemp(join(tmpdir(), "kopek-serve-provider-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
const SECRET = `test_${randomBytes(32).toString("base64url")}`;
const path = join(dir, "projects.json");
await writeFile(
  path,
  JSON.stringify({
    projects: [
      {
        id: ID,
        name: "real shop",
        provider: { kind: "yookassa", shopId: "506751", secretKeyEnv: "SHOP_KEY" },
      },
      { id: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7c", name: "test shop", provider: { kind: "sandbox" } },
    ],
  }),
);

describe("kopek serve with a yookassa project", () => {
  test("logs the project's notification URL once at start, and never the secret key", async () => {
    const cli = spawnCli(["serve"], {
      KOPEK_PROJECTS_FILE: path,
      PORT: "0",
      KOPEK_PUBLIC_URL: "https://pay.example",
      SHOP_KEY: SECRET,
    });
    const [line] = await cli.waitFor(/^.*provider notification URL.*$/m);
    expect(JSON.parse(line)).toMatchObject({
      projectId: ID,
      providerKind: "yookassa",
      notificationUrl: `https://pay.example/provider-events/${ID}/yookassa`,
    });
    await cli.waitFor(/kopek listening/);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    expect(cli.stdout().match(/provider notification URL/g)).toHaveLength(1);
    expect(cli.stdout() + cli.stderr()).not.toContain(SECRET.slice(5));
  }, 30_000);

  test("a SIGTERM while it is still starting is held until it can stop cleanly: exit 0", async () => {
    const cli = spawnCli(["serve"], {
      KOPEK_PROJECTS_FILE: path,
      PORT: "0",
      KOPEK_PUBLIC_URL: "https://pay.example",
      SHOP_KEY: SECRET,
    });
    // Logged before the server listens: Node's default for SIGTERM would kill it with no exit code.
    await cli.waitFor(/projects file applied/);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/"msg":"stopped"/);
  }, 30_000);

  test("an unset secretKeyEnv: one line naming the field and the variable, exit 1", async () => {
    const cli = spawnCli(["serve"], { KOPEK_PROJECTS_FILE: path, PORT: "0" });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      `kopek: KOPEK_PROJECTS_FILE ${path}: projects[0].provider.secretKeyEnv SHOP_KEY: that environment variable is not set\n`,
    );
  }, 30_000);
});
