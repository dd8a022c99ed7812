import { useSessionStore } from '../session';
import { PAGES } from '../session';

export function NavBar() {
  const page = useSessionStore((s) => s.page);
  const navigate = useSessionStore((s) => s.navigate);
  return (
    <nav className="nav" aria-label="Main">
      <div className="nav__brand" aria-hidden="true">
        <span className="nav__logo">◈</span> Portolan
      </div>
      <ul>
        {PAGES.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              className={p.id === page ? 'nav__item nav__item--current' : 'nav__item'}
              aria-current={p.id === page ? 'page' : undefined}
              onClick={() => navigate(p.id)}
              data-testid={`nav-${p.id}`}
            >
              {p.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
