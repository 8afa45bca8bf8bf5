/**
 * Background claims, project by project. A claim that locks rows (`FOR … SKIP LOCKED`) runs within
 * one project, which on Citus is one shard (a lock across shards is refused there); which projects
 * have due work is a plain read across every project: the projects of the earliest due rows.
 */
import type { QueryResultRow } from "pg";
import type { SqlContext } from "./sql-context.js";

export interface ProjectClaim<T> {
  /** Names the two prepared statements: `discover_<name>` and `claim_<name>`. */
  readonly name: string;
  /** The discovery read: `$1` now, `$2` limit; rows of `project_id`, earliest due first. */
  readonly discover: string;
  /** The claim in one project: `$1` now, `$2` limit, then `values`, then the project. */
  readonly claim: string;
  readonly values: readonly unknown[];
  readonly now: Date;
  readonly limit: number;
  /** A claimed row as the port returns it. */
  readonly toResult: (row: QueryResultRow) => T;
}

/**
 * Up to `limit` rows: the earliest `limit` due rows, each claimed within its project, a project's
 * rows together. A project claims as many as it had among them, so a project with a large backlog
 * does not take the places of earlier rows of others; where another worker claimed some meanwhile,
 * the project's next due rows take their places (`SKIP LOCKED`), and the next round finds the rest.
 */
export async function claimByProject<T>(sql: SqlContext, claim: ProjectClaim<T>): Promise<T[]> {
  const limit = Math.floor(claim.limit);
  if (!(limit > 0)) return [];
  const due = await sql.acrossProjects<{ project_id: string }>(`discover_${claim.name}`, claim.discover, [
    claim.now,
    limit,
  ]);
  const places = new Map<string, number>();
  for (const { project_id } of due) places.set(project_id, (places.get(project_id) ?? 0) + 1);
  const claimed: T[] = [];
  for (const [projectId, count] of places) {
    const { rows } = await sql.query(`claim_${claim.name}`, claim.claim, [
      claim.now,
      count,
      ...claim.values,
      projectId,
    ]);
    claimed.push(...rows.map(claim.toResult));
  }
  return claimed;
}
