/**
 * Named parameters become $n in the order they first appear, once each; casts, comments and quoted text keep their
 * colons; placeholders are filled only where a line holds one alone. The billing reads' daily and monthly variants of
 * one file bind the same names.
 */
import t from 'tap';
import { loadSql, numberParameters, splice, sqlFile } from './load-sql.ts';

t.test('names become $n by first appearance, each once', async (t) => {
  const q = numberParameters(`SELECT :b::text, x FROM t WHERE a = :a AND b = :b -- not :c
  AND s = 'HH24:MI' AND "c:d" = 1 /* :e */ AND arr[1:2] = :a_1`);
  t.same(q.names, ['b', 'a', 'a_1']);
  t.equal(q.text, `SELECT $1::text, x FROM t WHERE a = $2 AND b = $1 -- not :c
  AND s = 'HH24:MI' AND "c:d" = 1 /* :e */ AND arr[1:2] = $3`);
});

t.test('positional text is kept; mixing is refused', async (t) => {
  t.same(numberParameters('SELECT $1, $2::date').names, []);
  t.equal(numberParameters('SELECT $1, $2::date').text, 'SELECT $1, $2::date');
  t.throws(() => numberParameters('SELECT $1, :a'), /mixes/);
  t.throws(() => numberParameters("SELECT 'open"), /unterminated/);
});

t.test('placeholders: a line alone, every one filled, none extra', async (t) => {
  const sql = '-- /*PART*/ is where the rows come from\nWITH x AS (\n  /*PART*/\n) SELECT 1';
  t.equal(splice(sql, { PART: 'SELECT :a\n' }), '-- /*PART*/ is where the rows come from\nWITH x AS (\nSELECT :a\n) SELECT 1');
  t.throws(() => splice(sql, {}), /not filled/);
  t.throws(() => splice(sql, { PART: 'x', OTHER: 'y' }), /no \/\*OTHER\*\//);
});

t.test('values by name; a missing one throws', async (t) => {
  const q = loadSql('billing-daily-totals');
  const params = { customer: 'c', account: 'a', from: '2026-01-01', to: '2026-01-31', provider: null, projects: [], services: [], viewer: null, currency: 'EUR', basis: 'billed', extra: 1 };
  const values = q.values(params);
  t.equal(values.length, q.names.length);
  t.same(new Set(q.names), new Set(Object.keys(params).filter((k) => k !== 'extra')));
  t.throws(() => q.values({ ...params, basis: undefined }), /no value for :basis/);
});

t.test('the daily and monthly variants of a billing read take the same names, the monthly one the last month too', async (t) => {
  const daily = { ROLLUP: 'billing-rollup-daily', LABEL_ROLLUP: 'billing-label-rollup-daily' };
  const monthly = { ROLLUP: 'billing-rollup-monthly', LABEL_ROLLUP: 'billing-label-rollup-monthly' };
  const parts = (p: Record<string, string>, label: boolean) =>
    Object.fromEntries(Object.entries(p).filter(([k]) => label || k === 'ROLLUP').map(([k, v]) => [k, sqlFile(v)]));
  for (const [file, label] of [
    ['billing-service-cells', false],
    ['billing-export-rows', false],
    ['billing-label-cells', true],
    ['billing-label-export-rows', true],
  ] as const) {
    const d = new Set(loadSql(file, parts(daily, label)).names);
    const m = new Set(loadSql(file, parts(monthly, label)).names);
    t.same([...m].filter((n) => !d.has(n)), ['last_month'], `${file}: the monthly variant adds :last_month`);
    t.same([...d].filter((n) => !m.has(n)), [], `${file}: nothing of the daily variant is missing from the monthly one`);
  }
});
