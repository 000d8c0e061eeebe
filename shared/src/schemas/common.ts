import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Bounds of every input (api/src/plugins/app/input-policy.ts applies them to any schema that declares
 * none): integers fit PostgreSQL `integer`, other numbers stay far inside `numeric(24,12)`, and strings
 * have a length limit; JSON bodies nest at most `jsonDepth` levels.
 */
export const INPUT_LIMITS = {
  integer: { min: -2147483648, max: 2147483647 },
  number: { min: -1e11, max: 1e11 },
  urlString: 2048,
  bodyString: 100_000,
  jsonDepth: 64,
} as const;

/** Paging and id parameters: one definition, with ranges, for every list route. */
export const Offset = () => Type.Integer({ minimum: 0, maximum: INPUT_LIMITS.integer.max, default: 0 });
export const Limit = (max: number, def: number) => Type.Integer({ minimum: 1, maximum: max, default: def });
export const Page = () => Type.Integer({ minimum: 0, maximum: INPUT_LIMITS.integer.max, default: 0 });
export const PageSize = (max: number, def: number) => Type.Integer({ minimum: 1, maximum: max, default: def });
/** A row id of a `serial` column. */
export const SerialId = () => Type.Integer({ minimum: 1, maximum: INPUT_LIMITS.integer.max });

export const ErrorBody = Type.Object({ detail: Type.String() }, { $id: 'ErrorBody' });

/** Error responses every guarded route can give; listed so OpenAPI shows them. */
export const guardedErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
};

export const withErrors = <T extends Record<number, TSchema>>(ok: T) => ({ ...guardedErrors, ...ok });

export const CustomerRef = Type.Object({ id: Type.String(), name: Type.String(), entity: Type.Union([Type.String(), Type.Null()]) });
export const LabelFilter = Type.Object({ label_key: Type.String(), label_value: Type.String() });
export const CustomerFilter = Type.Object({ customer: Type.String(), project_label: Type.Array(LabelFilter) });

export const Claims = Type.Object({
  email: Type.String(),
  role: Type.String(),
  perms: Type.Array(Type.String()),
  admin: Type.Boolean(),
  filters: Type.Array(CustomerFilter),
  customers: Type.Array(CustomerRef, { description: 'the first customers by name (at most 25); the rest through GET /v1/auth/me/customers' }),
  customer_count: Type.Integer({ description: 'how many customers the user may act for (every customer, for an admin)' }),
  picture: Type.String(),
});

export const CustomerPage = Type.Object({ items: Type.Array(CustomerRef), total: Type.Integer() });

export const TokenAnswer = Type.Object({
  token: Type.String(),
  expires_in: Type.Integer(),
  claims: Type.Union([Claims, Type.Null()]),
});
