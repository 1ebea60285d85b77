import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/focus.css';
import './app/reflow.css';
// Chart styles are global: esbuild links only the entry's CSS, a lazy chunk's CSS would never load.
import '@mantine/charts/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { ChunkErrorNotice, installChunkErrorHandler } from './app/ChunkErrorNotice';
import { logoutIfIdleTooLong } from './app/idle';
import { createAppRouter } from './app/router';
import { persistor, store } from './app/store';
import { installComboboxKeys } from './lib/comboboxKeys';
import { cssVariables, theme } from './lib/theme';

installChunkErrorHandler();
installComboboxKeys();
const router = createAppRouter();

// Toasts last 5 seconds, at the foot of the menu column (app/focus.css), where nothing can be
// focused or clicked: at the top they covered the user menu, a page's action buttons or its
// filters for those seconds.
const TOAST_MS = 5000;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate persistor={persistor} onBeforeLift={() => logoutIfIdleTooLong(store.dispatch, store.getState)}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
          <ModalsProvider>
            <Notifications autoClose={TOAST_MS} position="bottom-left" containerWidth={240} />
            <ChunkErrorNotice />
            <RouterProvider router={router} />
          </ModalsProvider>
        </MantineProvider>
      </PersistGate>
    </Provider>
  </StrictMode>,
);
