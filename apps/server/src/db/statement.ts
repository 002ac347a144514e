import { Param, Placeholder, SQL, sql, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/**
 * A statement rendered to text once, its parameters bound per call. drizzle renders a template by
 * walking its whole tree of fragments on every call; for the order batch that cost more of the
 * server's CPU than anything else in the statement's path (docs/benchmarks.md). `build` gets one
 * slot per named parameter and is called once; each call of the result makes a flat SQL of the
 * rendered text and the values, which drizzle renders again without walking the tree.
 */
export function statement<Name extends string>(build: (slot: (name: Name) => SQL) => SQL) {
  const rendered = dialect.sqlToQuery(build((name) => sql`${sql.placeholder(name)}`));
  // The text alternates with the `$n` markers that stand for `rendered.params[n - 1]`.
  const pieces = rendered.sql.split(/\$(\d+)/);
  const texts = pieces.filter((_, index) => index % 2 === 0).map((text) => new StringChunk(text));
  const markers = pieces.filter((_, index) => index % 2 === 1).map(Number);
  // Text of its own that looks like a marker ("$1" in a literal) would be taken for one: refuse it.
  if (markers.length !== rendered.params.length || markers.some((marker, index) => marker !== index + 1)) {
    throw new Error('statement: the SQL text holds `$n` markers of its own');
  }
  const sources = rendered.params;
  return (values: Record<Name, unknown>): SQL => {
    const chunks: (StringChunk | Param)[] = [texts[0]!];
    sources.forEach((source, index) => {
      chunks.push(new Param(source instanceof Placeholder ? values[source.name as Name] : source), texts[index + 1]!);
    });
    return new SQL(chunks);
  };
}
