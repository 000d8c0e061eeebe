/**
 * Roles and permissions. The spec lists the permission strings (`area_action`, `*` for every action)
 * but not which role holds which (spec 000 §6, 001 §6): this table is that decision, explained in
 * docs/decisions.md. Deleting counts as `update` because the spec names only create, read, update.
 */
export const ROLES = ['admin', 'customer', 'customerViewer'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', customer: 'Customer', customerViewer: 'Customer Viewer' };

export const AREAS = [
  'systemhealth',
  'billing',
  'projectprovisioning',
  'inventory',
  'supportrequest',
  'playbook',
  'entitymanagement',
  'customermanagement',
  'usermanagement',
  'alerts',
  'gcp',
  'export',
] as const;
export type Area = (typeof AREAS)[number];
export type Action = 'create' | 'read' | 'update' | '*';
export type Permission = `${Area}_${Action}`;

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: AREAS.map((a) => `${a}_*` as Permission),
  customer: [
    'systemhealth_*',
    'billing_*',
    'projectprovisioning_create',
    'inventory_*',
    'supportrequest_read',
    'supportrequest_create',
    'supportrequest_update',
    'playbook_*',
    'customermanagement_read',
    'alerts_*',
    'gcp_*',
    'export_*',
  ],
  // Read-only: no create/update anywhere, no export, no provider choice (gcp_*), no alerts.
  customerViewer: ['systemhealth_read', 'billing_read', 'inventory_read', 'supportrequest_read', 'playbook_read'],
};

/**
 * Does a holder of `held` satisfy `required`?
 * A held `area_*` grants every action of the area. A required `area_*` (the spec's gates such as
 * 'billing_*') is met by any permission of that area, so a read-only viewer still reaches read screens.
 */
export function hasPermission(held: readonly string[], required: string): boolean {
  const [area, action] = splitPermission(required);
  return held.some((p) => {
    const [hArea, hAction] = splitPermission(p);
    if (hArea !== area) return false;
    return hAction === '*' || action === '*' || hAction === action;
  });
}

function splitPermission(p: string): [string, string] {
  const i = p.lastIndexOf('_');
  return i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
}

/** True when a permission names a change (anything but read); customerViewer holds none of these. */
export function isWritePermission(required: string): boolean {
  return splitPermission(required)[1] !== 'read';
}
