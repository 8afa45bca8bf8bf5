/** What a provider answers besides payments: its errors, and a method it saved. Plain data across the port. */

/** A method the provider saved: its token (`ref`, never logged) and mask. */
export interface ProviderSavedMethod {
  readonly ref: string;
  readonly methodMask: string | null;
}

export interface ProviderError {
  /** `declined`: the payer's side refused; `unavailable`: could not reach it; `failed`: it answered wrongly. */
  readonly code: "declined" | "unavailable" | "failed";
  /** For the server log and, for declines, the client. Never contains a method token. */
  readonly message: string;
  /**
   * Set on a `failed` answer to a stored-method call when the ref names no method of this provider: one
   * it cannot read, or one it says it does not hold. The request gave a wrong ref (422), unlike a
   * provider that failed (502).
   */
  readonly unknownRef?: true;
}
