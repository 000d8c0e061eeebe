import type { Role } from '@cc/shared/permissions.ts';
import { useAppSelector } from './hooks.ts';
import { useCurrentCustomer } from './selection/useCustomerContext.ts';
import type { GateContext } from './route-types.ts';

const NO_PERMS: readonly string[] = [];

/** The claims and selected customer the route gates and menu read; `ready` once the customer is known. */
export function useGateContext(): { ctx: GateContext; ready: boolean } {
  const claims = useAppSelector((s) => s.session.claims);
  const { customer, isLoading } = useCurrentCustomer();
  return {
    ctx: {
      perms: claims?.perms ?? NO_PERMS,
      role: (claims?.role ?? 'customerViewer') as Role,
      admin: claims?.admin ?? false,
      customer,
    },
    ready: !isLoading,
  };
}
