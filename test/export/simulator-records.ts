import { generateAccount, startSimulator } from '../../src/main/sim';

/**
 * The first `n` records of the simulator's data for `seed`, as the service answers them: the real
 * shapes and fillers that the round-trip tests push through a file and read back.
 */
export async function simulatorRecords(n: number, seed: number): Promise<Record<string, string>[]> {
  const sim = await startSimulator({ port: 0, records: n, seed, accounts: [generateAccount('rt')] });
  try {
    return [...sim.dataset.records()].slice(0, n) as Record<string, string>[];
  } finally {
    await sim.close();
  }
}
