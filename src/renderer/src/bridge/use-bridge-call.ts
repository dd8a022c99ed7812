import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';

export interface BridgeCallState<T> {
  value: T | null;
  error: BridgeError | null;
  loading: boolean;
}

/**
 * Wraps one bridge call with loading / error / value state. Only the latest run updates the state,
 * so a slow earlier answer cannot overwrite a newer one.
 */
export function useBridgeCall<A extends unknown[], T>(
  call: (...args: A) => Promise<BridgeResult<T>>,
): BridgeCallState<T> & { run: (...args: A) => Promise<BridgeResult<T>>; reset: () => void } {
  const [state, setState] = useState<BridgeCallState<T>>({ value: null, error: null, loading: false });
  const seq = useRef(0);
  const callRef = useRef(call);
  useEffect(() => {
    callRef.current = call;
  }, [call]);

  const run = useCallback(async (...args: A) => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    const result = await callRef.current(...args);
    if (mine === seq.current) {
      setState(
        result.ok
          ? { value: result.value, error: null, loading: false }
          : { value: null, error: result.error, loading: false },
      );
    }
    return result;
  }, []);

  const reset = useCallback(() => {
    seq.current += 1;
    setState({ value: null, error: null, loading: false });
  }, []);

  return { ...state, run, reset };
}
