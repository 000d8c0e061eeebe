import t from 'tap';
import { detectFileType } from './file-type.ts';

/** A zip local file header naming `entry` (enough for the type check; no real compression needed). */
function zipWith(entry: string): Buffer {
  const name = Buffer.from(entry);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, Buffer.from('<xml/>')]);
}

function bmp(): Buffer {
  const b = Buffer.alloc(58);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(58, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  return b;
}

t.test('types are recognised by content, not name', async (t) => {
  t.equal(detectFileType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])), 'image/jpeg');
  t.equal(detectFileType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])), 'image/png');
  t.equal(detectFileType(bmp()), 'image/bmp');
  t.equal(detectFileType(Buffer.from('%PDF-1.7\n...')), 'application/pdf');
  t.equal(detectFileType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])), 'application/msword');
  t.equal(detectFileType(zipWith('word/document.xml')), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.equal(detectFileType(Buffer.from('Disk full on db-1\r\n\tsee logs\n')), 'text/plain');
  t.equal(detectFileType(Buffer.from('BM is a text that starts like a bitmap')), 'text/plain');
});

t.test('other content is refused', async (t) => {
  t.equal(detectFileType(zipWith('xl/workbook.xml')), null, 'an xlsx is a zip without word/');
  t.equal(detectFileType(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03])), null, 'a Windows executable');
  t.equal(detectFileType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1])), null, 'an ELF binary');
  t.equal(detectFileType(Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0, 0])), null, 'a GIF');
  t.equal(detectFileType(Buffer.from([0xc3, 0x28])), null, 'invalid UTF-8');
  t.equal(detectFileType(Buffer.alloc(0)), null, 'empty');
});
