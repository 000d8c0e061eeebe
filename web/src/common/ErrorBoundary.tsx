import { Component, type ErrorInfo, type ReactNode } from 'react';
import { MESSAGES } from '@cc/shared/constants.ts';
import { useLocation } from 'wouter';
import { useLogErrorMutation } from '../features/logs/logsApi.ts';
import { Page, PageMessage } from './Page.tsx';
import styles from './Page.module.css';

export interface CrashReport {
  error: Error;
  componentStack: string;
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called once per crash, e.g. to store it. */
  onError?: (report: CrashReport) => void;
  /** When this changes (e.g. the path), the boundary clears and renders its children again. */
  resetKey?: string;
  /** Pad the message: for a boundary outside the content area, which pads its own children. */
  padded?: boolean;
}

interface ErrorBoundaryState {
  crashed: boolean;
}

/** Catches a render crash below it and shows 'Something went wrong / Please try again...' (spec 000 §8). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { crashed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const err = error instanceof Error ? error : new Error(String(error));
    this.props.onError?.({ error: err, componentStack: info.componentStack ?? '' });
  }

  override componentDidUpdate(prev: ErrorBoundaryProps): void {
    if (this.state.crashed && prev.resetKey !== this.props.resetKey) this.setState({ crashed: false });
  }

  override render(): ReactNode {
    if (this.state.crashed) return <CrashMessage padded={this.props.padded} />;
    return this.props.children;
  }
}

function CrashMessage({ padded = false }: { padded?: boolean }) {
  return (
    <div className={padded ? styles.padded : undefined}>
      <Page title={MESSAGES.somethingWrong}>
        <PageMessage>{MESSAGES.tryAgain}</PageMessage>
      </Page>
    </div>
  );
}

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
