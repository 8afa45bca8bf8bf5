import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  displayNameProblem,
  isWebhookSecret,
  type Project,
  type ProviderSettings,
  SELLER_FIELDS,
  type SellerDetails,
  type Storage,
  sellerFieldProblem,
} from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { webhookUrlPolicy, webhookUrlProblem } from "../webhooks/webhook-url-policy.js";
import { saveKeyHashes } from "./project-setup.js";
import { saveWebhookEndpoints } from "./projects-file-webhooks.js";
import { httpUrl, providerEntrySchema, resolveProvider } from "./provider-entry.js";

/** One seller field: a string that `sellerFieldProblem` takes, the CLI's rule too. */
const sellerField = (field: keyof SellerDetails) =>
  z
    .string("must be a string")
    .superRefine((text, context) => {
      const problem = sellerFieldProblem(field, text);
      if (problem !== null) context.addIssue({ code: "custom", message: problem });
    })
    .optional();

const sellerSchema = z.strictObject(
  Object.fromEntries(SELLER_FIELDS.map((field) => [field, sellerField(field)])) as Record<
    (typeof SELLER_FIELDS)[number],
    ReturnType<typeof sellerField>
  >,
);

const projectSchema = z.strictObject({
  id: z.uuid("must be a UUID"),
  name: z.string("must be a string").min(1, "must not be empty").max(200, "must be at most 200 characters"),
  /** The merchant's name on the payment page; without it payers see `name`. */
  displayName: z
    .string("must be a string")
    .superRefine((text, context) => {
      const problem = displayNameProblem(text);
      if (problem !== null) context.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  /** The seller's details payers see on the pages (issue 42 part 3): each optional, shown when set. */
  seller: sellerSchema.optional(),
  provider: providerEntrySchema,
  apiKeys: z
    .array(
      z.strictObject({
        sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters (kopek keys generate prints it)"),
      }),
    )
    .default([]),
  webhooks: z
    .array(
      z.strictObject({
        url: httpUrl.superRefine((url, context) => {
          const problem = webhookUrlProblem(url, webhookUrlPolicy());
          if (problem !== null) context.addIssue({ code: "custom", message: problem });
        }),
        secret: z
          .string("must be a string")
          .refine(isWebhookSecret, "must be whsec_ followed by base64 of at least 16 bytes"),
      }),
    )
    .default([]),
});

const fileSchema = z
  .strictObject({ projects: z.array(projectSchema, "must be an array of projects") })
  .superRefine(({ projects }, context) => {
    const ids = new Set<string>();
    const hashes = new Set<string>();
    projects.forEach((project, p) => {
      if (ids.has(project.id))
        context.addIssue({
          code: "custom",
          path: ["projects", p, "id"],
          message: "repeats another project's id",
        });
      ids.add(project.id);
      project.apiKeys.forEach(({ sha256 }, k) => {
        const path = ["projects", p, "apiKeys", k, "sha256"];
        if (hashes.has(sha256))
          context.addIssue({
            code: "custom",
            path,
            message: "is listed twice (a key belongs to one project)",
          });
        hashes.add(sha256);
      });
      // Endpoints are matched by URL at start: two with one URL could not be told apart.
      const urls = new Set<string>();
      project.webhooks.forEach(({ url }, w) => {
        if (urls.has(url))
          context.addIssue({
            code: "custom",
            path: ["projects", p, "webhooks", w, "url"],
            message: "repeats another webhook's url in this project",
          });
        urls.add(url);
      });
    });
  });

export type ProjectsFile = z.infer<typeof fileSchema>;

/** A projects file with each provider's secret read: what `applyProjectsFile` saves. */
export interface LoadedProjectsFile {
  readonly projects: readonly (Omit<ProjectsFile["projects"][number], "provider"> & {
    readonly provider: ProviderSettings;
  })[];
}

/** `projects[0].apiKeys[1].sha256`: where in the file a problem is, as a reader would look for it. */
function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) =>
      typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part),
    "",
  );
}

/** Parses and checks a projects file's text (API.md 8); the error names the JSON path and the rule. */
export function parseProjectsFile(text: string): Result<ProjectsFile, string> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // V8 quotes the text around the mistake, which may be a secret someone pasted: not repeated.
    const message = (cause as Error).message.replace(/, ".*" is not valid JSON$/s, "");
    return err(`is not valid JSON (${message})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    return err(`${jsonPath([...issue.path, issue.keys[0] ?? ""])} is not a known field (a typo?)`);
  }
  const where = jsonPath(issue?.path ?? []) || "the top level";
  return err(`${where} ${issue?.message ?? "is invalid"}`);
}

/**
 * Reads each provider's secret where the file says it is kept: a `secretKeyFile` relative to
 * `baseDir` (the projects file's directory), or a `secretKeyEnv` variable of `env`.
 */
export async function resolveProjectsFile(
  file: ProjectsFile,
  sources: { readonly baseDir: string; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<Result<LoadedProjectsFile, string>> {
  const projects: LoadedProjectsFile["projects"][number][] = [];
  for (const [p, entry] of file.projects.entries()) {
    const provider = await resolveProvider(entry.provider, {
      ...sources,
      fieldName: (field) => `projects[${p}].provider${field === "provider" ? "" : `.${field}`}`,
    });
    if (provider.isErr()) return err(provider.error);
    projects.push({ ...entry, provider: provider.value });
  }
  return ok({ projects });
}

/**
 * Reads and checks the projects file and the provider secrets it names; the error says which file
 * and what is wrong, never a secret.
 */
export async function loadProjectsFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Result<LoadedProjectsFile, string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    return err(
      `KOPEK_PROJECTS_FILE ${path} cannot be read (${(cause as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  const parsed = parseProjectsFile(text);
  const loaded = parsed.isErr()
    ? err(parsed.error)
    : await resolveProjectsFile(parsed.value, { baseDir: dirname(path), env });
  return loaded.mapErr((problem) => `KOPEK_PROJECTS_FILE ${path}: ${problem}`);
}

/**
 * Creates or updates each project by id, records its key hashes and its webhook endpoints (by URL);
 * returns how many projects. A project marked deleted (`kopek projects delete --force`) gets its
 * settings and no more: the file is refused, since it would give the project keys and webhooks again.
 */
export async function applyProjectsFile(
  storage: Storage,
  file: LoadedProjectsFile,
  now: Date = new Date(),
): Promise<Result<number, string>> {
  for (const entry of file.projects) {
    // createdAt only counts for a new project: saving an existing id updates the rest, and a
    // displayName or seller removed from the file is removed from the project.
    const seller = sellerOf(entry.seller);
    const project: Project = {
      id: entry.id,
      name: entry.name,
      ...(entry.displayName === undefined ? {} : { displayName: entry.displayName }),
      ...(seller === null ? {} : { seller }),
      provider: entry.provider,
      createdAt: now,
    };
    const hashes = entry.apiKeys.map((key) => key.sha256);
    // Read back after the save, so with the key it was just encrypted with (the file may come with a new one).
    const stored = await storage.saveProject(project).andThen(() => storage.findProject(project.id));
    if (stored.isErr()) return err(`cannot save project ${entry.id}: ${stored.error.message}`);
    const deletedAt = stored.value?.deletedAt;
    if (deletedAt !== undefined)
      return err(
        `project ${entry.id} was deleted at ${deletedAt.toISOString()} (kopek projects delete): remove it from the file`,
      );
    const saved = await saveKeyHashes(storage, project.id, hashes, now).andThen(() =>
      saveWebhookEndpoints(storage, project.id, entry.webhooks, now),
    );
    if (saved.isErr()) return err(`cannot save project ${entry.id}: ${saved.error.message}`);
  }
  return ok(file.projects.length);
}

/** The seller's fields that are set, or null for none. */
function sellerOf(
  entry: Partial<Record<keyof SellerDetails, string | undefined>> | undefined,
): SellerDetails | null {
  const set = Object.entries(entry ?? {}).filter(([, value]) => value !== undefined);
  return set.length === 0 ? null : (Object.fromEntries(set) as SellerDetails);
}
