/**
 * Admin setting of where a billing account's AWS or Azure spend is delivered (billing_export_source):
 *   GET    /v2/billing/export-sources/{customer}            -> ExportSourceList
 *   PUT    /v2/billing/export-sources/{customer}/{account}  body ExportSourceBody -> ExportSourceView
 *   DELETE /v2/billing/export-sources/{customer}/{account}  -> 204
 * The secret (an AWS access key pair `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, or an Azure connection string or SAS URL) is
 * write-only: stored sealed, answered only as `has_secret`. Without one the providers' default credential chains
 * are used (AWS SDK, @azure/identity DefaultAzureCredential); an AWS role to assume goes in `role_arn`.
 */
import { Type, type Static } from '@sinclair/typebox';

const Field = (max = 1024) => Type.String({ maxLength: max });

export const ExportSourceSettings = Type.Object(
  {
    bucket: Type.Optional(Type.String({ maxLength: 63, pattern: '^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
    prefix: Type.Optional(Field()),
    export_name: Type.Optional(Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_.-]*$' })),
    region: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z0-9-]*$' })),
    role_arn: Type.Optional(Type.String({ maxLength: 2048, pattern: '^$|^arn:aws[a-z-]*:iam::\\d{12}:role/.+$' })),
    endpoint: Type.Optional(Type.String({ maxLength: 2048, pattern: '^$|^https?://' })),
    storage_account: Type.Optional(Type.String({ maxLength: 24, pattern: '^[a-z0-9]*$' })),
    container: Type.Optional(Type.String({ maxLength: 63, pattern: '^$|^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?$' })),
    directory: Type.Optional(Field()),
  },
  { additionalProperties: false },
);
export type ExportSourceSettings = Static<typeof ExportSourceSettings>;

export const ExportSourceKind = Type.Union([Type.Literal('aws-data-exports'), Type.Literal('azure-cost-exports')]);

export const ExportSourceBody = Type.Object(
  {
    kind: ExportSourceKind,
    settings: ExportSourceSettings,
    /** Absent: keep the stored secret; null or '': remove it (default credential chain); a string: replace it. */
    secret: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ExportSourceBody = Static<typeof ExportSourceBody>;

export const ExportSourceView = Type.Object({
  billing_account_id: Type.String(),
  kind: ExportSourceKind,
  settings: Type.Record(Type.String(), Type.String()),
  has_secret: Type.Boolean(),
  last_checked_at: Type.Union([Type.String(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_delivery: Type.Union([Type.String(), Type.Null()]),
});
export type ExportSourceView = Static<typeof ExportSourceView>;

export const ExportSourceList = Type.Object({ sources: Type.Array(ExportSourceView) });
export type ExportSourceList = Static<typeof ExportSourceList>;

/** The settings each kind needs (the others are optional). */
export const REQUIRED_SETTINGS: Record<Static<typeof ExportSourceKind>, (keyof ExportSourceSettings)[]> = {
  'aws-data-exports': ['bucket', 'export_name'],
  'azure-cost-exports': ['storage_account', 'container', 'export_name'],
};
/** The settings each kind keeps (others sent are refused). */
export const KIND_SETTINGS: Record<Static<typeof ExportSourceKind>, (keyof ExportSourceSettings)[]> = {
  'aws-data-exports': ['bucket', 'prefix', 'export_name', 'region', 'role_arn', 'endpoint'],
  'azure-cost-exports': ['storage_account', 'container', 'directory', 'export_name', 'endpoint'],
};
