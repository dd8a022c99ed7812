// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { FilterForm } from '../../src/renderer/src/features/filters/filter-form';
import { validateDraft } from '../../src/renderer/src/features/filters/filter-model';
import {
  createFilterStore,
  useFilter,
  type FilterStore,
} from '../../src/renderer/src/features/filters/filter-store';
import { RunButton } from '../../src/renderer/src/features/filters/run-button';

afterEach(cleanup);

/** The form and a run button wired the way the pages wire them, around a store of the test's own. */
function Harness({ store, size }: { store: FilterStore; size: number }) {
  const draft = useFilter((s) => s.draft, store);
  const typed = useFilter((s) => s.typed, store);
  const refused = useFilter((s) => s.refused, store);
  const v = validateDraft(draft, 'shipmentSearch', { size, typed, refused });
  return (
    <>
      <FilterForm validation={v} store={store} />
      <RunButton testId="run" label="Run" reason={v.reason} onRun={() => undefined} />
    </>
  );
}

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('filter form', () => {
  it('shows a keyword message at its field as the user types, and disables run with the reason', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('filter-product_detail-error')).toBeNull();

    type('filter-product_detail-input', 'st');
    expect(screen.getByTestId('filter-product_detail-error').textContent).toBe(
      'Product description: at least 3 characters',
    );
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('run-reason').textContent).toBe(
      'Cannot run: Product description: at least 3 characters',
    );

    type('filter-product_detail-input', 'ste');
    expect(screen.queryByTestId('filter-product_detail-error')).toBeNull();
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('run-reason')).toBeNull();
  });

  it('puts a bad HS code tag message under the HS field', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    for (const code of ['7208', '0901', '72a8']) {
      type('filter-hs_codes-input', code);
      fireEvent.keyDown(screen.getByTestId('filter-hs_codes-input'), { key: 'Enter' });
    }
    expect(screen.getByTestId('filter-hs_codes-error').textContent).toBe('HS codes: “72a8”: digits only');
    fireEvent.click(screen.getByTestId('filter-hs_codes-remove-2'));
    expect(screen.queryByTestId('filter-hs_codes-error')).toBeNull();
    expect(store.getState().draft.hs_codes).toEqual(['7208', '0901']);
  });

  it('flags a backwards date range at the end date', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    type('filter-start_date-input', '2024-06-01');
    type('filter-end_date-input', '2024-01-01');
    expect(screen.getByTestId('filter-end_date-error').textContent).toBe(
      'Date to: must not be before Date from',
    );
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
  });

  it('rejects an out-of-range size through the same run button', () => {
    render(<Harness store={createFilterStore()} size={20_000} />);
    expect(screen.getByTestId('run-reason').textContent).toBe(
      'Cannot run: Records to download: at most 10,000',
    );
  });

  it('finds HS codes by description and shows the description on the tag', async () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    const input = screen.getByTestId('filter-hs_codes-input');
    fireEvent.focus(input);
    type('filter-hs_codes-input', 'steel');
    const option = await screen.findByTestId('filter-hs_codes-option-7208', undefined, { timeout: 5000 });
    expect(option.textContent).toMatch(/flat-rolled/);
    fireEvent.mouseDown(option);
    expect(store.getState().draft.hs_codes).toEqual(['7208']);
    expect(screen.getByTestId('filter-hs_codes-tag-0').textContent).toMatch(/7208.*Iron or non-alloy steel/);
  });

  it('picks countries by name and shows names with their ISO codes', async () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    const input = screen.getByTestId('filter-importer_countries-input');
    fireEvent.focus(input);
    type('filter-importer_countries-input', 'germ');
    fireEvent.mouseDown(screen.getByTestId('filter-importer_countries-option-DE'));
    expect(store.getState().draft.importer_countries).toEqual(['DE']);
    const tags = screen.getByTestId('filter-importer_countries-tags');
    expect(within(tags).getByTestId('filter-importer_countries-tag-0').textContent).toMatch(/DE.*Germany/);
    await act(async () => undefined);
  });
});

describe('country and HS pickers: what may be added', () => {
  const enter = (testId: string, text: string) => {
    fireEvent.focus(screen.getByTestId(testId));
    type(testId, text);
    fireEvent.keyDown(screen.getByTestId(testId), { key: 'Enter' });
  };

  it('refuses a typed code that is not in the reference list, at the field, and keeps the text', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    enter('filter-importer_countries-input', 'zz');
    expect(store.getState().draft.importer_countries).toEqual([]);
    expect(screen.getByTestId('filter-importer_countries-refused').textContent).toBe(
      'ZZ is not a country code in the reference list: pick a country from the list, or ALL.',
    );
    expect((screen.getByTestId('filter-importer_countries-input') as HTMLInputElement).value).toBe('zz');
    // The text stays in the field, so the run waits for it: the field says why once, by the refusal.
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('filter-importer_countries-error')).toBeNull();
    enter('filter-importer_countries-input', 'de');
    expect(store.getState().draft.importer_countries).toEqual(['DE']);
    expect(screen.queryByTestId('filter-importer_countries-refused')).toBeNull();
  });

  it('text typed in a list field and not added blocks the run, in the form’s words, until it is added or cleared', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    type('filter-importer_countries-input', 'Germ');
    const message =
      'Importer countries: “Germ” is typed but not added: pick it from the list (or press Enter), or clear it';
    expect(screen.getByTestId('filter-importer_countries-error').textContent).toBe(message);
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('run-reason').textContent).toBe(`Cannot run: ${message}`);
    fireEvent.keyDown(screen.getByTestId('filter-importer_countries-input'), { key: 'Enter' });
    expect(store.getState().draft.importer_countries).toEqual(['DE']);
    expect((screen.getByTestId('filter-importer_countries-input') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);

    type('filter-hs_codes-input', 'steel');
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
    type('filter-hs_codes-input', '  ');
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);
  });

  it('Clear filter and a loaded preset empty the text typed in the list fields with the rest', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    type('filter-exporter_countries-input', 'Narnia');
    fireEvent.keyDown(screen.getByTestId('filter-exporter_countries-input'), { key: 'Enter' });
    type('filter-hs_codes-input', '84');
    fireEvent.click(screen.getByTestId('filter-reset'));
    expect((screen.getByTestId('filter-exporter_countries-input') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('filter-hs_codes-input') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('filter-exporter_countries-refused')).toBeNull();
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);

    type('filter-importer_countries-input', 'fra');
    act(() => store.getState().load({ exporter_countries: ['DE'] }));
    expect((screen.getByTestId('filter-importer_countries-input') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);
  });

  it('refuses a country name it does not know in the words typed, not as an upper-cased code', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    type('filter-importer_countries-input', 'Narnia');
    fireEvent.keyDown(screen.getByTestId('filter-importer_countries-input'), { key: 'Enter' });
    expect(store.getState().draft.importer_countries).toEqual([]);
    const refused = screen.getByTestId('filter-importer_countries-refused').textContent ?? '';
    expect(refused).toMatch(/^No country is called “Narnia”: pick a country from the list/);
    expect(refused).not.toContain('NARNIA');
    // The run bar says why by the refusal too: Enter would only refuse the text again.
    expect(screen.getByTestId('run-reason').textContent).toMatch(
      /^Cannot run: Importer countries: No country is called “Narnia”: pick a country from the list/,
    );
  });

  it('drops a refusal as soon as the typed text changes or is cleared: an error goes with its cause', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    enter('filter-exporter_countries-input', 'zz');
    expect(screen.getByTestId('filter-exporter_countries-refused')).toBeTruthy();
    type('filter-exporter_countries-input', '');
    expect(screen.queryByTestId('filter-exporter_countries-refused')).toBeNull();
    enter('filter-exporter_countries-input', 'zz');
    type('filter-exporter_countries-input', 'hollan');
    expect(screen.queryByTestId('filter-exporter_countries-refused')).toBeNull();
  });

  it('offers the United Kingdom for "uk", the Netherlands for "holland", and takes them with Enter', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    enter('filter-importer_countries-input', 'uk');
    enter('filter-importer_countries-input', 'holland');
    enter('filter-importer_countries-input', 'usa');
    enter('filter-importer_countries-input', 'uae');
    enter('filter-importer_countries-input', 'turkey');
    expect(store.getState().draft.importer_countries).toEqual(['GB', 'NL', 'US', 'AE', 'TR']);
  });

  it('Enter takes the highlighted country only: "ger" with Germany chosen adds nothing, never Algeria', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    const input = screen.getByTestId('filter-importer_countries-input') as HTMLInputElement;
    enter('filter-importer_countries-input', 'ger');
    expect(store.getState().draft.importer_countries).toEqual(['DE']);

    // Germany chosen: the list offers names that only contain "ger", none of them highlighted.
    fireEvent.focus(input);
    type('filter-importer_countries-input', 'ger');
    const options = screen.getByTestId('filter-importer_countries-options');
    expect(within(options).getByTestId('filter-importer_countries-option-DZ')).toBeTruthy();
    expect(within(options).queryAllByRole('option', { selected: true })).toEqual([]);
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(store.getState().draft.importer_countries).toEqual(['DE']);
    expect(screen.queryByTestId('filter-importer_countries-refused')).toBeNull();
    expect(input.value).toBe('');

    // A country only inside a name is taken once the analyst highlights it with the arrows.
    fireEvent.focus(input);
    type('filter-importer_countries-input', 'ger');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const highlighted = within(screen.getByTestId('filter-importer_countries-options')).getByRole('option', {
      selected: true,
    });
    expect(input.getAttribute('aria-activedescendant')).toBe(highlighted.id);
    const code = highlighted.getAttribute('data-value');
    expect(code).toBe('DZ');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(store.getState().draft.importer_countries).toEqual(['DE', 'DZ']);

    // "nig" starts Niger and Nigeria: the first is highlighted and Enter takes it; Up wraps to the last.
    fireEvent.focus(input);
    type('filter-importer_countries-input', 'nig');
    expect(
      within(screen.getByTestId('filter-importer_countries-options'))
        .getByRole('option', { selected: true })
        .getAttribute('data-value'),
    ).toBe('NE');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    const chosen = within(screen.getByTestId('filter-importer_countries-options'))
      .getByRole('option', { selected: true })
      .getAttribute('data-value');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(store.getState().draft.importer_countries).toEqual(['DE', 'DZ', chosen]);
  });

  it('keeps the less common fields under "More filters", and opens it by itself to show a message there', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    const more = screen.getByTestId('filter-more-toggle');
    expect(more.getAttribute('aria-expanded')).toBe('false');
    act(() => store.getState().setText('brand_name', 'ab'));
    expect(screen.getByTestId('filter-more-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('filter-brand_name-error').textContent).toBe(
      'Brand name: at least 3 characters',
    );
    act(() => store.getState().setText('brand_name', 'Acme'));
    // Fixed, the field stays where the analyst is working until they close the section.
    expect(screen.queryByTestId('filter-brand_name-error')).toBeNull();
    expect(screen.getByTestId('filter-more-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('filter-more-count').textContent).toBe('1');
    fireEvent.click(screen.getByTestId('filter-more-toggle'));
    expect(screen.getByTestId('filter-more-toggle').getAttribute('aria-expanded')).toBe('false');
  });

  it('takes ALL, the spec’s special value, as typed rather than a country whose name contains "all"', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    enter('filter-importer_countries-input', 'ALL');
    expect(store.getState().draft.importer_countries).toEqual(['ALL']);
    expect(screen.getByTestId('filter-importer_countries-tag-0').textContent).toMatch(/ALL.*All countries/);
    // An exact code beats a name match in the list too: "all" is inside "Marshall Islands".
    fireEvent.focus(screen.getByTestId('filter-exporter_countries-input'));
    type('filter-exporter_countries-input', 'all');
    const first = screen.getByTestId('filter-exporter_countries-options').querySelector('li');
    expect(first?.getAttribute('data-testid')).toBe('filter-exporter_countries-option-ALL');
    // Typing a code already picked adds nothing, not the first country whose name contains it.
    enter('filter-importer_countries-input', 'all');
    expect(store.getState().draft.importer_countries).toEqual(['ALL']);
  });

  it('flags an unknown code that came in with a loaded filter (a preset) at its field', () => {
    const store = createFilterStore();
    act(() => store.getState().load({ importer_countries: ['DE', 'ZZ'] }));
    render(<Harness store={store} size={100} />);
    expect(screen.getByTestId('filter-importer_countries-error').textContent).toBe(
      'Importer countries: ZZ is not a country code in the reference list',
    );
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(true);
  });

  it('refuses an 11th country and an 11th HS code with a message, and the list stays at 10', () => {
    const store = createFilterStore();
    render(<Harness store={store} size={100} />);
    const codes = ['DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'AT', 'PL', 'CZ', 'SE'];
    for (const c of codes) enter('filter-exporter_countries-input', c);
    expect(store.getState().draft.exporter_countries).toEqual(codes);
    enter('filter-exporter_countries-input', 'TR');
    expect(store.getState().draft.exporter_countries).toHaveLength(10);
    expect(screen.getByTestId('filter-exporter_countries').textContent).toContain('10 of 10');
    expect(screen.getByTestId('filter-exporter_countries-refused').textContent).toBe(
      'At most 10 exporter countries: remove one before adding TR.',
    );
    // Removing one makes room, and the message goes.
    fireEvent.click(screen.getByTestId('filter-exporter_countries-remove-0'));
    expect(screen.queryByTestId('filter-exporter_countries-refused')).toBeNull();

    for (let i = 0; i < 10; i++) enter('filter-hs_codes-input', `72${String(i).padStart(2, '0')}`);
    enter('filter-hs_codes-input', '7308');
    expect(store.getState().draft.hs_codes).toHaveLength(10);
    expect(screen.getByTestId('filter-hs_codes-refused').textContent).toBe(
      'At most 10 HS codes: remove one before adding 7308.',
    );
    expect(screen.queryByTestId('filter-hs_codes-error')).toBeNull();
  });
});
