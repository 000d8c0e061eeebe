import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ErrorBoundary } from '../common/ErrorBoundary.tsx';
import { useLogErrorMutation } from './logsApi.ts';

// Limits of POST /v1/logs (resource 2000, type 200, body 256 KiB).
const MAX_RESOURCE = 2000;
const MAX_TYPE = 200;
const MAX_TEXT = 50_000;

/** A boundary that stores each crash (spec 000 §7) and clears on navigation. */
export function LoggingErrorBoundary({ children, padded }: { children: ReactNode; padded?: boolean }) {
  const [location] = useLocation();
  const [logError] = useLogErrorMutation();
  return (
    <ErrorBoundary
      padded={padded}
      resetKey={location}
      onError={({ error, componentStack }) => {
        void logError({
          resource: location.slice(0, MAX_RESOURCE),
          type: (error.name || 'Error').slice(0, MAX_TYPE),
          data: { message: error.message.slice(0, MAX_TEXT), componentStack: componentStack.slice(0, MAX_TEXT) },
        });
      }}
    >
      {children}
    </ErrorBoundary>
  );
}
