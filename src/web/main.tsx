import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SessionProvider } from './app/session';
import { ErrorBoundary } from './components/error-boundary';
import { ThemeProvider } from './components/theme';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './app/router';
import './styles.css';

/** Platform §8: unhandled rejections and script errors are logged, never shown. */
window.addEventListener('unhandledrejection', (event) => {
  console.warn('Unhandled rejection', event.reason);
  event.preventDefault();
});

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// sonner is not needed to paint the first screen: it loads beside the first route (initial JS budget, decision 0044)
const Toaster = lazy(() => import('./components/toaster').then((m) => ({ default: m.Toaster })));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <RouterProvider router={router} />
            <Suspense fallback={null}>
              <Toaster />
            </Suspense>
          </SessionProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </ErrorBoundary>
  </StrictMode>,
);
