import type { PageProps } from '../../app/routes.ts';
import { NotAvailablePage } from '../../common/StatusPages.tsx';

export function NewEntityPage({ route }: PageProps) {
  return <NotAvailablePage title={route.title} />;
}
