import { useSessionStore } from '../../session';
import { AppearanceSection } from './appearance-section';
import { KeychainBanner } from './keychain-banner';
import { ProfileCard } from './profile-card';
import { ProfileForm } from './profile-form';
import { useSettingsStore } from './settings-store';

export function SettingsPage() {
  const profiles = useSessionStore((s) => s.profiles);
  const activeId = useSessionStore((s) => s.activeId);
  const keychainProblem = useSessionStore((s) => s.keychainProblem);
  const activeError = useSettingsStore((s) => s.activeError);
  const editorOpen = useSettingsStore((s) => s.editor.mode === 'create');
  const openCreate = useSettingsStore((s) => s.openCreate);
  return (
    <section className="page settings-page" data-testid="settings-page" aria-labelledby="settings-title">
      <header className="page__header">
        <h1 id="settings-title">Settings</h1>
      </header>
      {keychainProblem ? <KeychainBanner problem={keychainProblem} /> : null}
      <div className="section-head">
        <div>
          <h2>Connection profiles</h2>
          <p className="muted">
            Each profile is one service address and account. Keys and secrets are kept in the system keychain,
            never in Portolan&apos;s files.
          </p>
        </div>
        <button
          type="button"
          className="button button--primary"
          onClick={openCreate}
          disabled={editorOpen}
          data-testid="profile-new"
        >
          New profile
        </button>
      </div>
      <ProfileForm />
      {activeError ? <div className="message message--error">{activeError}</div> : null}
      {profiles.length === 0 ? (
        <p className="empty" data-testid="profiles-empty">
          No profiles yet. Create one with the address of the service and your API key and secret.
        </p>
      ) : (
        <ul className="profile-list" data-testid="profile-list">
          {profiles.map((p) => (
            <ProfileCard key={p.id} profile={p} active={p.id === activeId} />
          ))}
        </ul>
      )}
      <AppearanceSection />
    </section>
  );
}
