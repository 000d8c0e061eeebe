/**
 * Wire schemas of the Playbook routes (spec 001 §2.11): the documents of a customer's playbook folder
 * (`GET /v1/gdrive/customers/{customer}/folders/playbooks/`) and one document for the preview (`…/playbooks/{id}`).
 */
import { Type, type Static } from '@sinclair/typebox';

export const CustomerParams = Type.Object({ customer: Type.String({ minLength: 1 }) });

export const PlaybookDocument = Type.Object({ id: Type.String(), name: Type.String(), url: Type.String() });
export type PlaybookDocument = Static<typeof PlaybookDocument>;
export const PlaybookList = Type.Array(PlaybookDocument);
export const PlaybookDocParams = Type.Object({ customer: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1, maxLength: 200 }) });
