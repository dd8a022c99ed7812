import { describe, expect, it } from 'vitest';
import { checkTags, uniqueTags } from '@shared/library/dataset-fields';
import { libraryCalls } from '@shared/library/library-contract';
import { useLibrary } from '../helpers/library';
import { shipment } from './helpers';

const store = useLibrary('portolan-lib-test-');

describe('tags', () => {
  it('drop case duplicates, keeping the first spelling', () => {
    expect(uniqueTags(['steel', ' Steel', 'STEEL ', 'q1', '', 'Q1'])).toEqual(['steel', 'q1']);
  });

  it('are stored without case duplicates by the library too', async () => {
    const d = await store.lib.saveShipmentSearch(
      { exporter_countries: ['DE'], size: 10 },
      { total: 1, shipments: [shipment(1)] },
    );
    expect((await store.lib.setTags(d.id, ['Steel', 'steel', ' STEEL ', 'q1'])).tags).toEqual([
      'Steel',
      'q1',
    ]);
  });

  it('are refused in plain words when too long or too many', () => {
    expect(checkTags(['x'.repeat(101)])).toMatch(/^A tag can be at most 100 characters/);
    expect(checkTags(Array.from({ length: 51 }, (_, i) => `t${i}`))).toMatch(/^At most 50 tags/);
    expect(checkTags(['steel', 'x'.repeat(100)])).toBeNull();
    const tooMany = libraryCalls['library.setTags'].input.safeParse({
      id: 'a',
      tags: Array.from({ length: 51 }, (_, i) => `t${i}`),
    });
    expect(tooMany.error?.issues[0]?.message).toBe('At most 50 tags');
    const tooLong = libraryCalls['library.setTags'].input.safeParse({ id: 'a', tags: ['x'.repeat(101)] });
    expect(tooLong.error?.issues[0]?.message).toBe('A tag can be at most 100 characters');
  });
});
