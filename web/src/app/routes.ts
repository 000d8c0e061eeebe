import { lazy } from 'react';
import type { ComponentType } from 'react';
import type { Icon } from '@primer/octicons-react';
import {
  AlertIcon,
  BookIcon,
  BriefcaseIcon,
  CommentDiscussionIcon,
  CreditCardIcon,
  GearIcon,
  InboxIcon,
  KeyIcon,
  OrganizationIcon,
  PackageIcon,
  PeopleIcon,
  PulseIcon,
  RepoIcon,
} from '@primer/octicons-react';
import type { Role } from '@cc/shared/permissions.ts';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { AppRoute, Gate } from './route-types.ts';
import { lazyPage } from './lazy-page.ts';
import { OperationsBadge } from '../features/operations/OperationsBadge.tsx';

/** The per-customer switches that gate menu items and screens (spec 001 §6). */
type FeatureFlag = keyof Pick<
  CustomerDocument,
  'support_request' | 'billing_viewer' | 'inventory' | 'system_health_dashboard' | 'documentation' | 'workspace_license' | 'anomaly_detection'
>;

const signedIn: Gate = () => true;
const perm =
  (required: string): Gate =>
  (ctx) =>
    hasPermission(ctx.perms, required);
const flag =
  (name: FeatureFlag): Gate =>
  (ctx) =>
    ctx.customer?.[name] === true;
const role =
  (name: Role): Gate =>
  (ctx) =>
    ctx.role === name;
const isAdmin: Gate = (ctx) => ctx.role === 'admin';
const hasTemplates: Gate = (ctx) => (ctx.customer?.project_provisioning?.length ?? 0) > 0;
const all =
  (...gates: Gate[]): Gate =>
  (ctx) =>
    gates.every((g) => g(ctx));
const any =
  (...gates: Gate[]): Gate =>
  (ctx) =>
    gates.some((g) => g(ctx));

const disabledFor = (customerName: string) => `for ${customerName} is disabled`;

const features = {
  anomalyDetection: { on: flag('anomaly_detection'), disabledText: disabledFor },
  systemHealth: { on: flag('system_health_dashboard'), disabledText: disabledFor },
  inventory: { on: flag('inventory'), disabledText: disabledFor },
  support: { on: any(flag('support_request'), isAdmin), disabledText: disabledFor },
  playbook: { on: flag('documentation'), disabledText: (name: string) => `Playbook for ${name} is disabled` },
} satisfies Record<string, AppRoute['feature']>;

/** The home page, preloaded as the app starts on `/` (app/preload.ts). */
export const BillingPage = lazyPage(() => import('../features/billing/BillingPage.tsx').then((m) => m.BillingPage));
const AnomalyPage = lazy(() => import('../features/anomalies/AnomalyPage.tsx').then((m) => ({ default: m.AnomalyPage })));
const ReconcilePage = lazy(() => import('../features/billing/ReconcilePage.tsx').then((m) => ({ default: m.ReconcilePage })));
const AlertsPage = lazy(() => import('../features/alerts/AlertsPage.tsx').then((m) => ({ default: m.AlertsPage })));
const ViewersPage = lazy(() => import('../features/viewers/ViewersPage.tsx').then((m) => ({ default: m.ViewersPage })));
const TicketListPage = lazy(() => import('../features/tickets/TicketListPage.tsx').then((m) => ({ default: m.TicketListPage })));
const NewTicketPage = lazy(() => import('../features/tickets/NewTicketPage.tsx').then((m) => ({ default: m.NewTicketPage })));
const TicketViewPage = lazy(() => import('../features/tickets/TicketViewPage.tsx').then((m) => ({ default: m.TicketViewPage })));
const EntityListPage = lazy(() => import('../features/entities/EntityListPage.tsx').then((m) => ({ default: m.EntityListPage })));
const NewEntityPage = lazy(() => import('../features/entities/NewEntityPage.tsx').then((m) => ({ default: m.NewEntityPage })));
const UpdateEntityPage = lazy(() => import('../features/entities/UpdateEntityPage.tsx').then((m) => ({ default: m.UpdateEntityPage })));
const CustomerListPage = lazy(() => import('../features/customers/CustomerListPage.tsx').then((m) => ({ default: m.CustomerListPage })));
const NewCustomerPage = lazy(() => import('../features/customers/NewCustomerPage.tsx').then((m) => ({ default: m.NewCustomerPage })));
const UpdateCustomerPage = lazy(() => import('../features/customers/UpdateCustomerPage.tsx').then((m) => ({ default: m.UpdateCustomerPage })));
const CustomerSettingsPage = lazy(() => import('../features/customers/CustomerSettingsPage.tsx').then((m) => ({ default: m.CustomerSettingsPage })));
const UserListPage = lazy(() => import('../features/users/UserListPage.tsx').then((m) => ({ default: m.UserListPage })));
const NewUsersPage = lazy(() => import('../features/users/NewUsersPage.tsx').then((m) => ({ default: m.NewUsersPage })));
const UpdateUserPage = lazy(() => import('../features/users/UpdateUserPage.tsx').then((m) => ({ default: m.UpdateUserPage })));
const ProjectListPage = lazy(() => import('../features/provisioning/ProjectListPage.tsx').then((m) => ({ default: m.ProjectListPage })));
const NewProjectPage = lazy(() => import('../features/provisioning/NewProjectPage.tsx').then((m) => ({ default: m.NewProjectPage })));
const LogoutPage = lazy(() => import('../features/session/LogoutPage.tsx').then((m) => ({ default: m.LogoutPage })));
const SystemHealthPage = lazy(() => import('../features/monitoring/SystemHealthPage.tsx').then((m) => ({ default: m.SystemHealthPage })));
const KioskPage = lazy(() => import('../features/monitoring/KioskPage.tsx').then((m) => ({ default: m.KioskPage })));
const WorkspaceLicensePage = lazy(() => import('../features/licenses/WorkspaceLicensePage.tsx').then((m) => ({ default: m.WorkspaceLicensePage })));
const UpdateLicensePage = lazy(() => import('../features/licenses/UpdateLicensePage.tsx').then((m) => ({ default: m.UpdateLicensePage })));
const ManageOrderPage = lazy(() => import('../features/licenses/ManageOrderPage.tsx').then((m) => ({ default: m.ManageOrderPage })));
const PlaybookDocPage = lazy(() => import('../features/playbook/PlaybookDocPage.tsx').then((m) => ({ default: m.PlaybookDocPage })));
const PlaybookPage = lazy(() => import('../features/playbook/PlaybookPage.tsx').then((m) => ({ default: m.PlaybookPage })));
const InvitationPage = lazy(() => import('../features/invitations/InvitationPage.tsx').then((m) => ({ default: m.InvitationPage })));
const InventoryPage = lazy(() => import('../features/inventory/InventoryPage.tsx').then((m) => ({ default: m.InventoryPage })));
const OperationsPage = lazy(() => import('../features/operations/OperationsPage.tsx').then((m) => ({ default: m.OperationsPage })));
const SpendPage = lazy(() => import('../features/operations/SpendPage.tsx').then((m) => ({ default: m.SpendPage })));
const InventoryViewPage = lazy(() => import('../features/inventory/InventoryViewPage.tsx').then((m) => ({ default: m.InventoryViewPage })));

/** The invitation e-mail's link: shown signed in or not, since the link's token is the credential. */
export const INVITATION_ROUTE: AppRoute = { path: '/invitation/:token', title: 'Set your password', gate: signedIn, page: InvitationPage };

/**
 * The built-in System Health dashboard (MONITORING=local), the System Health iframe's page: shown without the app
 * shell, for a signed-in user with systemhealth_* (the api checks the customer).
 */
export const KIOSK_ROUTE: AppRoute = { path: '/systemhealth/kiosk/:id', title: 'System Health', gate: perm('systemhealth_*'), page: KioskPage };

/** Spec 001 §2.1, in its order. The router renders these; the side menu links to some of them. */
export const ROUTES: readonly AppRoute[] = [
  { path: '/', title: 'Billing', gate: signedIn, page: BillingPage },
  { path: '/systemhealth', title: 'System Health', gate: perm('systemhealth_*'), feature: features.systemHealth, page: SystemHealthPage },
  { path: '/anomalydetection', title: 'Anomaly Detection', gate: perm('billing_*'), feature: features.anomalyDetection, page: AnomalyPage },
  { path: '/workspacelicense', title: 'Workspace License', gate: flag('workspace_license'), page: WorkspaceLicensePage },
  { path: '/workspacelicense/license', title: 'Update License', gate: flag('workspace_license'), page: UpdateLicensePage },
  { path: '/workspacelicense/order', title: 'Manage Order', gate: flag('workspace_license'), page: ManageOrderPage },
  { path: '/projectprovisioning', title: 'Project Provisioning', gate: perm('projectprovisioning_create'), page: ProjectListPage },
  { path: '/projectprovisioning/new', title: 'New Project', gate: perm('projectprovisioning_create'), page: NewProjectPage },
  { path: '/inventory', title: 'Inventory', gate: perm('inventory_*'), feature: features.inventory, page: InventoryPage },
  { path: '/inventory/view', title: 'Inventory Visualisation', gate: perm('inventory_*'), feature: features.inventory, page: InventoryViewPage },
  { path: '/supportrequest/new', title: 'New Rapid Architecture Ticket', gate: perm('supportrequest_create'), feature: features.support, page: NewTicketPage },
  { path: '/supportrequest', title: 'Rapid Architecture Ticket', gate: perm('supportrequest_read'), feature: features.support, page: TicketListPage },
  { path: '/supportrequest/view/:id', title: 'Rapid Architecture Ticket', gate: perm('supportrequest_read'), feature: features.support, page: TicketViewPage },
  { path: '/playbook', title: 'Playbook', gate: perm('playbook_*'), feature: features.playbook, page: PlaybookPage },
  { path: '/playbook/view/:id', title: 'Playbook', gate: perm('playbook_*'), feature: features.playbook, page: PlaybookDocPage },
  { path: '/entitymanagement', title: 'Entity Management', gate: perm('entitymanagement_read'), management: true, page: EntityListPage },
  { path: '/entitymanagement/new', title: 'New Entity', gate: perm('entitymanagement_create'), management: true, page: NewEntityPage },
  { path: '/entitymanagement/update/:id', title: 'Update Entity', gate: perm('entitymanagement_update'), management: true, page: UpdateEntityPage },
  { path: '/customermanagement', title: 'Customer Management', gate: all(perm('customermanagement_read'), role('admin')), management: true, page: CustomerListPage },
  { path: '/customermanagement/new', title: 'New Customer', gate: perm('customermanagement_create'), management: true, page: NewCustomerPage },
  { path: '/customermanagement/update/:id', title: 'Update Customer', gate: perm('customermanagement_update'), management: true, page: UpdateCustomerPage },
  { path: '/customermanagement/view', title: 'Customer Settings', gate: all(perm('customermanagement_read'), role('customer')), management: true, page: CustomerSettingsPage },
  { path: '/usermanagement', title: 'User Management', gate: perm('usermanagement_read'), management: true, page: UserListPage },
  { path: '/usermanagement/new', title: 'New Users', gate: perm('usermanagement_create'), management: true, page: NewUsersPage },
  { path: '/usermanagement/update/:id', title: 'Update User', gate: perm('usermanagement_update'), management: true, page: UpdateUserPage },
  // Not for a customerViewer (an invoice covers the whole billing account)
  { path: '/billing/reconcile', title: 'Reconcile with invoice', gate: all(perm('billing_*'), any(role('admin'), role('customer'))), page: ReconcilePage },
  { path: '/billing/alerts', title: 'Billing Alerts', gate: perm('alerts_*'), page: AlertsPage },
  { path: '/billing/viewers', title: 'Billing Viewers', gate: perm('alerts_*'), page: ViewersPage },
  // The provider's own console, across every customer (docs/decisions-operations.md)
  { path: '/operations', title: 'Operations', gate: isAdmin, page: OperationsPage },
  { path: '/operations/spend', title: 'All customers’ spend', gate: isAdmin, page: SpendPage },
  { path: '/logout', title: 'Logout', gate: signedIn, page: LogoutPage },
];

const MANAGEMENT_PREFIXES = ['/entitymanagement', '/customermanagement', '/usermanagement', '/operations'];

/** True on the management pages, where the customer and billing account pickers are hidden. */
export function isManagementPath(path: string): boolean {
  return MANAGEMENT_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

export interface MenuItem {
  title: string;
  path: string;
  icon: Icon;
  /** Shown only when the user holds the permission and the selected customer has the feature (spec 001 §2.2). */
  gate: Gate;
  /** Shown after the title (the Operations item's count of open items). */
  trailing?: ComponentType;
  /** Other paths under which this item is the current one. */
  alsoCurrentFor?: readonly string[];
}

/** The side menu, in the order of spec 001 §2.2. */
export const MENU: readonly MenuItem[] = [
  { title: 'Operations', path: '/operations', icon: InboxIcon, gate: isAdmin, trailing: OperationsBadge },
  { title: 'Billing', path: '/', icon: CreditCardIcon, gate: perm('billing_*'), alsoCurrentFor: ['/billing'] },
  { title: 'Anomaly Detection', path: '/anomalydetection', icon: AlertIcon, gate: all(perm('billing_*'), flag('anomaly_detection')) },
  { title: 'System Health', path: '/systemhealth', icon: PulseIcon, gate: all(perm('systemhealth_*'), flag('system_health_dashboard')) },
  { title: 'Workspace License', path: '/workspacelicense', icon: KeyIcon, gate: flag('workspace_license') },
  { title: 'Inventory', path: '/inventory', icon: PackageIcon, gate: all(perm('inventory_*'), flag('inventory')) },
  { title: 'Project Provisioning', path: '/projectprovisioning', icon: RepoIcon, gate: all(perm('projectprovisioning_create'), hasTemplates) },
  {
    title: 'Rapid Architecture Ticket',
    path: '/supportrequest',
    icon: CommentDiscussionIcon,
    gate: any(all(perm('supportrequest_read'), flag('support_request')), isAdmin),
  },
  { title: 'Playbook', path: '/playbook', icon: BookIcon, gate: all(perm('playbook_*'), flag('documentation')) },
  { title: 'Entity Management', path: '/entitymanagement', icon: OrganizationIcon, gate: perm('entitymanagement_read') },
  { title: 'Customer Settings', path: '/customermanagement/view', icon: GearIcon, gate: all(role('customer'), perm('customermanagement_read')) },
  { title: 'Customer Management', path: '/customermanagement', icon: BriefcaseIcon, gate: all(isAdmin, perm('customermanagement_read')) },
  { title: 'User Management', path: '/usermanagement', icon: PeopleIcon, gate: perm('usermanagement_read') },
];

/** Is `item` the page at `location` (its own path or below it)? */
export function isCurrentMenuItem(item: MenuItem, location: string): boolean {
  const roots = [item.path, ...(item.alsoCurrentFor ?? [])];
  return roots.some((root) => (root === '/' ? location === '/' : location === root || location.startsWith(`${root}/`)));
}
