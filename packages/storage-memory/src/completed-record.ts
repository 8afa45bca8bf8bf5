import type { StoredResponse } from "@kopek/core";
import { type FlatRow, fieldAt, flatRow, numberAt, splitRow } from "./flat-rows.js";

export interface CompletedFields {
  readonly recordId: string;
  readonly fingerprint: string;
  /** The record's `sentDigest`, or undefined when it was created without one. */
  readonly sentDigest: string | undefined;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly response: StoredResponse;
}

/**
 * A completed idempotency record as a `FlatRow`: expiry, id, fingerprint, sent digest (empty when
 * none), status and headers, then the body.
 */
export type CompletedRecord = FlatRow;

export function encodeCompleted(fields: CompletedFields): CompletedRecord {
  const { recordId, fingerprint, sentDigest = "", expiresAt, response } = fields;
  const { status, headers, body } = response;
  return flatRow([expiresAt, recordId, fingerprint, sentDigest, status, JSON.stringify(headers), body]);
}

/** The record's expiry (epoch milliseconds), read without decoding the rest. */
export function completedExpiresAt(record: CompletedRecord): number {
  return Number(fieldAt(record, 0));
}

/** Whether the record whose UTF-8 bytes are `bytes[start..end)` has expired at `now`, read in place. */
export function expiredInPlace(bytes: Uint8Array, start: number, end: number, now: number): boolean {
  return numberAt(bytes, start, end) <= now;
}

export function decodeCompleted(record: CompletedRecord): CompletedFields {
  const { fields, last: body } = splitRow(record, 6);
  const [expiresAt, recordId, fingerprint, sentDigest, status, headers] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    recordId,
    fingerprint,
    sentDigest: sentDigest === "" ? undefined : sentDigest,
    expiresAt: Number(expiresAt),
    response: { status: Number(status), headers: JSON.parse(headers), body },
  };
}
