/** The message the api's callback page posts to its opener (`/v1/auth/oidc/callback`). */
interface OidcMessage {
  type: 'cc-oidc';
  /** The api set the session cookie; the token itself never reaches a script. */
  signedIn?: true;
  error?: string;
}

export type SocialSignInResult = { signedIn: true } | { error: string } | { cancelled: true };

const POPUP_FEATURES = 'popup=yes,width=480,height=640';

function isOidcMessage(data: unknown): data is OidcMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'cc-oidc';
}

/**
 * Opens the social provider's sign-in in a popup (spec 001 §1) and resolves with the sign-in the
 * callback page posts back, the provider's error, or `cancelled` when the popup is closed first.
 */
export function signInWithPopup(): Promise<SocialSignInResult> {
  return new Promise((resolve) => {
    const popup = window.open('/v1/auth/oidc/start', 'cc-oidc', POPUP_FEATURES);
    if (!popup) {
      resolve({ error: 'The sign-in window was blocked. Allow pop-ups for this site and try again.' });
      return;
    }
    let done = false;
    const finish = (result: SocialSignInResult) => {
      if (done) return;
      done = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(watch);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      // Only our own api's callback page may hand us a token.
      if (event.origin !== window.location.origin || !isOidcMessage(event.data)) return;
      if (event.data.signedIn) finish({ signedIn: true });
      else finish({ error: event.data.error ?? 'Sign-in failed' });
    };
    window.addEventListener('message', onMessage);
    // The message arrives before the popup closes itself; a popup closed without one was abandoned.
    const watch = window.setInterval(() => {
      if (popup.closed) window.setTimeout(() => finish({ cancelled: true }), 300);
    }, 500);
  });
}
