import { Component, type ErrorInfo, type ReactNode } from 'react';
import { MESSAGES } from '@cc/shared/constants.ts';
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
