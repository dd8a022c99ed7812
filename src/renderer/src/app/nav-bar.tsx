import { useAppStore } from './app-store';
import { PAGES } from './pages';

export function NavBar() {
  const page = useAppStore((s) => s.page);
  const navigate = useAppStore((s) => s.navigate);
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
