import { microToDecimal } from '../../../common/money/decimal';
import type { StatementRow } from '../../accounts';

export const LEDGER_CSV_HEADER = 'time,kind,reference,amountUsd,balanceAfterUsd';
const NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet would start a formula with (OWASP "CSV injection"), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): a cell a spreadsheet would read as a formula is prefixed with `'`
 * (shown as text, never executed), numbers stay numbers; a cell with a comma, quote or line
 * break is quoted with its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = !NUMBER.test(value) && FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The account's ledger as CSV: the header, then one line per entry (CRLF line ends). */
export function ledgerCsv(rows: StatementRow[]): string {
  const lines = [LEDGER_CSV_HEADER];
  for (const r of rows) {
    lines.push(
      [new Date(r.createdAt).toISOString(), r.kind, r.reference ?? '', microToDecimal(BigInt(r.availableDelta)), microToDecimal(BigInt(r.balanceAfter))].map(csvCell).join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
