import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { api } from './api.ts';
import { sessionEnded, sessionSlice, tokenIssued, type SessionState } from '../features/session/sessionSlice.ts';
import { removeSessionHint, saveSessionHint } from '../features/session/token-storage.ts';
import { selectionSlice } from './selection/selectionSlice.ts';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [sessionSlice.name]: sessionSlice.reducer,
  [selectionSlice.name]: selectionSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Side effects of session events: the session hint (no token) in localStorage, caches dropped on sign-out. */
function sessionListeners() {
  const listeners = createListenerMiddleware();
  listeners.startListening({
    actionCreator: tokenIssued,
    effect: (action) => saveSessionHint(action.payload.claims, action.payload.expiresIn),
  });
  listeners.startListening({
    actionCreator: sessionEnded,
    effect: (_action, { dispatch }) => {
      // Only the hint: a sign-out (LogoutPage) clears the rest; an expired session keeps settings.
      removeSessionHint();
      // The next user must not see the previous user's cached answers.
      dispatch(api.util.resetApiState());
    },
  });
  return listeners.middleware;
}

/** A fresh store; tests pass their own preloaded session. */
export function setupStore(preloaded?: { session?: SessionState }) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloaded,
    middleware: (getDefault) => getDefault().prepend(sessionListeners()).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
