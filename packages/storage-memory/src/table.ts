import type { ResourcePage } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import { Fifo } from "./fifo.js";
import { ProjectIndex } from "./project-index.js";

/** How a table keeps its rows: what it stores for a resource and what a reader gets back. */
export interface Codec<T, R> {
  /** The row stored for `resource`; `owned`: the caller hands it over and keeps no reference to it. */
  encode(resource: T, owned: boolean): R;
  /** The resource, as a value no later write changes and the caller may change. */
  decode(row: R): T;
  /** What a write is checked against without decoding the row. */
  head(row: R): { readonly projectId: string; readonly version: number };
}

/** Rows kept as the resource objects themselves, copied in and out. */
export const copies = <T extends { projectId: string; version: number }>(): Codec<T, T> => ({
  encode: (resource, owned) => (owned ? resource : deepCopy(resource)),
  decode: deepCopy,
  head: (row) => row,
});

/** Where a table keeps its rows by id: a `Map`, or `OffHeapRows` for rows kept off the heap. */
export interface RowMap<R> {
  readonly size: number;
  get(id: string): R | undefined;
  has(id: string): boolean;
  set(id: string, row: R): unknown;
  delete(id: string): boolean;
  values(): IterableIterator<R>;
}

export interface Table<T, R> {
  readonly codec: Codec<T, R>;
  readonly rows: RowMap<R>;
  readonly byProject: Map<string, ProjectIndex>;
  /** Ids in creation order, for evicting the oldest (a `Fifo`, not the Map's own order: see fifo.ts). */
  readonly order: Fifo<string>;
  /** The project index of each id in `order`, in step with it: eviction needs no row decoded. */
  readonly orderIndexes: Fifo<ProjectIndex>;
}

export const table = <T, R>(codec: Codec<T, R>, rows: RowMap<R> = new Map()): Table<T, R> => ({
  codec,
  rows,
  byProject: new Map(),
  order: new Fifo(),
  orderIndexes: new Fifo(),
});

export type Resource = { readonly id: string; readonly projectId: string; readonly version: number };

/**
 * Indexes a row just stored as new (its project's index, the creation order) and, when the table now
 * holds more than `maxRows`, evicts the oldest row: returns its id, else null.
 */
export function indexNew<T, R>(
  t: Table<T, R>,
  id: string,
  projectId: string,
  maxRows: number,
): string | null {
  let index = t.byProject.get(projectId);
  if (index === undefined) {
    index = new ProjectIndex();
    t.byProject.set(projectId, index);
  }
  index.add(id);
  t.order.push(id);
  t.orderIndexes.push(index);
  return t.rows.size > maxRows ? evictOldest(t) : null;
}

function evictOldest<T, R>(t: Table<T, R>): string | null {
  for (let id = t.order.shift(); id !== undefined; id = t.order.shift()) {
    const index = t.orderIndexes.shift() as ProjectIndex;
    // A row deleted otherwise is skipped; the row itself is never read (off the heap, reading it
    // would decode it).
    if (!t.rows.delete(id)) continue;
    index.forget(id, (live) => t.rows.has(live));
    return id;
  }
  return null;
}

export function find<T extends Resource, R>(t: Table<T, R>, projectId: string, id: string): T | null {
  const row = t.rows.get(id);
  // Another project's resource is answered exactly like a missing one.
  return row !== undefined && t.codec.head(row).projectId === projectId ? t.codec.decode(row) : null;
}

export function list<T, R>(
  t: Table<T, R>,
  projectId: string,
  page: ResourcePage,
  keep: (row: R) => boolean,
): T[] {
  const index = t.byProject.get(projectId);
  if (index === undefined) return [];
  const keepId = (id: string) => {
    const row = t.rows.get(id);
    return row !== undefined && keep(row);
  };
  return index.newest(page.limit, page.before, keepId).map((id) => t.codec.decode(t.rows.get(id) as R));
}
