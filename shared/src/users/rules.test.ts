/** User management's pure rules (spec 001 §2.7): the entities a user's customers belong to. */
import t from 'tap';
import { entityNames } from './rules.ts';

t.test('entity names', async (t) => {
  t.same(entityNames([{ entity_name: 'B' }, { entity_name: null }, { entity_name: 'B' }, { entity_name: 'A' }]), ['A', 'B', 'No Entity']);
});
