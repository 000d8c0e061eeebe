import { Link } from 'wouter';
import { Page, PageMessage } from './Page.tsx';

/** A screen of the route table that is not built yet: never a blank page. */
export function NotAvailablePage({ title }: { title: string }) {
  return (
    <Page title={title}>
      <PageMessage>Not available yet</PageMessage>
    </Page>
  );
}

/** A route whose gate the user does not pass (spec 001 §2.1). */
export function NoAccessPage({ title }: { title: string }) {
  return (
    <Page title={title}>
      <PageMessage>You do not have access to this page</PageMessage>
    </Page>
  );
}

/** A screen whose feature is off for the selected customer (spec 000 §2, 001 §2.11). */
export function FeatureDisabledPage({ title, text }: { title: string; text: string }) {
  return <Page title={title} subtitle={text} />;
}

/** Any path outside the route table (spec 001 §2.1, §8). */
export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <PageMessage>The page you are looking for is not here. Use the navigation to find your way.</PageMessage>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </Page>
  );
}
