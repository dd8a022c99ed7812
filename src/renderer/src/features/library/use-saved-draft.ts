import { useState } from 'react';

interface DraftState {
  draft: string;
  /** The saved value the draft was last reconciled with. */
  base: string;
  /** What was last sent to be saved, until the saved value changes. */
  submitted: string | null;
}

/**
 * A field's text being edited over a value saved in the library. When the saved value changes (this
 * field's own save, normalised by main, or a change made elsewhere), the draft follows it only if it
 * was not being edited or was just what was sent: saving the tags must not wipe notes typed meanwhile.
 */
export function useSavedDraft(saved: string): {
  value: string;
  change(text: string): void;
  /** Call when the draft is sent to be saved, so the saved (normalised) value replaces it. */
  submit(): void;
} {
  const [state, setState] = useState<DraftState>({ draft: saved, base: saved, submitted: null });
  let current = state;
  if (state.base !== saved) {
    // Adjusting state while rendering (React's pattern for following a prop) avoids a frame showing
    // the stale draft.
    const follow = state.draft === state.base || state.draft === state.submitted;
    current = { draft: follow ? saved : state.draft, base: saved, submitted: null };
    setState(current);
  }
  return {
    value: current.draft,
    change: (text) => setState((s) => ({ ...s, draft: text })),
    submit: () => setState((s) => ({ ...s, submitted: s.draft })),
  };
}
