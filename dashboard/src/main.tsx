/**
 * The dashboard's entry: one QueryClient (server data, cached per workspace
 * session), the router, and the stylesheet. A 401 anywhere means the session
 * ended: the session is forgotten and the sign-in page shows.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api';
import { createAppRouter, preloadCurrentPage } from './router';
import { SESSION_KEY } from './session';
import './styles.css';

function onError(error: unknown) {
  if (error instanceof ApiError && error.status === 401) client.setQueryData(SESSION_KEY, null);
}

const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const router = createAppRouter(client);
preloadCurrentPage(router);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
