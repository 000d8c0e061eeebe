import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function AnomalyPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
