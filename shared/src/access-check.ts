/**
 * A caller's access confirmed inside another Redis round trip: the keys of the access epoch and of the
 * session-ended marker, read with whatever that round trip fetches (the api's cached chart lookup), and what to do
 * with their values. The api's access plugin makes one per deferred request; a lookup that takes one reads the two
 * keys and calls `check` before any answer is used or computed. Without Redis there is no confirmation: the lookup's
 * failure is thrown instead of an answer computed uncached.
 */
export interface AccessCheck {
  epochKey: string;
  sessionEndedKey: string;
  /** Throws to refuse: the access changed since the request was admitted. */
  check(state: { epoch: string | null; ended: boolean }): void;
}
