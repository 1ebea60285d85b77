import {
  combineReducers,
  configureStore,
  createListenerMiddleware,
  isRejectedWithValue,
} from '@reduxjs/toolkit';
import { notifications } from '@mantine/notifications';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistReducer, persistStore } from 'redux-persist';
import { api } from '../api/api';
import { authReducer, loggedOut } from '../api/authSlice';
import type { ApiError } from '../api/errors';
import { startSessionSync } from '../api/session';
import type { AppDispatch as SharedDispatch, AppState } from '../lib/hooks';

const rootReducer = combineReducers({
  auth: authReducer,
  [api.reducerPath]: api.reducer,
});

// redux-persist's async storage interface over localStorage (its own adapter
// module is CommonJS and loses its default export when bundled as ESM).
const storage = {
  getItem: (key: string) => Promise.resolve(localStorage.getItem(key)),
  setItem: (key: string, value: string) => Promise.resolve(localStorage.setItem(key, value)),
  removeItem: (key: string) => Promise.resolve(localStorage.removeItem(key)),
};

// Persisted under the key `root`, only `auth`, giving up waiting after 5 s.
const persistedReducer = persistReducer({ key: 'root', storage, whitelist: ['auth'], timeout: 5000 }, rootReducer);

const listener = createListenerMiddleware();

// A failed mutation shows as a toast with the server's detail, unless the
// endpoint displays its errors itself (quiet), or it was a 401 (logout follows).
listener.startListening({
  predicate: (action) => isRejectedWithValue(action) && (action.meta as { arg?: { type?: string } }).arg?.type === 'mutation',
  effect: (action) => {
    const error = (action as { payload?: ApiError }).payload;
    if (!error || error.quiet) return;
    notifications.show({ color: 'red', title: error.title, message: error.detail });
  },
});

// Nothing of the previous user's data may survive a logout.
listener.startListening({
  actionCreator: loggedOut,
  effect: (_action, listenerApi) => {
    listenerApi.dispatch(api.util.resetApiState());
  },
});

export const store = configureStore({
  reducer: persistedReducer,
  middleware: (getDefault) =>
    getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } })
      .prepend(listener.middleware)
      .concat(api.middleware),
}) satisfies { getState: () => AppState; dispatch: SharedDispatch }; // what lib/hooks.ts types the shared code with

export const persistor = persistStore(store);

startSessionSync(store.dispatch);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
