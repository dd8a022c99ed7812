import { describe, expect, it } from 'vitest';
import { generateAccount } from '../../src/main/sim';
import { SearchWorkbench } from './pages/search-workbench';
import { useConnectedApp } from './support/app-in-browser';
import { serviceUsage } from './support/stack';

const app = useConnectedApp({
  // An account that may search one distinct HS code.
  stack: { records: 500, account: { ...generateAccount('e2e-account'), limits: { searchedHsCodes: 1 } } },
});

describe('watching a query past the allowance of distinct HS codes', () => {
  it('says so in the refresh dialog before anything is sent, and Take first snapshot stays disabled', async () => {
    const { stack, browser, shell } = app;
    await shell.navigate('search');
    const search = new SearchWorkbench(browser.page);
    await search.typeHsCode('8471');
    await search.typeHsCode('7208');
    await search.savePreset('Two codes');
    await shell.navigate('watched');
    const before = await serviceUsage(stack);
    const select = browser.page.getByTestId('watch-preset');
    const option = select.locator('option', { hasText: 'Two codes' });
    await option.waitFor({ state: 'attached' });
    await select.selectOption((await option.getAttribute('value')) ?? '');
    await browser.page.getByTestId('watch-preset-start').click();
    const line = browser.page.getByTestId('watch-refresh-hs-codes');
    await line.waitFor();
    expect(await line.getAttribute('data-state')).toBe('exceeds');
    expect(await browser.page.getByRole('dialog', { name: 'Cannot watch this query' }).count()).toBe(1);
    expect(await line.innerText()).toMatch(
      /^HS codes 8471, 7208 are new to account e2e-account, which may search 1 distinct HS code and has 1 left/,
    );
    const confirm = browser.page.getByTestId('watch-refresh-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    expect(await confirm.innerText()).toBe('Take first snapshot');
    await browser.screenshot('watch-refresh-hs-codes');
    // No cost check was sent: the service counted no search and no HS code (reading usage is a request).
    const after = await serviceUsage(stack);
    expect(after['shipments/search']).toEqual(before['shipments/search']);
    expect(after['searchedHsCodes']).toEqual(before['searchedHsCodes']);
    expect(after['dailyRequest']!.current).toBe(before['dailyRequest']!.current + 1);
  });
});
