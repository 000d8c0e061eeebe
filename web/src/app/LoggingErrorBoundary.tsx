import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ErrorBoundary } from '../common/ErrorBoundary.tsx';
import { useLogErrorMutation } from './logsApi.ts';

// What POST /v1/logs keeps: resource 2000 and type 200 characters, and 16 KiB of data (more is stored truncated),
// so the message and the component stack are cut to fit in it instead of sending text the server drops.
const MAX_RESOURCE = 2000;
const MAX_TYPE = 200;
const MAX_TEXT = 8_000;

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
