import { createRoot } from 'react-dom/client';

import { createQueryClient } from './api/query-client.ts';
import { App } from './app.tsx';
import { takeTokenFromFragment } from './features/connection/fragment-token.ts';
import { applyTheme, loadTheme } from './lib/theme.ts';
import { createRouter } from './routes/router.tsx';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/responsive.css';

// Before the first paint (no inline script: the CSP forbids them): the remembered colour theme.
applyTheme(loadTheme());
// Before the router reads the address: store a `#token=…` and take it out of the address bar.
takeTokenFromFragment();

const queryClient = createQueryClient();
const router = createRouter(queryClient);
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A `#token=…` address pasted into this open tab changes only the fragment (no reload): take the
// token then too, and load again what was refused without it.
window.addEventListener('hashchange', () => {
  if (!takeTokenFromFragment()) return;
  void queryClient.resetQueries();
  void router.revalidate();
});

createRoot(container).render(<App queryClient={queryClient} router={router} />);
