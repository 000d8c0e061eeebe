/**
 * One command of the billing-ingest queue and the checks every ingest passes before anything is read. The api
 * route runs the checks before it enqueues (and answers 400/404), the job and the `cc ingest` CLI run them again
 * before reading (the customer may have changed since, and the CLI has no api in front of it): one set of rules.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Type, type Static } from '@sinclair/typebox';
import { IngestRequest } from '../schemas/billing.ts';
import type { Queryable } from '../db/pool.ts';
import { findCustomerBilling } from '../db/billing-ingest/batches.ts';
import { addDays, addMonths, billingToday, isIsoDate } from '../time.ts';

/**
 * Loads one billing account's spend from a source, replacing the (account, day) slices it covers. The queue
 * carries the admin route's request itself (one shape): only `file` changes meaning, from a path inside the drop
 * directory to the absolute path the worker reads.
 */
export const BillingIngestCommand = Type.Composite([
  IngestRequest,
  Type.Object({
    /** SHA-256 of the file, set by api versions that hashed in the request (jobs queued by them still carry it). */
    file_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    /**
     * The file's version when the api queued it (inode, size, modification time; ingest-file.ts): part of the job id,
     * so a file fixed and dropped again under its name is a new job, while the same file posted twice stays one.
     * Taken from the metadata so the request never reads the file; the worker hashes what it reads itself.
     */
    file_version: Type.Optional(Type.String({ pattern: '^[0-9]+-[0-9]+-[0-9]+$' })),
  }),
]);
export type BillingIngestCommand = Static<typeof BillingIngestCommand>;

/** SHA-256 of a file (hex), streamed: recorded on the batch and part of a file job's id. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** `months` calendar months ending yesterday: from the 1st of the month `months - 1` before yesterday's month. */
export function defaultWindow(today: string, months = 13): { from: string; to: string } {
  const to = addDays(today, -1);
  return { from: addMonths(`${to.slice(0, 8)}01`, -(months - 1)), to };
}

/** What is wrong with a command; the api turns each into its answer, the worker and CLI show the message. */
export type IngestProblem =
  | 'customer-unknown'
  | 'account-foreign'
  | 'file-missing'
  | 'file-not-found'
  | 'file-outside'
  | 'file-not-regular'
  | 'file-not-text'
  | 'file-unexpected'
  | 'window'
  | 'source';

/** The command cannot be carried out as given; retrying will not help. */
export class BadIngestCommand extends Error {
  override name = 'BadIngestCommand';
  constructor(
    readonly problem: IngestProblem,
    message: string,
  ) {
    super(message);
  }
}

/** A command that passed the checks, with what they looked up. */
export interface CheckedIngest {
  cmd: BillingIngestCommand;
  /** The customer's billing currency (the generator prices in it). */
  currency: string;
  /** focus-file: the file, known to exist. */
  file: string | null;
  /** Other sources: the days to load, defaults filled in. */
  window: { from: string; to: string } | null;
}

/**
 * The customer exists and owns the billing account (tenant guard for ingest: lines of an account land only under
 * the customer that lists it); a focus-file command names an existing file and nothing else does; the window of
 * the other sources is a real, non-empty range of days.
 */
export async function checkIngestCommand(db: Queryable, cmd: BillingIngestCommand, today = billingToday()): Promise<CheckedIngest> {
  const customer = await findCustomerBilling(db, cmd.customer_id);
  if (!customer) throw new BadIngestCommand('customer-unknown', `customer ${cmd.customer_id} not found`);
  if (!customer.billing_account_ids.includes(cmd.billing_account_id)) {
    throw new BadIngestCommand('account-foreign', `billing account ${cmd.billing_account_id} is not an account of customer ${cmd.customer_id}`);
  }
  const checked = { cmd, currency: customer.billing_currency };
  if (cmd.source === 'focus-file') {
    if (!cmd.file) throw new BadIngestCommand('file-missing', 'file: This field is required for source focus-file');
    try {
      await access(cmd.file);
    } catch {
      throw new BadIngestCommand('file-not-found', `file not found: ${cmd.file}`);
    }
    return { ...checked, file: cmd.file, window: null };
  }
  if (cmd.file) throw new BadIngestCommand('file-unexpected', 'file is only used with source focus-file');
  const dflt = defaultWindow(today);
  const window = { from: cmd.from ?? dflt.from, to: cmd.to ?? dflt.to };
  if (!isIsoDate(window.from) || !isIsoDate(window.to)) throw new BadIngestCommand('window', `invalid window ${window.from}..${window.to}`);
  if (window.from > window.to) throw new BadIngestCommand('window', `invalid window ${window.from}..${window.to}: from must not be after to`);
  return { ...checked, file: null, window };
}
