import t from 'tap';
import { PAGE_SIZES, filterRows, pageOf, pageRange, sortRows } from './list-table.ts';

const rows = [
  { p: 'acmeco-web-prod', s: 'Compute Engine', v: 12.5 },
  { p: 'acmeco-analytics-prod', s: 'BigQuery', v: null },
  { p: 'acmeco-web-dev', s: 'Cloud SQL', v: 3 },
  { p: 'acmeco-analytics-dev', s: 'BigQuery', v: 40 },
];
const text = (r: (typeof rows)[number]) => `${r.p} ${r.s}`;

t.test('page sizes of spec 000 §9', async (t) => {
  t.same(PAGE_SIZES, [10, 100, 200, 500]);
});

t.test('filter: every word, any column, case-insensitive', async (t) => {
  t.same(filterRows(rows, '  ', text), rows, 'blank keeps all');
  t.same(filterRows(rows, 'bigquery', text).map((r) => r.p), ['acmeco-analytics-prod', 'acmeco-analytics-dev']);
  t.same(filterRows(rows, 'BigQuery DEV', text).map((r) => r.p), ['acmeco-analytics-dev'], 'words combine with and');
  t.same(filterRows(rows, 'nothing', text), []);
});

t.test('sort: numbers numerically, empty values last both ways, stable', async (t) => {
  t.same(sortRows(rows, (r) => r.v, 'ASC').map((r) => r.v), [3, 12.5, 40, null]);
  t.same(sortRows(rows, (r) => r.v, 'DESC').map((r) => r.v), [40, 12.5, 3, null]);
  t.same(sortRows(rows, (r) => r.s, 'ASC').map((r) => r.p), ['acmeco-analytics-prod', 'acmeco-analytics-dev', 'acmeco-web-dev', 'acmeco-web-prod'], 'ties keep input order');
  t.same(sortRows(['item 10', 'item 9', 'Item 1'], (s) => s, 'ASC'), ['Item 1', 'item 9', 'item 10'], 'natural, case-insensitive');
});

t.test('paging clamps the page index', async (t) => {
  const many = Array.from({ length: 23 }, (_, i) => i);
  t.same(pageOf(many, 0, 10), { rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], pageIndex: 0 });
  t.same(pageOf(many, 2, 10), { rows: [20, 21, 22], pageIndex: 2 });
  t.same(pageOf(many, 9, 10).pageIndex, 2, 'past the end shows the last page');
  t.same(pageOf([], 3, 10), { rows: [], pageIndex: 0 });
});

t.test('row count text of a page and the last page', async (t) => {
  t.same(pageRange(12, 0, 10), { text: '1–10 of 12', lastPage: 1 });
  t.same(pageRange(12, 1, 10), { text: '11–12 of 12', lastPage: 1 });
  t.same(pageRange(1, 0, 10), { text: '1–1 of 1', lastPage: 0 });
  t.same(pageRange(0, 0, 10), { text: '0–0 of 0', lastPage: 0 });
});
