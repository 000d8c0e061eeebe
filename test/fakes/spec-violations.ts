/**
 * Every request a vendor fake received that the vendor's own document does not allow, for the whole test process.
 * The fake answers it with an error, but a product that swallows errors would still pass: so when the process
 * ends with violations nobody took (`takeViolations`, for tests that make a wrong call on purpose), it prints
 * them and exits non-zero, and the test file fails.
 */
const violations: string[] = [];
let hooked = false;

export function recordViolation(message: string): void {
  violations.push(message);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    if (violations.length === 0) return;
    process.stderr.write(`\nRequests the vendors' documents do not allow (test/fakes/specs):\n${violations.map((v) => `  - ${v}`).join('\n')}\n`);
    process.exitCode = 1;
  });
}

/** The violations recorded so far, removed from the record (a test that expects them asserts on them). */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}
