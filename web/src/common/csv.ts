/**
 * CSV for every file the web exports: RFC 4180, with OWASP's CSV-injection rule so no cell opens as a spreadsheet
 * formula. A text cell whose first character (after any spaces) is = + - @, a tab or a carriage return (or their
 * full-width forms, which some spreadsheets read alike) gets a leading single quote and is always quoted; the quote
 * makes the spreadsheet show it as text. Plain decimal numbers (`-12.50`, `+3`) are left as they are: amounts must stay
 * numbers in the sheet, and a bare number is no formula. Decision: docs/decisions-billing.md, "Exports and formulas".
 */
const FORMULA_START = /^[\s]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** One cell as written to the file. */
export function csvCell(value: unknown): string {
  const text = String(value ?? '');
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Header and rows as CSV text, CRLF line ends. */
export function toCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [headers, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
