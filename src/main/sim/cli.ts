/**
 * `PORTOLAN_SIM_API_SECRET=… npm run sim -- --port 8787 --records 200000 --seed 7 --api-key KEY`
 * Runs the simulator until SIGINT/SIGTERM. Flags: see USAGE_TEXT or docs/simulator.md.
 */
import { parseCli, USAGE_TEXT } from './cli-options';
import { startSimulator } from './server';

async function main(): Promise<void> {
  let setup;
  try {
    setup = parseCli(process.argv.slice(2));
  } catch (e) {
    console.error(`sim: ${(e as Error).message}\n\n${USAGE_TEXT}`);
    process.exit(2);
  }
  if (setup.help) {
    console.log(USAGE_TEXT);
    return;
  }
  const started = Date.now();
  const sim = await startSimulator(setup.options);
  const generated = new Set(setup.generated.map((a) => a.apiKey));
  console.log(`Trade service simulator listening on ${sim.url}`);
  console.log(
    `  ${sim.dataset.size} shipment records, ${sim.dataset.firms.length} firms, seed ${setup.options.seed ?? 1} (ready in ${Date.now() - started} ms)`,
  );
  for (const a of sim.accounts) {
    // A secret the user chose is not echoed; one the simulator made up must be shown to be usable.
    const secret = generated.has(a.apiKey)
      ? `API secret: ${a.apiSecret}`
      : 'API secret: the one you configured';
    console.log(`  account "${a.name}": API key: ${a.apiKey}  ${secret}`);
  }
  if (setup.options.asOf) {
    const grow = setup.options.grow;
    console.log(
      `  data as published on ${setup.options.asOf}` +
        (grow ? `, ${grow.days} more day(s) every ${grow.everySeconds} s` : ''),
    );
  }
  if (setup.options.faults) console.log(`  faults: ${JSON.stringify(setup.options.faults)}`);
  console.log('Ctrl-C stops it.');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(`sim: ${(e as Error).message}`);
  process.exit(1);
});
