/**
 * The browser's copy of the server's content check (shared/src/tickets/file-type.ts, which uses Node's
 * Buffer): jpeg, png, bmp, pdf, doc, docx or plain text, recognised by the bytes, never by the name.
 */
const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const ZIP_CENTRAL = [0x50, 0x4b, 0x01, 0x02];
const WORD_DIR = [...'word/'].map((c) => c.charCodeAt(0));

function indexOf(b: Uint8Array, sig: readonly number[], from: number): number {
  for (let i = from; i <= b.length - sig.length; i++) if (startsWith(b, sig, i)) return i;
  return -1;
}

/** A zip with an entry under word/ (a .docx), found through its local or central directory headers. */
function isDocx(b: Uint8Array): boolean {
  if (!startsWith(b, ZIP_LOCAL)) return false;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (const [sig, nameAt, lenAt] of [
    [ZIP_LOCAL, 30, 26],
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

function isBmp(b: Uint8Array): boolean {
  if (!startsWith(b, [0x42, 0x4d]) || b.length < 26) return false;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return v.getUint32(6, true) === 0 && [12, 40, 52, 56, 64, 108, 124].includes(v.getUint32(14, true));
}

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

/** The accepted MIME type of the bytes, or null. */
export function sniffAttachmentType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (isBmp(bytes)) return 'image/bmp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, CFB)) return 'application/msword';
  if (isDocx(bytes)) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (isPlainText(bytes)) return 'text/plain';
  return null;
}
