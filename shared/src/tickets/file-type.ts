/**
 * The accepted attachment types (spec 000 §5), recognised by their content, never by the file name:
 * a renamed executable is refused whatever it is called.
 */
export type AcceptedMime =
  | 'image/jpeg'
  | 'image/png'
  | 'image/bmp'
  | 'application/pdf'
  | 'application/msword'
  | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  | 'text/plain';

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

// OLE2 Compound File Binary header: the container of Word 97-2003 .doc.
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];

const ZIP_CENTRAL = [0x50, 0x4b, 0x01, 0x02];
const WORD_DIR = [...'word/'].map((c) => c.charCodeAt(0));

function indexOf(b: Uint8Array, sig: readonly number[], from: number): number {
  for (let i = from; i <= b.length - sig.length; i++) if (startsWith(b, sig, i)) return i;
  return -1;
}

/**
 * A zip whose local or central directory headers name an entry under word/ (a .docx). Plain Uint8Array and
 * DataView, no Buffer: the browser runs this same check before uploading.
 */
function isDocx(b: Uint8Array): boolean {
  if (!startsWith(b, ZIP)) return false;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // entry names follow the fixed 30-byte local header / 46-byte central header: scan both signatures
  for (const [sig, nameAt, lenAt] of [
    [ZIP, 30, 26],
    [ZIP_CENTRAL, 46, 28],
  ] as const) {
    let i = indexOf(b, sig, 0);
    while (i >= 0 && i + nameAt <= b.length) {
      const nameLen = v.getUint16(i + lenAt, true);
      if (nameLen >= WORD_DIR.length && startsWith(b, WORD_DIR, i + nameAt)) return true;
      i = indexOf(b, sig, i + 4);
    }
  }
  return false;
}

/** 'BM', then reserved zeros at 6..9 and a known DIB header size at 14 (so a text starting with "BM" is not a bitmap). */
function isBmp(b: Uint8Array): boolean {
  if (!startsWith(b, [0x42, 0x4d]) || b.length < 26) return false;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return v.getUint32(6, true) === 0 && [12, 40, 52, 56, 64, 108, 124].includes(v.getUint32(14, true));
}

/** Plain text: valid UTF-8 with no control characters other than tab, newline, carriage return and form feed. */
function isPlainText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** The accepted type of the bytes, or null when they are none of jpeg, png, bmp, pdf, doc, docx or plain text. */
export function detectFileType(bytes: Uint8Array): AcceptedMime | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (isBmp(bytes)) return 'image/bmp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, CFB)) return 'application/msword';
  if (isDocx(bytes)) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (isPlainText(bytes)) return 'text/plain';
  return null;
}
