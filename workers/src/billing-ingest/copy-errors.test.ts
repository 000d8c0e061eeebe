/**
 * A COPY error names the COPY line it refused; the ingest reports the file line that row came from. The lines sent
 * are kept as runs, so a file of millions of consecutive rows costs one run, not an entry per row.
 */
import t from 'tap';
import { CopiedLines, copyErrorLine } from './copy-errors.ts';

t.test('each COPY line maps back to the file line it came from', async (t) => {
  // header on line 1; a quoted line break (rows 3-4), blank lines (8, 9), a bad row left out (11)
  const fileLines = [2, 4, 5, 6, 7, 10, 12, 13];
  const lines = new CopiedLines();
  for (const l of fileLines) lines.push(l);
  t.same(
    fileLines.map((_, i) => lines.lineOf(i + 1)),
    fileLines,
  );
  t.equal(lines.lineOf(0), undefined);
  t.equal(lines.lineOf(fileLines.length + 1), undefined);
  t.equal(lines.runs, 4, 'runs of consecutive lines: 2; 4-7; 10; 12-13');
});

t.test('a million consecutive rows are one run', async (t) => {
  const lines = new CopiedLines();
  for (let l = 2; l <= 1_000_001; l++) lines.push(l);
  t.equal(lines.runs, 1);
  t.equal(lines.lineOf(1), 2);
  t.equal(lines.lineOf(777_777), 777_778);
  t.equal(lines.lineOf(1_000_000), 1_000_001);
});

t.test("a data error's COPY line is reported as the file's line", async (t) => {
  const lines = new CopiedLines();
  for (const l of [2, 3, 5, 6]) lines.push(l);
  const err = { code: '22P02', where: 'COPY cost_line, line 3, column resource_labels: "…"', message: 'invalid input syntax for type json' };
  t.same(copyErrorLine(err, lines), { line: 5, reason: 'the database refused the row: invalid input syntax for type json' });
  t.equal(copyErrorLine({ code: '08006', where: 'COPY cost_line, line 3' }, lines), null, 'a lost connection is no data error');
});
