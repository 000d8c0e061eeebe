import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function UpdateCustomerPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
