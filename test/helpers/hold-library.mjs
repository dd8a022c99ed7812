// Another program holding a DuckDB file open (as a second Portolan or a script would): opens the file
// given on the command line, says "held" on its IPC channel, and keeps it until it is told to let go.
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(process.argv[2]);
process.send?.('held');
process.on('message', () => {
  instance.closeSync();
  process.exit(0);
});
