/**
 * The bytes of a FOCUS file on their way to the CSV parser, checked as they pass: text from the first bytes on
 * (sniffText), UTF-8 throughout (or UTF-16 after its byte order mark; big-endian is turned little-endian, which the
 * parser reads), and a record ending every so often. A file failing any of these stops at once with the line where
 * it failed, instead of being parsed for an hour (a 2 GB sparse file of NUL bytes) or loaded garbled (Latin-1).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { SNIFF_BYTES } from '@cc/shared/commands/ingest-file.ts';
import { countLines, cutUtf8, detectEncoding, firstInvalidUtf8, notUtf16, notUtf8, sniffText, type TextEncoding, type TextProblem } from '@cc/shared/commands/ingest-text.ts';

/** The file stops being readable text (or CSV) at `problem.line`. */
export class TextRefused extends Error {
  constructor(readonly problem: TextProblem) {
    super(problem.reason);
    this.name = 'TextRefused';
  }
}

/** Bytes at the end of `buf` that begin a UTF-8 sequence the next chunk completes. */
function cutTail(buf: Buffer): number {
  for (let j = 1; j <= Math.min(3, buf.length); j++) {
    const b = buf[buf.length - j];
    if ((b & 0xc0) === 0x80) continue;
    if (b < 0xc0) return 0;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return need > j ? j : 0;
  }
  return 0;
}

export interface CheckedText {
  stream: Transform;
  /** The parser tells where its last record ended (bytes of this stream's output, file line). */
  recordEnded(bytes: number, line: number): void;
}

/**
 * `fileSize`: whether the first chunk is the whole file (a cut character at its end is then an error).
 * `maxBytesWithoutRecord`: more bytes than this without a record ending is no CSV (no progress).
 */
export function checkedText(opts: { fileSize: number; maxBytesWithoutRecord: number }): CheckedText {
  let encoding: TextEncoding | undefined;
  let carry: Buffer = Buffer.alloc(0);
  let lines = 0;
  let passed = 0;
  let recordAt = 0;
  let recordLine = 1;
  // UTF-16: a high surrogate whose low half is in the next chunk.
  let pendingHigh = false;

  const utf8 = (data: Buffer): Buffer => {
    const body = data.subarray(0, data.length - cutTail(data));
    if (!isUtf8(body)) {
      const bad = firstInvalidUtf8(body);
      if (bad) throw new TextRefused(notUtf8(body[bad.offset], lines + countLines(body, 0, bad.offset) + 1));
    }
    lines += countLines(body);
    carry = Buffer.from(data.subarray(body.length));
    return body;
  };

  const utf16 = (data: Buffer): Buffer => {
    const body = Buffer.from(data.subarray(0, data.length - (data.length % 2)));
    carry = Buffer.from(data.subarray(body.length));
    if (encoding === 'utf16be') body.swap16();
    const units = new Uint16Array(body.buffer, body.byteOffset, body.length / 2);
    for (const u of units) {
      if (pendingHigh !== (u >= 0xdc00 && u <= 0xdfff)) throw new TextRefused(notUtf16(lines + 1));
      pendingHigh = u >= 0xd800 && u <= 0xdbff;
      if (u === 0x0a) lines++;
    }
    return body;
  };

  const stream = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
        if (encoding === undefined) {
          if (data.length < 2 && data.length < opts.fileSize) {
            carry = Buffer.from(data);
            return done();
          }
          encoding = detectEncoding(data);
          const problem = sniffText(data.subarray(0, SNIFF_BYTES), data.length >= opts.fileSize);
          if (problem) throw new TextRefused(problem);
        }
        const body = encoding === 'utf8' ? utf8(data) : utf16(data);
        passed += body.length;
        if (passed - recordAt > opts.maxBytesWithoutRecord) {
          const mib = Math.round(opts.maxBytesWithoutRecord / 2 ** 20);
          throw new TextRefused({ line: recordLine, reason: `no record ends in the ${mib} MiB after line ${recordLine}: the file is not FOCUS CSV` });
        }
        done(null, body);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      if (carry.length === 0 && !pendingHigh) return done();
      if (encoding === 'utf16le' || encoding === 'utf16be' || pendingHigh) return done(new TextRefused(notUtf16(lines + 1)));
      const bad = firstInvalidUtf8(carry);
      done(new TextRefused(bad && !bad.truncated ? notUtf8(carry[bad.offset], lines + 1) : cutUtf8(lines + 1)));
    },
  });
  return {
    stream,
    recordEnded(bytes, line) {
      recordAt = bytes;
      recordLine = line;
    },
  };
}
