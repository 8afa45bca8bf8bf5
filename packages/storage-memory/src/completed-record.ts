import type { StoredResponse } from "@kopek/core";
import { type FlatRow, fieldAt, flatRow, splitRow } from "./flat-rows.js";

export interface CompletedFields {
  readonly recordId: string;
  readonly fingerprint: string;
  readonly bytesFingerprint: string | null;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly response: StoredResponse;
}

/** A completed idempotency record as a `FlatRow`: expiry, id, fingerprints, status and headers, then the body. */
export type CompletedRecord = FlatRow;

export function encodeCompleted(fields: CompletedFields): CompletedRecord {
  const { recordId, fingerprint, bytesFingerprint, expiresAt, response } = fields;
  const { status, headers, body } = response;
  return flatRow([
    expiresAt,
    recordId,
    fingerprint,
    bytesFingerprint ?? "",
    status,
    JSON.stringify(headers),
    body,
  ]);
}

/** The record's expiry (epoch milliseconds), read without decoding the rest. */
export function completedExpiresAt(record: CompletedRecord): number {
  return Number(fieldAt(record, 0));
}

export function decodeCompleted(record: CompletedRecord): CompletedFields {
  const { fields, last: body } = splitRow(record, 6);
  const [expiresAt, recordId, fingerprint, bytesFingerprint, status, headers] = fields as [
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
    bytesFingerprint: bytesFingerprint === "" ? null : bytesFingerprint,
    expiresAt: Number(expiresAt),
    response: { status: Number(status), headers: JSON.parse(headers), body },
  };
}
