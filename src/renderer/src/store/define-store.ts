import { create, type StoreApi, type UseBoundStore } from 'zustand';

/** What every store of the renderer has besides its own state and actions. */
export interface Resettable {
  /** Back to `initialState`, as at start (a test's clean slate, or a new session). */
  reset(): void;
}

export type Store<T> = UseBoundStore<StoreApi<T & Resettable>> & {
  /** The state a new store starts from and `reset()` returns to. */
  readonly initialState: Readonly<T>;
};

type SetState<T> = StoreApi<T & Resettable>['setState'];
type GetState<T> = StoreApi<T & Resettable>['getState'];

export interface StoreTools {
  /** Registers what `reset()` must clear besides the state: caches and counters an action factory keeps to itself. */
  onReset(clear: () => void): void;
}

const registry = new Set<() => void>();

/**
 * The renderer's one store idiom: state and actions in one zustand store, an `initialState` it starts
 * from, and `reset()`. Components read it with selectors (`useX((s) => s.field)`); actions run outside
 * React as `useX.getState().action()`. The bridge is read inside actions (`getApi()`), never when the
 * module loads, and a store reacts to other stores only through a `connect…` function the app calls.
 */
export function defineStore<S extends object, A extends object>(
  initialState: S,
  actions: (set: SetState<S & A>, get: GetState<S & A>, tools: StoreTools) => A,
): Store<S & A> {
  const clears: (() => void)[] = [];
  const tools: StoreTools = { onReset: (clear) => clears.push(clear) };
  const store = create<S & A & Resettable>()((set, get) => ({
    ...initialState,
    ...actions(set, get, tools),
    reset() {
      for (const clear of clears) clear();
      set({ ...initialState } as Partial<S & A & Resettable>);
    },
  }));
  registry.add(() => store.getState().reset());
  return Object.assign(store, { initialState: initialState as S & A });
}

/** Every store back to its initial state (tests, between cases). */
export function resetAllStores(): void {
  for (const reset of registry) reset();
}
