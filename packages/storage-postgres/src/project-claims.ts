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
 * Up to `limit` rows claimed in the projects of the earliest `limit` due rows, in that order. A
 * project whose rows were claimed meanwhile by another worker claims fewer or none: the next round
 * finds the rest.
 */
export async function claimByProject<T>(sql: SqlContext, claim: ProjectClaim<T>): Promise<T[]> {
  const limit = Math.floor(claim.limit);
  if (!(limit > 0)) return [];
  const due = await sql.acrossProjects<{ project_id: string }>(`discover_${claim.name}`, claim.discover, [
    claim.now,
    limit,
  ]);
  const claimed: T[] = [];
  for (const projectId of new Set(due.map((row) => row.project_id))) {
    const rest = limit - claimed.length;
    if (rest <= 0) break;
    const { rows } = await sql.query(`claim_${claim.name}`, claim.claim, [
      claim.now,
      rest,
      ...claim.values,
      projectId,
    ]);
    claimed.push(...rows.map(claim.toResult));
  }
  return claimed;
}
