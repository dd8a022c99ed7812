import type { z } from 'zod';

/**
 * Declares one bridge call: its input schema as a value (checked in main on every call) and its output
 * type as a type argument. Each capability's contract file declares its calls with it; `ipc/contract.ts`
 * gathers them into the one map both hosts and the renderer are typed by.
 */
export function defineCall<O>() {
  return <I extends z.ZodType>(input: I) => ({ input, output: undefined as unknown as O });
}
