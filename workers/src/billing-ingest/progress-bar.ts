/** A one-line progress bar on stderr for `cc ingest`; plain lines when stderr is not a terminal (CI logs). */
import type { IngestProgress } from './ingest.ts';

const WIDTH = 30;

export function progressBar(out: NodeJS.WriteStream = process.stderr) {
  let lastDraw = 0;
  let lastStep = -1;
  const fmt = new Intl.NumberFormat('en-US');
  const render = (p: IngestProgress) => {
    const f = p.phase === 'reading' ? (p.fraction ?? 0) : 1;
    const filled = Math.round(f * WIDTH);
    const pct = `${Math.floor(f * 100)}`.padStart(3);
    const errors = p.errors ? `, ${fmt.format(p.errors)} bad` : '';
    return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${pct}% ${fmt.format(p.rows)} rows${errors} (${p.phase})`;
  };
  return {
    update(p: IngestProgress) {
      if (out.isTTY) {
        const now = Date.now();
        // Redraw at most ten times a second; a redraw per row would cost more than the ingest.
        if (p.phase === 'reading' && p.fraction !== 1 && now - lastDraw < 100) return;
        lastDraw = now;
        out.write(`\r${render(p)}\x1b[K`);
      } else {
        const step = p.phase === 'reading' ? Math.floor((p.fraction ?? 0) * 10) : p.phase === 'replacing' ? 11 : 12;
        if (step === lastStep) return;
        lastStep = step;
        out.write(`${render(p)}\n`);
      }
    },
    finish() {
      if (out.isTTY) out.write('\n');
    },
  };
}
