import { csvCell, LEDGER_CSV_HEADER, ledgerCsv } from './ledger-csv';

describe('ledger CSV', () => {
  it('neutralises formula cells and quotes what needs quoting, numbers stay numbers', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1+cmd')).toBe(`"'+1+cmd"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('-0.012345')).toBe('-0.012345');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('tx:1')).toBe('tx:1');
  });

  it('writes the header and one CRLF line per entry', () => {
    const csv = ledgerCsv([
      { createdAt: new Date('2026-11-28T00:00:00Z'), kind: 'deposit', reference: 'dep:1:0xab:-1', availableDelta: '25000000', balanceAfter: '25000000' },
      { createdAt: new Date('2026-11-28T00:00:01Z'), kind: 'reserve', reference: 'tx:t1', availableDelta: '-12345', balanceAfter: '24987655' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      LEDGER_CSV_HEADER,
      '2026-11-28T00:00:00.000Z,deposit,dep:1:0xab:-1,25.000000,25.000000',
      '2026-11-28T00:00:01.000Z,reserve,tx:t1,-0.012345,24.987655',
      '',
    ]);
  });
});
