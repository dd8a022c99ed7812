import type { ProfileView } from '@shared/profiles/profiles-contract';
import { TextField } from '../../components/text-field';
import { useSettingsStore } from './settings-store';

/** Sets or replaces a profile's key and secret. Neither is ever read back: the inputs start empty. */
export function CredentialsForm({ profile }: { profile: ProfileView }) {
  const creds = useSettingsStore((s) => s.credentials);
  const errors = useSettingsStore((s) => s.credentialErrors);
  const saving = useSettingsStore((s) => s.savingCredentials);
  const setField = useSettingsStore((s) => s.setCredentialField);
  const save = useSettingsStore((s) => s.saveCredentials);
  const close = useSettingsStore((s) => s.closeCredentials);
  const notice = useSettingsStore((s) => s.credentialsNotice);
  return (
    <form
      className="credentials-form"
      data-testid="credentials-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {notice ? (
        <p className="message message--warning" role="status" data-testid="credentials-notice">
          {notice}
        </p>
      ) : (
        <p className="muted">
          {profile.hasSecret
            ? 'Replace the stored key and secret.'
            : 'Enter the key and secret from the API tab of your account portal.'}
        </p>
      )}
      <div className="form-grid">
        <TextField
          label="API key"
          type="password"
          value={creds.apiKey}
          onChange={(v) => setField('apiKey', v)}
          testId="credentials-api-key"
          error={errors.apiKey}
          autoFocus
        />
        <TextField
          label="API secret"
          type="password"
          value={creds.apiSecret}
          onChange={(v) => setField('apiSecret', v)}
          testId="credentials-api-secret"
          error={errors.apiSecret}
        />
      </div>
      {errors[''] ? (
        <div className="message message--error" role="alert" data-testid="credentials-error">
          {errors['']}
        </div>
      ) : null}
      <div className="actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={saving}
          data-testid="credentials-save"
        >
          {saving ? 'Saving…' : 'Save to keychain'}
        </button>
        <button type="button" className="button" onClick={close} data-testid="credentials-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
