import t from 'tap';
import { durationToString, moneyToDecimal, structToJson, timestampToIso } from './google.ts';

t.test('Money, Timestamp, Duration and Struct as the clients decode them', async (t) => {
  t.equal(moneyToDecimal('-12', -500000000), '-12.5');
  t.equal(moneyToDecimal('0', -250000000), '-0.25', 'a saving below one unit keeps its sign');
  t.equal(moneyToDecimal('3', 0), '3');
  t.equal(moneyToDecimal('9007199254740993', 1), '9007199254740993.000000001', 'int64 units beyond a float stay exact');
  t.equal(moneyToDecimal(undefined, undefined), '0');
  t.equal(timestampToIso({ seconds: '1767607200', nanos: 5_000_000 }), '2026-01-05T10:00:00.005Z');
  t.equal(timestampToIso(null), null);
  t.equal(durationToString({ seconds: '2592000', nanos: 0 }), '2592000s');
  t.same(
    structToJson({
      fields: {
        a: { kind: 'stringValue', stringValue: 'x', numberValue: 0 },
        b: { kind: 'listValue', listValue: { values: [{ kind: 'numberValue', numberValue: 2 }, { kind: 'nullValue', nullValue: 'NULL_VALUE' }] } },
        c: { kind: 'structValue', structValue: { fields: { d: { kind: 'boolValue', boolValue: true } } } },
      },
    }),
    { a: 'x', b: [2, null], c: { d: true } },
  );
});
