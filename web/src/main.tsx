import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BaseStyles } from '@primer/react';
import '@primer/primitives/dist/css/primitives.css';
import '@primer/primitives/dist/css/functional/themes/light.css';
import './global.css';
import { setupStore } from './app/store.ts';
import { App } from './app/App.tsx';
import { SnackbarProvider } from './common/Snackbar.tsx';
import { sessionFromHint } from './features/session/sessionSlice.ts';
import { loadSessionHint } from './features/session/token-storage.ts';
import { preloadLanding } from './app/preload.ts';
import { confirmSession } from './app/session-check.ts';

const hint = loadSessionHint();
const store = setupStore({ session: sessionFromHint(hint) });
// Before the first render: the session check, and beside it the billing home's data and code.
if (store.getState().session.status === 'checking') void confirmSession(store.dispatch, store.getState().session.epoch);
preloadLanding(store, window.location.pathname, hint);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      {/* Colours come from the primitives' CSS variables (data-color-mode on <html>); Primer's JS
          ThemeProvider only feeds the legacy theme object, about 300 kB we do not need. */}
      <BaseStyles>
        <SnackbarProvider>
          <App />
        </SnackbarProvider>
      </BaseStyles>
    </Provider>
  </StrictMode>,
);
