/**
 * Bad administrative input: the api's error handler answers it as 400 `{ detail: message }`, so the rules
 * in shared/src (customers, entities, users, auth, provisioning) can be checked by the api without depending on it.
 */
export class InputError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export const REQUIRED = 'This field is required';

/** '{field}: This field is required' */
export const required = (field: string) => new InputError(`${field}: ${REQUIRED}`);
