import { ErrorMessage } from '../components/error-message';
import { selectShowWelcome, useSessionStore } from '../session';
import { NavBar } from './nav-bar';
import { PageView } from './page-view';
import { StatusBar } from './status-bar';
import { useAppBoot } from './use-app-boot';
import { WelcomeScreen } from './welcome-screen';

export function App() {
  useAppBoot();
  const booted = useSessionStore((s) => s.booted);
  const bootError = useSessionStore((s) => s.bootError);
  const showWelcome = useSessionStore(selectShowWelcome);
  const page = useSessionStore((s) => s.page);
  if (!booted) {
    return (
      <div className="loading" data-testid="app-loading">
        Loading…
      </div>
    );
  }
  if (showWelcome && !bootError) return <WelcomeScreen />;
  return (
    <div className="shell" data-testid="app-shell" data-page={page}>
      <NavBar />
      <main className="shell__main" data-testid="page-container">
        {bootError ? <ErrorMessage error={bootError} testId="boot-error" /> : null}
        <PageView page={page} />
      </main>
      <StatusBar />
    </div>
  );
}
