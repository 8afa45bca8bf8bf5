/** Where Kopek gets new identifiers: resource ids, idempotency record ids and lease tokens. */
export interface IdGenerator {
  /** A new lower-case UUID, version 7 (time-ordered) in the default implementation. */
  newId(): string;
}
