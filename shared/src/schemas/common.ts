import { Type, type TSchema } from '@sinclair/typebox';

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
  customers: Type.Array(CustomerRef),
  picture: Type.String(),
});

export const TokenAnswer = Type.Object({
  token: Type.String(),
  expires_in: Type.Integer(),
  claims: Type.Union([Claims, Type.Null()]),
});
