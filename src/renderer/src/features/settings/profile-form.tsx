import { TextField } from '../../components/text-field';
import { useSessionStore } from '../../session';
import { movesToAnotherServer, useSettingsStore } from './settings-store';

/** Create or edit a profile's metadata; on create the key and secret may be given at once. */
export function ProfileForm() {
  const editor = useSettingsStore((s) => s.editor);
  const draft = useSettingsStore((s) => s.draft);
  const errors = useSettingsStore((s) => s.draftErrors);
  const saving = useSettingsStore((s) => s.saving);
  const setField = useSettingsStore((s) => s.setDraftField);
  const save = useSettingsStore((s) => s.saveProfile);
  const close = useSettingsStore((s) => s.closeEditor);
  const saved = useSessionStore((s) =>
    editor.mode === 'edit' ? s.profiles.find((p) => p.id === editor.id) : undefined,
  );
  if (editor.mode === 'closed') return null;
  const losesCredentials =
    saved !== undefined && saved.hasSecret && movesToAnotherServer(saved, draft.baseUrl);
  const creating = editor.mode === 'create';
  return (
    <form
      className="panel profile-form"
      data-testid="profile-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>{creating ? 'New connection profile' : `Edit “${draft.name}”`}</h3>
      <div className="form-grid">
        <TextField
          label="Name"
          value={draft.name}
          onChange={(v) => setField('name', v)}
          testId="profile-name"
          error={errors.name}
          autoFocus
        />
        <TextField
          label="Service address"
          type="url"
          value={draft.baseUrl}
          onChange={(v) => setField('baseUrl', v)}
          testId="profile-base-url"
          error={errors.baseUrl}
          hint={
            losesCredentials
              ? 'This is another server: the saved API key and secret stay with the old one and are removed. You will be asked for them again.'
              : 'The base URL of the Trade Shipment and Firm Query Service, e.g. https://api.example.com'
          }
        />
        <TextField
          label="Account name (optional)"
          value={draft.accountName}
          onChange={(v) => setField('accountName', v)}
          testId="profile-account-name"
          error={errors.accountName}
        />
        {creating ? (
          <>
            <TextField
              label="API key (optional now)"
              type="password"
              value={draft.apiKey}
              onChange={(v) => setField('apiKey', v)}
              testId="profile-api-key"
              error={errors.apiKey}
            />
            <TextField
              label="API secret (optional now)"
              type="password"
              value={draft.apiSecret}
              onChange={(v) => setField('apiSecret', v)}
              testId="profile-api-secret"
              error={errors.apiSecret}
              hint="Stored in the system keychain only; it is never shown again."
            />
          </>
        ) : null}
      </div>
      {errors[''] ? (
        <div className="message message--error" role="alert" data-testid="profile-form-error">
          {errors['']}
        </div>
      ) : null}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={saving} data-testid="profile-save">
          {saving ? 'Saving…' : creating ? 'Create profile' : 'Save changes'}
        </button>
        <button type="button" className="button" onClick={close} data-testid="profile-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
