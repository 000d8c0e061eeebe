import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function ViewersPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
