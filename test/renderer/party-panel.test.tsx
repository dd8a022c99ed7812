// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from './render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHIPMENT_FIELDS, type ShipmentRecord } from '@shared/spec';
import { createFilterStore, filterStore } from '../../src/renderer/src/features/filters/filter-store';
import { openShipmentsOf } from '../../src/renderer/src/features/search/firm-shipments';
import { PartyPanel } from '../../src/renderer/src/features/search/party-panel';

afterEach(() => {
  cleanup();
  filterStore.getState().reset();
});

const row = {
  ...Object.fromEntries(SHIPMENT_FIELDS.map((f) => [f, ''])),
  hashId: 'h1',
  importerName: 'Acme Steel Imports',
  importerCountry: 'Germany',
  importerCountryCode: 'DE',
  importerUrlCode: '163glk11tws1',
  exporterName: 'Foo Exports',
  exporterCountry: 'India',
  exporterCountryCode: 'IN',
  exporterUrlCode: '',
} as unknown as ShipmentRecord;

/** Text that names a service field or operation (importer_firm, UrlCode, shipments.count). */
const API_WORDS = /\b[a-z]+_[a-z_]+\b|UrlCode|shipments\.count/;

describe('the shipment parties panel', () => {
  it('is a drawer named for what it shows; Escape closes it', () => {
    const onClose = vi.fn();
    render(<PartyPanel row={row} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Shipment parties' });
    // One heading names it (not a heading inside the drawer's own title heading).
    expect(within(dialog).getAllByRole('heading', { name: 'Shipment parties' })).toHaveLength(1);
    expect(within(dialog).getByTestId('party-importer-name').textContent).toBe('Acme Steel Imports');
    expect(within(dialog).getByTestId('party-importer-urlcode').textContent).toBe('163glk11tws1');
    expect(dialog.textContent).toContain('firm code');
    expect(dialog.textContent).not.toMatch(API_WORDS);
    // The exporter gives no firm code: it cannot be counted.
    expect((screen.getByTestId('party-exporter-count') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByTestId('party-importer-open'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });

  it('"Open its shipments" fills the Search filter with the name and closes the panel', () => {
    const onClose = vi.fn();
    render(<PartyPanel row={row} onClose={onClose} />);
    fireEvent.click(screen.getByTestId('party-importer-open'));
    expect(filterStore.getState().draft.importer_firm).toBe('Acme Steel Imports');
    expect(onClose).toHaveBeenCalled();
  });

  it('the notice of a firm’s shipments names the fields as the form labels them', () => {
    const store = createFilterStore();
    openShipmentsOf('importer', 'Acme Steel Imports', {
      store,
      within: {
        product_detail: 'steel',
        brand_name: 'Acme',
        hs_codes: ['7208'],
        firm_filter: [1],
        search_type: 'importer',
      },
    });
    const notice = store.getState().notice ?? '';
    expect(notice).toContain('this filter matches the importer name (Importer firm name)');
    expect(notice).toContain('Product description “steel”');
    expect(notice).toContain('Brand name “Acme”');
    expect(notice).toContain('HS codes 7208');
    expect(notice).not.toMatch(API_WORDS);
  });
});
