import { Banner } from '@primer/react';
import { errorDetail } from './api-error.ts';

/**
 * A refused action, with the api's own reason (its `detail`: 'Read-only access', 'Amount must be at most 10'…) under
 * the screen's message, so the user learns why and not only that it failed.
 */
export function RefusalBanner({ title, error, onDismiss }: { title: string; error: unknown; onDismiss?: () => void }) {
  const detail = errorDetail(error);
  return <Banner variant="critical" title={title} description={detail ?? 'Please try again...'} onDismiss={onDismiss} data-testid="refusal" />;
}
