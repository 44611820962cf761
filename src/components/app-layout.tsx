import { lazy, type MouseEvent, type ReactNode } from 'react';
import { Link, NavLink, useNavigation } from 'react-router-dom';

import { paths } from '../lib/paths.ts';
import { loadingChunk, OptionalPart } from './optional-part.tsx';

// Shown only once an answer was a 401, which comes after the first paint: loaded right after it.
const AuthBanner = lazy(
  loadingChunk(() =>
    import('./auth-banner.tsx').then((module) => ({ default: module.AuthBanner })),
  ),
);

export interface AppLayoutProps {
  /** Shown under the "Views" entry of the navigation (the list of saved views). */
  views?: ReactNode;
  /** The search field, at the top of the sidebar. */
  search?: ReactNode;
  children: ReactNode;
}

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  // Move focus without a hash navigation (the router would treat it as one).
  event.preventDefault();
  document.getElementById('main')?.focus();
}

const navClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'nav__link nav__link--active' : 'nav__link';

/**
 * The app shell: skip link, sidebar navigation, token banner and the `<main>` landmark (busy while
 * a route loads; the visible progress bar is the lazily loaded `BusyIndicator`).
 */
export function AppLayout({ views, search, children }: AppLayoutProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={focusMain}>
        Skip to content
      </a>
      <header className="sidebar">
        <Link to={paths.home()} className="brand">
          Folio
        </Link>
        {search}
        <nav className="nav" aria-label="Main">
          <ul className="nav__list">
            <li>
              <NavLink to={paths.home()} className={navClass} end>
                Library
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.views()} className={navClass} end>
                Views
              </NavLink>
              {views}
            </li>
            <li>
              <NavLink to={paths.highlights()} className={navClass}>
                Highlights
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.upload()} className={navClass}>
                Upload
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.settings()} className={navClass}>
                Settings
              </NavLink>
            </li>
          </ul>
        </nav>
      </header>
      <div className="app__content">
        <OptionalPart>
          <AuthBanner />
        </OptionalPart>
        <main id="main" className="main" tabIndex={-1} aria-busy={busy}>
          {children}
        </main>
      </div>
    </div>
  );
}
