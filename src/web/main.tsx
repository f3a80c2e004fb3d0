import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SessionProvider } from './app/session';
import { ErrorBoundary } from './components/error-boundary';
import { ThemeProvider } from './components/theme';
import { Toaster } from './components/toaster';
import { createQueryClient } from './lib/query-client';
import { router } from './app/router';
import './styles.css';

/** Platform §8: unhandled rejections and script errors are logged, never shown. */
window.addEventListener('unhandledrejection', (event) => {
  console.warn('Unhandled rejection', event.reason);
  event.preventDefault();
});

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <RouterProvider router={router} />
            <Toaster />
          </SessionProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </ErrorBoundary>
  </StrictMode>,
);
