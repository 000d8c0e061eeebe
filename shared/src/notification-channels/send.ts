/**
 * Sends one request to a channel's URL, safely: the URL is customer input and the request leaves from inside the
 * provider's network.
 *  - only https; http only to a loopback host, and only outside production (NODE_ENV !== 'production');
 *  - in production the host is resolved here, every address it resolves to is checked (no private, loopback,
 *    link-local, shared, multicast or reserved range, IPv4-mapped IPv6 included), and the connection goes to the
 *    checked address itself (a second resolution could answer otherwise: DNS rebinding); TLS still verifies the name;
 *  - 5 s for the whole exchange; redirects are not followed (a 3xx is the answer); at most 1 KB of the answer is read.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { InputError } from '../input-error.ts';

export const SEND_TIMEOUT_MS = 5_000;
/** Bytes of a receiver's answer kept (and read). */
export const MAX_ANSWER_BYTES = 1024;

export interface SendPolicy {
  /** NODE_ENV === 'production': no http, no private or local address. */
  production: boolean;
  timeoutMs?: number;
}

/** The URL or the address it resolves to is not allowed: not sent, and not worth retrying. */
export class RefusedDestination extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDestination';
  }
}

export interface SendAnswer {
  status: number;
  /** At most MAX_ANSWER_BYTES of the body, as text. */
  body: string;
  retryAfter: string | null;
  location: string | null;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True for an address no production delivery may reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a channel URL as entered (before it is stored, and again at each send). Throws InputError with a sentence
 * for the screen.
 */
export function checkChannelUrl(raw: string, production: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError('URL is not valid');
  }
  if (url.username || url.password) throw new InputError('URL must not carry a user name or password');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && !production && LOOPBACK_HOSTS.has(url.hostname)) return url;
  throw new InputError(production ? 'URL must start with https://' : 'URL must start with https:// (http:// only to localhost outside production)');
}

/** The address to connect to: resolved once, checked in production, and the only one used. */
async function resolveChecked(url: URL, policy: SendPolicy): Promise<{ address: string; family: number }> {
  const host = bareHost(url.hostname);
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (policy.production) {
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked) throw new RefusedDestination(`${host} resolves to ${blocked.address}, a private, loopback or link-local address`);
  }
  return addresses[0];
}

/** POSTs `body` to `rawUrl` under the rules above. Network errors and the timeout reject; any HTTP answer resolves. */
export async function postJson(rawUrl: string, body: string, headers: Record<string, string>, policy: SendPolicy): Promise<SendAnswer> {
  let url: URL;
  try {
    url = checkChannelUrl(rawUrl, policy.production);
  } catch (err) {
    throw new RefusedDestination((err as Error).message);
  }
  const target = await resolveChecked(url, policy);
  // Connect to the checked address, whatever a new resolution of the name would say now.
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  const options: RequestOptions & { servername?: string } = {
    method: 'POST',
    hostname: bareHost(url.hostname),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    lookup: pinned,
    agent: false,
  };
  if (url.protocol === 'https:' && !isIP(bareHost(url.hostname))) options.servername = bareHost(url.hostname);
  const timeoutMs = policy.timeoutMs ?? SEND_TIMEOUT_MS;
  return new Promise<SendAnswer>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        const h = (name: string) => {
          const v = res.headers[name];
          return (Array.isArray(v) ? v[0] : v) ?? null;
        };
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'), retryAfter: h('retry-after'), location: h('location') });
      };
      res.on('data', (c: Buffer) => {
        if (size >= MAX_ANSWER_BYTES) return;
        chunks.push(c);
        size += c.length;
        // enough: the rest is never read
        if (size >= MAX_ANSWER_BYTES) {
          res.destroy();
          finish();
        }
      });
      res.on('end', finish);
      res.on('error', () => finish());
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
