/**
 * Runs a short bookkeeping write (closing a finished job's outbox rows) until it succeeds: the job finished, but the
 * database may be away at that moment. Left undone, the reconciler would take the finished job (removed from Redis on
 * completion) for one Redis lost and run it again. Waits double from 500 ms to 30 s; stops after `giveUpAfterMs`
 * or when the process is closing, and then rejects with the last error.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export async function retryUntilDone(fn: () => Promise<void>, o: { isClosing: () => boolean; giveUpAfterMs?: number }): Promise<void> {
  const deadline = Date.now() + (o.giveUpAfterMs ?? 15 * 60_000);
  for (let wait = 500; ; wait = Math.min(wait * 2, 30_000)) {
    try {
      await fn();
      return;
    } catch (err) {
      if (o.isClosing() || Date.now() + wait > deadline) throw err;
      await sleep(wait);
    }
  }
}
