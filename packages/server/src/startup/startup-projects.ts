import type { Result } from "neverthrow";
import { err, ok } from "neverthrow";
import type { Config } from "./config.js";
import { createDemoProject } from "./demo-project.js";
import { needsNotificationUrl } from "./notification-url.js";
import { applyProjectsFile, loadProjectsFile } from "./projects-file.js";
import type { OpenedStorage } from "./storage.js";

export interface StartupProjects {
  /** How many projects the projects file created or updated. */
  readonly fromFile: number;
  /** The demo project's key, when one was made (memory storage, no projects file). */
  readonly demoKey: string | null;
  /** The file's projects whose provider must be given Kopek's notification URL. */
  readonly notified: readonly { readonly projectId: string; readonly providerKind: string }[];
}

/** The projects the server starts with (API.md 8): the projects file's, or a demo project. */
export async function setUpProjects(
  config: Config,
  opened: OpenedStorage,
): Promise<Result<StartupProjects, string>> {
  if (config.projectsFile !== null) {
    const file = await loadProjectsFile(config.projectsFile);
    if (file.isErr()) return err(file.error);
    const applied = await applyProjectsFile(opened.storage, file.value);
    const notified = file.value.projects
      .filter((project) => needsNotificationUrl(project.provider))
      .map((project) => ({ projectId: project.id, providerKind: project.provider.kind }));
    return applied.map((fromFile) => ({ fromFile, demoKey: null, notified }));
  }
  // A database keeps its projects between runs: a demo project there would pile up at every start.
  if (opened.kind !== "memory") return ok({ fromFile: 0, demoKey: null, notified: [] });
  const demo = await createDemoProject(opened.storage);
  return demo.map((created) => ({ fromFile: 0, demoKey: created.apiKey, notified: [] }));
}

/**
 * Printed at start on PostgreSQL without a projects file: a database keeps its projects, so there is
 * no demo project; this is how to make one.
 */
export function cliHint(): string {
  return "No KOPEK_PROJECTS_FILE: create a project and an API key with `kopek projects create --name shop` and `kopek keys create --project <id>` (same DATABASE_URL).\n";
}
