/** Shown when the keychain cannot be used: profiles still work, but keys and secrets cannot be stored. */
export function KeychainBanner({ problem }: { problem: string }) {
  return (
    <div className="banner banner--warning" role="alert" data-testid="keychain-banner">
      <strong>Keychain problem</strong>
      <p data-testid="keychain-problem">{problem}</p>
      <p>
        Until this is fixed, API keys and secrets cannot be saved or used. Everything else keeps working,
        including the demo workspace.
      </p>
    </div>
  );
}
