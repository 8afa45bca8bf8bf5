import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

/** The README's ```ts blocks, read top to bottom as one module (later blocks use the first's `kopek`). */
async function readmeModule(): Promise<string> {
  const readme = await readFile(`${PACKAGE}README.md`, "utf8");
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1]).join("\n");
}

it("the README's examples compile against the current API", async () => {
  const source = await readmeModule();
  expect(source).toContain("kopek.invoices.create(");
  // A file that exists only in memory, beside the tests, importing the package by its name.
  const file = `${PACKAGE}test/readme-example.ts`;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${PACKAGE}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (parsed === undefined) throw new Error("tsconfig.json not read");
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], { ...parsed.options, noEmit: true }, host);
  const problems = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  expect(problems).toEqual([]);
}, 60_000);
