import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function CustomerSettingsPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
