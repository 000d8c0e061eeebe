/** Helpers of the ticket tests: upload through a signed URL, raise a ticket, as the screens do. */
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { bearer } from '../helper.ts';

export async function upload(app: FastifyInstance, token: string, filename: string, bytes: Buffer): Promise<{ name: string; status: number; body: string }> {
  const signed = await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename }, headers: bearer(token) });
  if (signed.statusCode !== 200) throw new Error(`signed_url ${signed.statusCode} ${signed.body}`);
  const { signed_url: url, generated_name: name } = signed.json();
  const put = await app.inject({ method: 'PUT', url, payload: bytes, headers: { 'content-type': 'application/octet-stream' } });
  return { name, status: put.statusCode, body: put.body };
}

export const NEW_TICKET = { summary: 'Database disk almost full', description: 'db-1 is at 97% and growing.', priority: 'P2' };

export async function raise(
  app: FastifyInstance,
  token: string,
  customer: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; status: number; body: Record<string, unknown> }> {
  const id = (extra.id as string | undefined) ?? randomUUID();
  const res = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: bearer(token), payload: { ...NEW_TICKET, customer, id, ...extra } });
  return { id, status: res.statusCode, body: res.json() };
}
