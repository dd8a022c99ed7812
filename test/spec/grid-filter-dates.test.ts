import { describe, expect, it } from 'vitest';
import { filterModelSchema } from '@shared/library/library-contract';
import { isGridDate } from '@shared/library/grid-filter';
import { nullLogger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { createDispatcher, createHandlers } from '../../src/main/handlers';
import { useTempDir } from '../helpers/temp-dir';

const tmp = useTempDir('portolan-grid-dates-');

const dateFilter = (dateFrom: string, dateTo?: string) => ({
  arrivalDate: { filterType: 'date', type: dateTo ? 'inRange' : 'equals', dateFrom, dateTo },
});

describe('grid filter dates', () => {
  it.each([
    '2024-02-29',
    '2024-02-29 00:00:00',
    '2023-12-31 23:59:59',
    '2024-01-01T10:30',
    '1999-06-15 12:00:00.250',
  ])('accepts the real date %s', (d) => {
    expect(isGridDate(d)).toBe(true);
    expect(filterModelSchema.safeParse(dateFilter(d)).success).toBe(true);
  });

  it.each([
    '2024-13-45',
    '2024-13-45 00:00:00',
    '2023-02-29',
    '2024-04-31',
    '2024-00-10',
    '2024-01-01 24:00:00',
    '2024-01-01 10:60:00',
    '2024-01-01 10:00:61',
    '2024-1-1',
    '2024-01-01 ::::',
  ])('refuses the impossible date %s at the schema', (d) => {
    expect(isGridDate(d)).toBe(false);
    const parsed = filterModelSchema.safeParse(dateFilter('2024-01-01', d));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('a real date, as yyyy-MM-dd');
  });

  it('reaches the analyst as InvalidInput at the field, not as an internal error', async () => {
    const handlers = createHandlers({
      dataDir: tmp.dir,
      resourcesDir: tmp.dir,
      logger: nullLogger,
      events: { emit: () => undefined },
      secrets: createMemorySecretStore(),
      appInfo: { version: '0.0.0-test', host: 'browser' },
    });
    try {
      const dispatch = createDispatcher<'app'>({ handlers, logger: nullLogger, isTrustedSender: () => true });
      const r = await dispatch(
        'library.getRows',
        { id: 'any', startRow: 0, endRow: 10, filterModel: dateFilter('2024-13-45') },
        'app',
      );
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'InvalidInput', issues: [{ path: 'filterModel.arrivalDate.dateFrom' }] },
      });
    } finally {
      await handlers.dispose();
    }
  });
});
