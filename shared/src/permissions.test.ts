import t from 'tap';
import { hasPermission, isWritePermission, ROLE_PERMISSIONS } from './permissions.ts';

t.test('wildcards', async (t) => {
  t.ok(hasPermission(['billing_*'], 'billing_read'));
  t.ok(hasPermission(['billing_*'], 'billing_update'));
  t.ok(hasPermission(['billing_read'], 'billing_*'), 'a required area_* is met by any action of the area');
  t.notOk(hasPermission(['billing_read'], 'billing_update'));
  t.notOk(hasPermission(['billing_*'], 'alerts_read'));
  t.notOk(hasPermission(['supportrequest_read'], 'supportrequest_create'));
  t.notOk(hasPermission([], 'billing_read'));
});

t.test('role table', async (t) => {
  const viewer = ROLE_PERMISSIONS.customerViewer;
  t.notOk(viewer.some((p) => isWritePermission(p)), 'customerViewer holds no change permission');
  t.notOk(hasPermission(viewer, 'export_*'));
  t.notOk(hasPermission(viewer, 'gcp_*'));
  t.ok(hasPermission(ROLE_PERMISSIONS.customer, 'supportrequest_create'));
  t.notOk(hasPermission(ROLE_PERMISSIONS.customer, 'usermanagement_read'));
  t.ok(hasPermission(ROLE_PERMISSIONS.admin, 'usermanagement_update'));
});
