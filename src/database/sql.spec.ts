import { compileSql, joinSql, rawSql, sql } from './sql';

describe('sql', () => {
  it('numbers parameters in order of appearance', () => {
    const q = compileSql(sql`SELECT * FROM t WHERE a = ${1} AND b = ${'x'}`);
    expect(q).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b = $2', values: [1, 'x'] });
  });

  it('splices fragments with their own values, numbering across them', () => {
    const inner = sql`c = ${true} AND d = ${null}`;
    const q = compileSql(sql`WITH x AS (SELECT ${'a'}) SELECT 1 WHERE ${inner} AND e = ${5}`);
    expect(q.text).toBe('WITH x AS (SELECT $1) SELECT 1 WHERE c = $2 AND d = $3 AND e = $4');
    expect(q.values).toEqual(['a', true, null, 5]);
  });

  it('passes bigints as decimal strings', () => {
    expect(compileSql(sql`${12345678901234567890n}`).values).toEqual(['12345678901234567890']);
  });

  it('joins fragments with a separator, and raw text takes no parameter', () => {
    const parts = [sql`a = ${1}`, sql`b = ${2}`, rawSql('c = now()')];
    expect(compileSql(joinSql(parts, rawSql(' AND ')))).toEqual({ text: 'a = $1 AND b = $2 AND c = now()', values: [1, 2] });
    expect(compileSql(joinSql([]))).toEqual({ text: '', values: [] });
  });

  it('repeats a value used twice as two parameters', () => {
    const id = 'u';
    expect(compileSql(sql`${id} ${id}`)).toEqual({ text: '$1 $2', values: ['u', 'u'] });
  });
});
