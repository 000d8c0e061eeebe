/**
 * A CSV record reader for files as providers write them (comma-separated, fields quoted or not, LF or CR LF line
 * ends), several times cheaper than csv-parse: it splits the bytes itself and makes strings only of the columns the
 * caller reads (a FOCUS file has 44 columns, the ingest reads 14). It reads such files exactly as csv-parse does with
 * the ingest's options (same records, same line numbers, empty lines skipped, a UTF-8 byte order mark dropped), and
 * stops with `Unhandled` at the first thing it leaves to csv-parse: a quote inside an unquoted field or after a closing
 * one, a quote never closed, a CR inside quotes or not before LF, line ends that change kind, a record past the size
 * limits, UTF-16. The caller then reads the file again through csv-parse from that record on, so every message about
 * a malformed file, and every line number, stays csv-parse's.
 */

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Something the fast reader leaves to csv-parse, met in the record after the `records` it handed out. */
export class Unhandled extends Error {
  constructor(readonly records: number) {
    super('left to csv-parse');
    this.name = 'Unhandled';
  }
}

/** One record: its fields' count, the wanted fields' values (at their column index; the others undefined), its line. */
export interface FastRecord {
  values: (string | undefined)[];
  fields: number;
  /** The file line where the record ends (the header's is 1 in a file without leading empty lines). */
  line: number;
  /** Bytes of the stream read up to the record's end. */
  bytes: number;
}

// What the record parser tells when the bytes end inside a record that more bytes may complete.
const INCOMPLETE = -1;

/**
 * Reads records from `bytes`; `wanted(header)` names the columns to make strings of after the header, which is read
 * whole. Records come in batches, one per chunk of bytes. `limits`: the most bytes in a record and fields in it.
 */
export async function* fastCsvRecords(
  bytes: AsyncIterable<Buffer>,
  wanted: (header: string[]) => readonly number[],
  limits: { maxRecordBytes: number; maxFields: number },
): AsyncGenerator<FastRecord[]> {
  let want: boolean[] | null = null;
  let values: (string | undefined)[] = [];
  let line = 1;
  let records = 0;
  let consumed = 0;
  let crlf: boolean | null = null;
  let started = false;
  let pending: Buffer | null = null;
  let fields = 0;
  let lfs = 0;

  const unhandled = () => new Unhandled(records);

  // Per column, the bytes and string of its last value: a column that repeats from row to row (provider, currency,
  // period, category, often the account and service) is not decoded again, and its rows share one string.
  let lastBuf: Buffer[] = [];
  let lastStart: number[] = [];
  let lastEnd: number[] = [];
  let lastText: string[] = [];
  const text = (column: number, buf: Buffer, s: number, e: number): string => {
    const pb = lastBuf[column];
    if (pb !== undefined) {
      const ps = lastStart[column];
      if (lastEnd[column] - ps === e - s) {
        let i = 0;
        while (i < e - s && pb[ps + i] === buf[s + i]) i++;
        if (i === e - s) {
          if (pb !== buf) {
            lastBuf[column] = buf;
            lastStart[column] = s;
            lastEnd[column] = e;
          }
          return lastText[column];
        }
      }
    }
    const v = buf.toString('utf8', s, e);
    lastBuf[column] = buf;
    lastStart[column] = s;
    lastEnd[column] = e;
    lastText[column] = v;
    return v;
  };

  /** Parses one record at `start`; returns the position after it, or INCOMPLETE. Sets `fields`, `lfs`, `values`. */
  const parseRecord = (buf: Buffer, start: number, eof: boolean): number => {
    const end = buf.length;
    let p = start;
    fields = 0;
    lfs = 0;
    for (;;) {
      let s: number;
      let e: number;
      let escaped = false;
      if (p < end && buf[p] === QUOTE) {
        let q = p + 1;
        for (;;) {
          while (q < end) {
            const b = buf[q];
            if (b === QUOTE) break;
            if (b === LF) lfs++;
            else if (b === CR) throw unhandled();
            q++;
          }
          if (q >= end) {
            if (eof) throw unhandled();
            return INCOMPLETE;
          }
          if (q + 1 >= end && !eof) return INCOMPLETE;
          if (buf[q + 1] === QUOTE) {
            escaped = true;
            q += 2;
            continue;
          }
          break;
        }
        s = p + 1;
        e = q;
        p = q + 1;
      } else {
        let q = p;
        while (q < end) {
          const b = buf[q];
          if (b === COMMA || b === LF || b === CR) break;
          if (b === QUOTE) throw unhandled();
          q++;
        }
        if (q >= end && !eof) return INCOMPLETE;
        s = p;
        e = q;
        p = q;
      }
      if (want === null) values[fields] = buf.toString('utf8', s, e);
      else if (want[fields]) values[fields] = escaped ? buf.toString('utf8', s, e).replaceAll('""', '"') : text(fields, buf, s, e);
      if (++fields > limits.maxFields || p - start > limits.maxRecordBytes) throw unhandled();
      if (p >= end) return p;
      const b = buf[p];
      if (b === COMMA) {
        p++;
        continue;
      }
      if (b === LF) {
        if (crlf === true) throw unhandled();
        crlf = false;
        return p + 1;
      }
      if (b === CR) {
        if (p + 1 >= end) {
          if (eof) throw unhandled();
          return INCOMPLETE;
        }
        if (buf[p + 1] !== LF || crlf === false) throw unhandled();
        crlf = true;
        return p + 2;
      }
      throw unhandled();
    }
  };

  /** The records complete in `buf`; what is left over waits for the next chunk. */
  const parse = (buf: Buffer, eof: boolean): FastRecord[] => {
    const out: FastRecord[] = [];
    let p = 0;
    if (!started) {
      if (buf.length < 3 && !eof) {
        pending = buf;
        return out;
      }
      started = true;
      if (buf[0] === 0xff && buf[1] === 0xfe) throw unhandled();
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) p = 3;
    }
    while (p < buf.length) {
      // empty lines are skipped (csv-parse's skip_empty_lines), and counted
      const b = buf[p];
      if (b === LF && crlf !== true) {
        crlf = false;
        line++;
        p++;
        continue;
      }
      if (b === CR) {
        if (p + 1 >= buf.length && !eof) break;
        if (buf[p + 1] === LF && crlf !== false) {
          crlf = true;
          line++;
          p += 2;
          continue;
        }
        throw unhandled();
      }
      if (want !== null) values = new Array<string | undefined>(want.length);
      const next = parseRecord(buf, p, eof);
      if (next === INCOMPLETE) {
        // a record that never ends is csv-parse's to refuse (its record size limit), with its own message
        if (buf.length - p > limits.maxRecordBytes) throw unhandled();
        break;
      }
      line += lfs;
      out.push({ values, fields, line, bytes: consumed + next });
      records++;
      if (want === null) {
        const header = values.slice(0, fields) as string[];
        const wantedColumns = wanted(header);
        want = new Array<boolean>(fields).fill(false);
        lastBuf = new Array<Buffer>(fields);
        lastStart = new Array<number>(fields).fill(0);
        lastEnd = new Array<number>(fields).fill(0);
        lastText = new Array<string>(fields);
        for (const i of wantedColumns) want[i] = true;
      }
      line++;
      p = next;
    }
    pending = p < buf.length ? buf.subarray(p) : null;
    consumed += p;
    return out;
  };

  for await (const chunk of bytes) {
    const buf: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    const out = parse(buf, false);
    if (out.length) yield out;
  }
  const rest = pending as Buffer | null;
  if (rest !== null && rest.length > 0) {
    const out = parse(rest, true);
    if (out.length) yield out;
  }
}
