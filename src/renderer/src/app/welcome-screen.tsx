import { ErrorMessage } from '../components/error-message';
import { useSessionStore } from '../session';

/** First run: no profile yet. Either try the built-in demo workspace or set up a real account. */
export function WelcomeScreen() {
  const demo = useSessionStore((s) => s.demo);
  const startDemo = useSessionStore((s) => s.startDemo);
  const connectAccount = useSessionStore((s) => s.connectAccount);
  return (
    <main className="welcome" data-testid="welcome-screen">
      <div className="welcome__card">
        <div className="welcome__logo" aria-hidden="true">
          ◈
        </div>
        <h1>Welcome to Portolan</h1>
        <p>
          Search international shipment records and trading firms, keep results in an offline library and
          export them to Excel, CSV or Parquet.
        </p>
        <div className="welcome__choices">
          <button
            type="button"
            className="choice"
            onClick={() => void startDemo()}
            disabled={demo.starting}
            data-testid="welcome-demo"
          >
            <strong>{demo.starting ? 'Starting the demo…' : 'Try with demo data'}</strong>
            <span>A local simulated service with generated records. No account needed.</span>
          </button>
          <button type="button" className="choice" onClick={connectAccount} data-testid="welcome-connect">
            <strong>Connect your account</strong>
            <span>Enter the service address and the API key and secret from your account portal.</span>
          </button>
        </div>
        {demo.error ? <ErrorMessage error={demo.error} testId="welcome-error" /> : null}
      </div>
    </main>
  );
}
