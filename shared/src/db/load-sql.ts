/**
 * The queries kept as files in shared/src/db/sql/, read once at module load. A query is written with named
 * parameters (`:customer`, `:from`) which are numbered `$1…$n` here, in the order they first appear, so a caller
 * binds an object by name and two queries sharing a filter cannot disagree on the order of a dozen positions.
 * A file may hold placeholders (a line `/*NAME*\/`) that the caller fills with other files' text before the numbering, so a
 * query written once can read the daily or the monthly rollups.
 */
import { readFileSync } from 'node:fs';

export interface SqlQuery {
  /** The statement as PostgreSQL receives it ($1…$n). */
  text: string;
  /** The parameter names, `$1` first. */
  names: readonly string[];
  /** The values in `$n` order; a name missing from `params` (undefined) throws, extra keys are ignored. */
  values(params: Record<string, unknown>): unknown[];
}

/** The raw text of sql/<name>.sql. */
export const sqlFile = (name: string): string => readFileSync(new URL(`./sql/${name}.sql`, import.meta.url), 'utf8');

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * `:name` → `$n` outside comments, string literals and quoted identifiers; `::type` casts are left alone. A text with
 * positional parameters already (`$1`) is taken as it is, and mixing the two is refused.
 */
export function numberParameters(sql: string): { text: string; names: string[] } {
  const names: string[] = [];
  let positional = false;
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw new Error('unterminated comment in a query');
      out += sql.slice(i, end + 2);
      i = end + 2;
    } else if (c === "'" || c === '"') {
      // a doubled quote inside is an escaped one: the scan simply goes on to the next quote
      const end = sql.indexOf(c, i + 1);
      if (end === -1) throw new Error('unterminated quote in a query');
      out += sql.slice(i, end + 1);
      i = end + 1;
    } else if (c === ':' && sql[i + 1] === ':') {
      out += '::';
      i += 2;
    } else if (c === ':') {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(sql);
      if (!m) {
        out += c;
        i++;
        continue;
      }
      let n = names.indexOf(m[0]);
      if (n === -1) n = names.push(m[0]) - 1;
      out += `$${n + 1}`;
      i += 1 + m[0].length;
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      positional = true;
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (positional && names.length > 0) throw new Error('a query mixes :named and $n parameters');
  return { text: out, names };
}

/** A placeholder: a line holding only `/*NAME*\/` (a mention inside a comment is none). */
const PLACEHOLDER = /^[ \t]*\/\*([A-Z_]+)\*\/[ \t]*$/gm;

/** Fills each placeholder with its text; a placeholder left unfilled, or a text with no place, throws. */
export function splice(sql: string, parts: Record<string, string>): string {
  const used = new Set<string>();
  const text = sql.replace(PLACEHOLDER, (_line, name: string) => {
    const part = parts[name];
    if (part === undefined) throw new Error(`the query's /*${name}*/ is not filled`);
    used.add(name);
    return part.trimEnd();
  });
  for (const name of Object.keys(parts)) if (!used.has(name)) throw new Error(`the query has no /*${name}*/`);
  return text;
}

/** sql/<name>.sql with its placeholders filled (`parts`: placeholder → text) and its named parameters numbered. */
export function loadSql(name: string, parts: Record<string, string> = {}): SqlQuery {
  const { text, names } = numberParameters(splice(sqlFile(name), parts));
  return {
    text,
    names,
    values(params) {
      return names.map((n) => {
        const v = params[n];
        if (v === undefined) throw new Error(`${name}.sql: no value for :${n}`);
        return v;
      });
    },
  };
}
