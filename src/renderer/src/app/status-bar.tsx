import { selectActiveProfile, useSessionStore, type ConnectionState } from '../session';

function describeConnection(c: ConnectionState): string {
  switch (c.status) {
    case 'unknown':
      return 'not checked';
    case 'checking':
      return 'checking…';
    case 'connected':
      return 'connected';
    case 'failed':
      return `failed: ${c.kind}`;
  }
}

export function StatusBar() {
  const profile = useSessionStore(selectActiveProfile);
  const connection = useSessionStore((s) => s.connection);
  const info = useSessionStore((s) => s.appInfo);
  const navigate = useSessionStore((s) => s.navigate);
  return (
    <footer className="status-bar" data-testid="status-bar">
      <button
        type="button"
        className="status-bar__profile"
        onClick={() => navigate('settings')}
        data-testid="status-profile"
      >
        {profile ? (
          <>
            Profile: <strong>{profile.name}</strong>
            {profile.demo ? ' (demo)' : ''}
          </>
        ) : (
          'No active profile'
        )}
      </button>
      {profile ? (
        <span
          className={`status-bar__connection status-bar__connection--${connection.status}`}
          data-testid="status-connection"
          data-status={connection.status}
          title={connection.status === 'failed' ? connection.message : undefined}
        >
          <span className="dot" aria-hidden="true" /> {describeConnection(connection)}
        </span>
      ) : null}
      <span className="status-bar__spacer" />
      {info ? (
        <span className="muted" data-testid="status-version">
          v{info.version} · {info.host}
        </span>
      ) : null}
    </footer>
  );
}
