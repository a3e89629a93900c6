/**
 * SQL as tagged templates: `sql\`... WHERE id = ${id}::uuid\`` keeps each value beside the
 * place it goes, and `compile` numbers the parameters once, at the end. A value that is itself
 * a `Sql` is spliced in with its own values, so statements spanning modules are composed from
 * fragments that each table's store exports, with no `$n` arithmetic anywhere.
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/**
 * Trusted SQL text: identifiers and keywords chosen by the code, never input. Anything that
 * comes from outside is a template value (a parameter) instead.
 */
export function rawSql(text: string): Sql {
  return new Sql([text], []);
}

/** `parts` one after another, `separator` between them. */
export function joinSql(parts: readonly Sql[], separator: Sql = rawSql(', ')): Sql {
  if (parts.length === 0) return rawSql('');
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) {
      strings.push('');
      values.push(separator);
    }
    values.push(part);
    strings.push('');
  });
  return new Sql(strings, values);
}

export interface CompiledSql {
  text: string;
  values: unknown[];
}

/** The statement text with `$1..$n` and its parameters in that order (bigints as decimal strings). */
export function compileSql(query: Sql): CompiledSql {
  const values: unknown[] = [];
  const text = render(query, values);
  return { text, values };
}

function render(query: Sql, values: unknown[]): string {
  let text = query.strings[0];
  query.values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += render(value, values);
    } else {
      values.push(typeof value === 'bigint' ? value.toString() : value);
      text += `$${values.length}`;
    }
    text += query.strings[i + 1];
  });
  return text;
}
