import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function UserListPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
