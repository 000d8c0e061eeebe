/**
 * Is a billing file text? FOCUS files are UTF-8 (UTF-16 with a byte order mark is read too, as spreadsheets save
 * it). A file in another encoding (Latin-1: "Café" as one byte 0xE9) would load garbled, and a binary file (a
 * sparse file of NUL bytes, a zip) would keep a parser busy for nothing: both are refused with the line of the
 * first byte that gives them away. Messages name a byte by its hex value, never print it.
 */

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be';

/** Where a file stops being text and why. */
export interface TextProblem {
  line: number;
  reason: string;
}

/** The encoding the first bytes announce: a UTF-16 byte order mark, else UTF-8 (with or without its BOM). */
export function detectEncoding(head: Buffer): TextEncoding {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return 'utf8';
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

export const notUtf8 = (byte: number, line: number): TextProblem => ({
  line,
  reason: `the file is not UTF-8 text: byte ${hex(byte)} on line ${line} is not UTF-8 (save it as UTF-8, or as UTF-16 with a byte order mark)`,
});
export const cutUtf8 = (line: number): TextProblem => ({ line, reason: `the file is not UTF-8 text: it ends inside a character on line ${line}` });
export const notUtf16 = (line: number): TextProblem => ({ line, reason: `the file is not UTF-16 text: an unpaired surrogate on line ${line}` });
export const binary = (what: string, line: number): TextProblem => ({ line, reason: `the file is binary, not CSV text (${what} on line ${line})` });

/**
 * The first invalid UTF-8 sequence in `buf` from `start` (RFC 3629: no overlongs, surrogates or code points above
 * U+10FFFF), or null. `truncated`: the only fault is a sequence cut by the end of `buf`.
 */
export function firstInvalidUtf8(buf: Uint8Array, start = 0): { offset: number; truncated: boolean } | null {
  const n = buf.length;
  let i = start;
  while (i < n) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) [need, lo] = [2, 0xa0];
    else if (b === 0xed) [need, hi] = [2, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) need = 2;
    else if (b === 0xf0) [need, lo] = [3, 0x90];
    else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else if (b === 0xf4) [need, hi] = [3, 0x8f];
    else return { offset: i, truncated: false };
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return { offset: i, truncated: true };
      const c = buf[i + k];
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return { offset: i, truncated: false };
    }
    i += need + 1;
  }
  return null;
}

/** Newlines in buf[from, to). */
export function countLines(buf: Uint8Array, from = 0, to = buf.length): number {
  let count = 0;
  for (let i = buf.indexOf(0x0a, from); i !== -1 && i < to; i = buf.indexOf(0x0a, i + 1)) count++;
  return count;
}

// Control characters a text file does not hold (tab, LF, VT, FF, CR, SUB and ESC are seen in real exports).
const isControl = (c: number) => c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d && c !== 0x1a && c !== 0x1b;
/** More than this share of control characters in the first bytes makes a file binary even without a NUL. */
const CONTROL_SHARE = 0.02;

/** Code units of UTF-16 bytes (little-endian after a swap for big-endian). */
function utf16Units(head: Buffer, encoding: 'utf16le' | 'utf16be'): Uint16Array {
  const even = Buffer.from(head.subarray(0, head.length - (head.length % 2)));
  if (encoding === 'utf16be') even.swap16();
  return new Uint16Array(even.buffer, even.byteOffset, even.length / 2);
}

function sniffUtf16(head: Buffer, encoding: 'utf16le' | 'utf16be', complete: boolean): TextProblem | null {
  const units = utf16Units(head, encoding);
  let line = 1;
  let controls = 0;
  let firstControl = 0;
  for (let i = 1; i < units.length; i++) {
    const u = units[i];
    if (u === 0x0a) line++;
    else if (u === 0) return binary('a NUL character', line);
    else if (isControl(u) && controls++ === 0) firstControl = line;
    else if (u >= 0xd800 && u <= 0xdbff) {
      if (i + 1 >= units.length) return complete ? notUtf16(line) : null;
      if (units[i + 1] < 0xdc00 || units[i + 1] > 0xdfff) return notUtf16(line);
      i++;
    } else if (u >= 0xdc00 && u <= 0xdfff) return notUtf16(line);
  }
  return controls > units.length * CONTROL_SHARE ? binary('control characters', firstControl) : null;
}

/**
 * The first bytes of a file (`complete`: they are the whole file) as text: null, or why the file is not text.
 * Binary: a NUL, or control characters beyond a small share. Not UTF-8: the first invalid byte, a sequence cut by
 * the end of `head` excepted unless the file ends there.
 */
export function sniffText(head: Buffer, complete: boolean): TextProblem | null {
  const encoding = detectEncoding(head);
  if (encoding !== 'utf8') return sniffUtf16(head, encoding, complete);
  const nul = head.indexOf(0);
  if (nul !== -1) return binary('a NUL byte', countLines(head, 0, nul) + 1);
  let controls = 0;
  let firstControl = -1;
  for (let i = 0; i < head.length; i++) {
    if (isControl(head[i]) && controls++ === 0) firstControl = i;
  }
  if (controls > head.length * CONTROL_SHARE) return binary('control characters', countLines(head, 0, firstControl) + 1);
  const bad = firstInvalidUtf8(head);
  if (bad && (!bad.truncated || complete)) {
    const line = countLines(head, 0, bad.offset) + 1;
    return bad.truncated ? cutUtf8(line) : notUtf8(head[bad.offset], line);
  }
  return null;
}
