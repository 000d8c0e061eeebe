/**
 * FX_RATES=ecb: the European Central Bank's euro foreign-exchange reference rates, from its published files
 * (units of currency per 1 EUR, one fixing per TARGET business day around 16:00 CET):
 * - `eurofxref-daily.xml` — the last fixing, `<Cube time='YYYY-MM-DD'><Cube currency='USD' rate='1.0842'/>…`;
 * - `eurofxref-hist.zip` — every fixing since 1999 as `eurofxref-hist.csv` (the rates-CSV layout, fx-csv.ts).
 * The nightly job asks for the days since its last stored fixing: a few days → the daily file, more → the history.
 */
import { inflateRawSync } from 'node:zlib';
import { parseRatesCsv } from '../../billing/fx-csv.ts';
import { normaliseDecimal } from '../../decimal.ts';
import type { FxRate, FxRatesSource } from '../../ports/fx-rates.ts';
import { addDays, billingToday } from '../../time.ts';

export const ECB_DEFAULT_URL = 'https://www.ecb.europa.eu/stats/eurofxref';
/** Asked for fewer days than this, the daily file suffices. */
const DAILY_FILE_DAYS = 3;

/** The fixings of a reference-rate XML file (daily or 90-day: one `<Cube time>` per fixing date). */
export function parseEcbXml(xml: string): FxRate[] {
  const out: FxRate[] = [];
  const dayRe = /<Cube\s+time=['"](\d{4}-\d{2}-\d{2})['"]\s*>([\s\S]*?)<\/Cube>/g;
  const rateRe = /<Cube\s+currency=['"]([A-Z]{3})['"]\s+rate=['"]([^'"]+)['"]\s*\/>/g;
  for (const day of xml.matchAll(dayRe)) {
    for (const r of day[2].matchAll(rateRe)) {
      const rate = normaliseDecimal(r[2]);
      if (rate === null || !/[1-9]/.test(rate) || rate.startsWith('-')) throw new Error(`ECB file: ${r[1]} rate '${r[2]}' on ${day[1]} is not a positive number`);
      out.push({ currency: r[1], rate_date: day[1], rate });
    }
  }
  if (out.length === 0) throw new Error('ECB file: no <Cube time=…> with rates (format changed?)');
  return out;
}

/** The one file of a zip archive named `name` (stored or deflated), read through the central directory. */
export function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('zip: bad central directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const offset = zip.readUInt32LE(p + 42);
    if (zip.subarray(p + 46, p + 46 + nameLen).toString() === name) {
      const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip: compression method ${method} not supported`);
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  throw new Error(`zip: no ${name}`);
}

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`ECB ${url}: HTTP ${res.status}`);
  return res;
}

export function ecbRatesSource(baseUrl = ECB_DEFAULT_URL, today: () => string = billingToday): FxRatesSource {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    source: 'ecb',
    async rates(since) {
      if (since >= addDays(today(), -DAILY_FILE_DAYS)) {
        return parseEcbXml(await (await fetchOk(`${base}/eurofxref-daily.xml`)).text()).filter((r) => r.rate_date >= since);
      }
      const zip = Buffer.from(await (await fetchOk(`${base}/eurofxref-hist.zip`)).arrayBuffer());
      const parsed = parseRatesCsv(unzipEntry(zip, 'eurofxref-hist.csv').toString('utf8'));
      if (parsed.errors.length > 0) throw new Error(`ECB history: line ${parsed.errors[0].line}: ${parsed.errors[0].reason}`);
      return parsed.rates.filter((r) => r.rate_date >= since);
    },
  };
}
