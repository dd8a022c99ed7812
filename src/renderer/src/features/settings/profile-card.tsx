import type { ProfileView } from '@shared/profiles/profiles-contract';
import { CredentialsForm } from './credentials-form';
import { useSettingsStore } from './settings-store';
import { TestResult } from './test-result';

export function ProfileCard({ profile, active }: { profile: ProfileView; active: boolean }) {
  const test = useSettingsStore((s) => s.tests[profile.id]);
  const confirming = useSettingsStore((s) => s.confirmDeleteId === profile.id);
  const deleteError = useSettingsStore((s) => (s.confirmDeleteId === profile.id ? s.deleteError : null));
  const editingCreds = useSettingsStore((s) => s.credentialsFor === profile.id);
  const { openEdit, openCredentials, askDelete, cancelDelete, confirmDelete, setActive, testConnection } =
    useSettingsStore.getState();
  const canTest = profile.demo || (profile.apiKeyMasked !== null && profile.hasSecret);
  return (
    <li
      className={active ? 'profile-card profile-card--active' : 'profile-card'}
      data-testid="profile-card"
      data-profile-name={profile.name}
      data-profile-id={profile.id}
    >
      <div className="profile-card__head">
        <div>
          <h3 className="profile-card__name" data-testid="profile-card-name">
            {profile.name}
            {active ? (
              <span className="badge badge--accent" data-testid="profile-active-badge">
                Active
              </span>
            ) : null}
            {profile.demo ? <span className="badge">Demo</span> : null}
          </h3>
          <dl className="profile-card__facts">
            <dt>Address</dt>
            <dd data-testid="profile-card-base-url">{profile.baseUrl}</dd>
            <dt>Account</dt>
            <dd>{profile.accountName || <span className="muted">default</span>}</dd>
            <dt>API key</dt>
            <dd data-testid="profile-card-key">
              {profile.apiKeyMasked ?? <span className="muted">not set</span>}
            </dd>
            <dt>Secret</dt>
            <dd data-testid="profile-card-secret">
              {profile.hasSecret ? (
                profile.demo ? (
                  'generated for this session'
                ) : (
                  'stored in keychain'
                )
              ) : (
                <span className="muted">not set</span>
              )}
            </dd>
          </dl>
        </div>
        <div className="profile-card__actions">
          {!active ? (
            <button
              type="button"
              className="button"
              onClick={() => void setActive(profile.id)}
              data-testid="profile-set-active"
            >
              Use this profile
            </button>
          ) : null}
          <button
            type="button"
            className="button button--primary"
            disabled={!canTest || test?.status === 'running'}
            title={canTest ? undefined : 'Set the API key and secret first'}
            onClick={() => void testConnection(profile.id)}
            data-testid="profile-test"
          >
            Test connection
          </button>
          {!profile.demo ? (
            <>
              <button
                type="button"
                className="button"
                onClick={() => openCredentials(profile.id)}
                data-testid="profile-credentials"
              >
                {profile.hasSecret ? 'Replace key & secret' : 'Set key & secret'}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => openEdit(profile)}
                data-testid="profile-edit"
              >
                Edit
              </button>
            </>
          ) : null}
          <button
            type="button"
            className="button button--danger"
            onClick={() => askDelete(profile.id)}
            data-testid="profile-delete"
          >
            Delete
          </button>
        </div>
      </div>
      {confirming ? (
        <div
          className="confirm"
          role="alertdialog"
          aria-label={`Delete ${profile.name}`}
          data-testid="profile-delete-confirm"
        >
          <span>
            Delete <strong>{profile.name}</strong>? Its key and secret are removed from the keychain too.
          </span>
          <button
            type="button"
            className="button button--danger"
            onClick={() => void confirmDelete()}
            data-testid="profile-delete-yes"
          >
            Delete
          </button>
          <button type="button" className="button" onClick={cancelDelete} data-testid="profile-delete-no">
            Keep
          </button>
          {deleteError ? <div className="message message--error">{deleteError}</div> : null}
        </div>
      ) : null}
      {editingCreds ? <CredentialsForm profile={profile} /> : null}
      <TestResult state={test} accountName={profile.accountName} />
    </li>
  );
}
