import {
  createUuidV7Generator,
  generateApiKey,
  hashApiKey,
  type Project,
  type ProviderSettings,
  type Storage,
  type StorageError,
} from "@kopek/core";
import { okAsync, type Result, type ResultAsync } from "neverthrow";

const ids = createUuidV7Generator();

export interface ProjectWithKey {
  readonly project: Project;
  /** The only time the key exists in clear: storage keeps its SHA-256. */
  readonly apiKey: string;
}

/** Creates a project and issues it one API key (the demo project; tests). */
export async function createProjectWithKey(
  storage: Storage,
  settings: { readonly name: string; readonly provider: ProviderSettings },
  now: Date = new Date(),
): Promise<Result<ProjectWithKey, StorageError>> {
  const project: Project = {
    id: ids.newId(),
    name: settings.name,
    provider: settings.provider,
    createdAt: now,
  };
  const apiKey = generateApiKey();
  return storage
    .saveProject(project)
    .andThen(() => saveKeyHashes(storage, project.id, [hashApiKey(apiKey)], now))
    .map(() => ({ project, apiKey }));
}

/** Records API keys by hash; a hash already stored is left as it is (and keeps its revocation). */
export function saveKeyHashes(
  storage: Storage,
  projectId: string,
  hashes: readonly string[],
  now: Date,
): ResultAsync<void, StorageError> {
  return hashes.reduce<ResultAsync<void, StorageError>>(
    (saved, sha256) =>
      saved.andThen(() =>
        storage
          .addApiKey({ id: ids.newId(), projectId, sha256, createdAt: now, revokedAt: null })
          // False only for a deleted project, which the projects file refuses before its keys.
          .map(() => undefined),
      ),
    okAsync(undefined),
  );
}
