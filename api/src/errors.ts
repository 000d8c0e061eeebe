import createError from '@fastify/error';

/** Every error the api throws on purpose; the handler turns each into `{ detail }` with its status. */
export const errors = {
  /** No or unreadable bearer token / cookie. */
  unauthenticated: createError('CC_ERR_UNAUTHENTICATED', 'Authentication required', 401),
  /** Token verified but expired, revoked or for a user that no longer exists. */
  invalidToken: createError('CC_ERR_INVALID_TOKEN', '%s', 401),
  /** E-mail / password mismatch, or unknown user: one message so accounts cannot be probed. */
  invalidLogin: createError('CC_ERR_INVALID_LOGIN', 'Invalid username or password', 401),
  /** Right password, unverified e-mail. */
  unverifiedEmail: createError('CC_ERR_UNVERIFIED_EMAIL', 'Please check your email to activate this account', 403),
  /** The route's permission is not among the caller's. */
  forbidden: createError('CC_ERR_FORBIDDEN', '%s', 403),
  /** A customer the caller may not act for, or that does not exist: the same answer for both. */
  customerNotFound: createError('CC_ERR_CUSTOMER_NOT_FOUND', 'Customer not found', 404),
  userNotFound: createError('CC_ERR_USER_NOT_FOUND', 'User not found', 404),
  badRequest: createError('CC_ERR_BAD_REQUEST', '%s', 400),
  notFound: createError('CC_ERR_NOT_FOUND', '%s', 404),
  /** The request contradicts the resource's state (an order already decided, a license already there). */
  conflict: createError('CC_ERR_CONFLICT', '%s', 409),
  /** An external provider (Google Workspace) refused or failed; the detail carries its message. */
  providerFailed: createError('CC_ERR_PROVIDER_FAILED', '%s', 502),
};
