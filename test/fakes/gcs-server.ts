/**
 * An in-process fake of the Cloud Storage XML API for V4 signed URLs: it recomputes the canonical request of each
 * call and verifies the RSA-SHA256 signature with the service account's public key, checks X-Goog-Date + Expires,
 * and keeps objects in memory. Errors are the XML bodies Cloud Storage sends.
 *
 * Unlike the other vendor fakes it is held to no machine-readable document: the XML API has none, and the adapter
 * stays on it because signed URLs (the browser's upload) exist only there (docs/decisions-tickets.md, Attachments).
 * What it checks is Google's prose description of V4 signing, by verifying each signature.
 */
import { createHash, createVerify, type KeyObject } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface FakeGcs {
  url: string;
  objects: Map<string, Buffer>;
  refused: string[];
  close(): Promise<void>;
}

export async function startFakeGcs(opts: { bucket: string; clientEmail: string; publicKey: KeyObject }): Promise<FakeGcs> {
  const objects = new Map<string, Buffer>();
  const refused: string[] = [];
  const xmlError = (res: ServerResponse, status: number, code: string, message: string) => {
    refused.push(code);
    res.writeHead(status, { 'content-type': 'application/xml; charset=UTF-8' });
    res.end(`<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const q = url.searchParams;
      const signature = q.get('X-Goog-Signature') ?? '';
      const [, bucket, ...rest] = url.pathname.split('/');
      const name = decodeURIComponent(rest.join('/'));
      if (bucket !== opts.bucket) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist.');
      if (q.get('X-Goog-Algorithm') !== 'GOOG4-RSA-SHA256' || q.get('X-Goog-SignedHeaders') !== 'host') {
        return xmlError(res, 400, 'AuthenticationRequired', 'Authentication required.');
      }
      const credential = q.get('X-Goog-Credential') ?? '';
      const datetime = q.get('X-Goog-Date') ?? '';
      const scope = credential.slice(credential.indexOf('/') + 1);
      if (!credential.startsWith(`${opts.clientEmail}/`) || !scope.endsWith('/auto/storage/goog4_request')) {
        return xmlError(res, 400, 'AuthorizationQueryParametersError', 'Invalid credential.');
      }
      const canonicalQuery = [...q.keys()]
        .filter((k) => k !== 'X-Goog-Signature')
        .sort()
        .map((k) => `${rfc3986(k)}=${rfc3986(q.get(k)!)}`)
        .join('&');
      const canonicalRequest = [req.method, url.pathname, canonicalQuery, `host:${req.headers.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
      const stringToSign = ['GOOG4-RSA-SHA256', datetime, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
      const valid = /^[0-9a-f]+$/.test(signature) && createVerify('RSA-SHA256').update(stringToSign).verify(opts.publicKey, signature, 'hex');
      if (!valid) return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(datetime);
      const start = m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : NaN;
      if (!(Date.now() <= start + Number(q.get('X-Goog-Expires')) * 1000)) return xmlError(res, 400, 'ExpiredToken', 'Invalid argument.');
      if (req.method === 'PUT') {
        objects.set(name, Buffer.concat(chunks));
        res.writeHead(200, { etag: `"${createHash('md5').update(objects.get(name)!).digest('hex')}"` }).end();
      } else if (req.method === 'GET') {
        const o = objects.get(name);
        if (!o) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': o.length }).end(o);
      } else if (req.method === 'DELETE') {
        if (!objects.delete(name)) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(204).end();
      } else xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    refused,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
