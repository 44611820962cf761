import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';

import { paths } from '../../../lib/paths.ts';
import { listViewsOptions } from '../api/list-views.ts';

/** The saved views as sidebar links; silent while loading or failing (pages show the errors). */
export function ViewsNav() {
  const { data: views } = useQuery(listViewsOptions());
  if (!views?.length) return null;
  return (
    <ul className="nav__sublist" aria-label="Saved views">
      {views.map((view) => (
        <li key={view.id}>
          <NavLink
            to={paths.view(view.id)}
            dir="auto"
            className={({ isActive }) => (isActive ? 'nav__link nav__link--active' : 'nav__link')}
          >
            {view.title || 'Untitled view'}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
