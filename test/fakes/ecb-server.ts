/**
 * An in-process fake of the ECB's euro foreign-exchange reference-rate files, in the published formats:
 * - `GET /eurofxref-daily.xml`: the gesmes envelope with the last business day's `<Cube time='…'>` (single quotes, as
 *   the ECB writes it);
 * - `GET /eurofxref-hist.zip`: a zip (deflate) holding `eurofxref-hist.csv` — header `Date,USD,JPY,…,` with a trailing
 *   comma, newest date first, `N/A` where a currency was not quoted, each row ending in a comma.
 * The test sets the fixings (`days`: date → currency → rate text); days absent are weekends and holidays. Requests
 * are recorded; unknown paths answer 404.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync } from 'node:zlib';

export type Fixings = Map<string, Record<string, string>>;

export function dailyXml(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates).map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;
}

export function histCsv(days: Fixings): string {
  const currencies = [...new Set([...days.values()].flatMap((r) => Object.keys(r)))];
  const dates = [...days.keys()].sort().reverse();
  const rows = dates.map((d) => `${d},${currencies.map((c) => days.get(d)![c] ?? 'N/A').join(',')},`);
  return [`Date,${currencies.join(',')},`, ...rows].join('\n') + '\n';
}

/** A one-entry zip archive (local header, deflated data, central directory, end record). */
export function zipOne(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const nameBuf = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBuf.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBuf.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBuf, data, central, nameBuf, end]);
}

export async function startEcbServer(days: Fixings) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/eurofxref-daily.xml') {
      const last = [...days.keys()].sort().at(-1)!;
      res.writeHead(200, { 'content-type': 'text/xml' }).end(dailyXml(last, days.get(last)!));
    } else if (req.url === '/eurofxref-hist.zip') {
      res.writeHead(200, { 'content-type': 'application/zip' }).end(zipOne('eurofxref-hist.csv', Buffer.from(histCsv(days))));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
