import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App, queryClient } from './App';
import { fetchMe, ME_KEY } from './features/auth/session';
import { preloadFirstScreen } from './routes';
import { appContainer } from './first-screen/takeover';

// The session and the first screen's code load with the translations, not after them (issue 30 item 5);
// index.html preloads the session and the English tree already (vite.config.ts firstLoadHints).
void queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 });
preloadFirstScreen(window.location.pathname);

void initI18n().then(() => {
  // with a prerendered first screen in the page, the app takes its place once it shows the same (first-screen/takeover.ts)
  createRoot(appContainer()).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
