import { describe, expect, it } from 'vitest';
import {
  CODE,
  COUNT,
  MONEY,
  QUANTITY,
  WEIGHT,
  combinedDisplay,
  formatNumber,
  numberDisplayOf,
} from '@shared/fields';
import { DECIMAL_SHIPMENT_FIELDS, EPOCH_SHIPMENT_FIELDS, FIRM_INTEGER_FIELDS } from '@shared/spec';

describe('number display per field', () => {
  it('money with 2 decimals and thousands separators', () => {
    for (const f of [
      'usdFob',
      'fobValue',
      'usdCif',
      'cifValue',
      'freightAmount',
      'insuranceAmount',
      'statisticalValueUsd',
    ]) {
      expect(numberDisplayOf('shipments', f)).toBe(MONEY);
    }
    expect(formatNumber(1234567.5, MONEY)).toBe('1,234,567.50');
    expect(formatNumber(0.005, MONEY)).toBe('0.01');
    expect(formatNumber(-1234.456, MONEY)).toBe('-1,234.46');
    // Rounded away to nothing: no sign on zero.
    expect(formatNumber(-0.001, MONEY)).toBe('0.00');
  });

  it('weights with 3 decimals, quantity with up to 3, unit price with 2 to 4', () => {
    expect(numberDisplayOf('shipments', 'grossWeight')).toBe(WEIGHT);
    expect(numberDisplayOf('shipments', 'netWeight')).toBe(WEIGHT);
    expect(formatNumber(12500, WEIGHT)).toBe('12,500.000');
    expect(formatNumber(1.2345, WEIGHT)).toBe('1.235');
    expect(numberDisplayOf('shipments', 'quantity')).toBe(QUANTITY);
    expect(formatNumber(20000, QUANTITY)).toBe('20,000');
    expect(formatNumber(1234.5678, QUANTITY)).toBe('1,234.568');
    const price = numberDisplayOf('shipments', 'unitPrice');
    expect(price && formatNumber(0.0125, price)).toBe('0.0125');
    expect(price && formatNumber(1500, price)).toBe('1,500.00');
  });

  it('counts as whole numbers; a count that is not whole keeps its fraction rather than being rounded', () => {
    for (const f of ['containerCount', 'packageAmount', 'itemNo', 'totalTeus']) {
      expect(numberDisplayOf('shipments', f)).toBe(COUNT);
    }
    expect(numberDisplayOf('firms', 'shipment_count')).toBe(COUNT);
    expect(formatNumber(12345, COUNT)).toBe('12,345');
    expect(formatNumber(2.5, COUNT)).toBe('2.5');
  });

  it('codes and calendar parts without separators: year 2024, not 2,024', () => {
    expect(numberDisplayOf('shipments', 'year')).toBe(CODE);
    expect(numberDisplayOf('shipments', 'month')).toBe(CODE);
    expect(numberDisplayOf('firms', 'firm_type')).toBe(CODE);
    expect(formatNumber(2024, CODE)).toBe('2024');
  });

  it('every numeric field of the spec has a display; text fields have none', () => {
    const epochs = new Set<string>(EPOCH_SHIPMENT_FIELDS);
    for (const f of DECIMAL_SHIPMENT_FIELDS) {
      if (!epochs.has(f)) expect(numberDisplayOf('shipments', f), f).toBeDefined();
    }
    for (const f of FIRM_INTEGER_FIELDS) expect(numberDisplayOf('firms', f), f).toBeDefined();
    expect(numberDisplayOf('shipments', 'importerName')).toBeUndefined();
    expect(numberDisplayOf('firms', 'name')).toBeUndefined();
  });

  it('a figure over several fields shows the most decimals of any of them', () => {
    expect(combinedDisplay([MONEY, WEIGHT])).toMatchObject({ minDecimals: 3, maxDecimals: 3, grouped: true });
    expect(combinedDisplay([COUNT])).toMatchObject({ minDecimals: 0, maxDecimals: 0 });
    // Codes summed still group thousands (a sum is a quantity).
    expect(combinedDisplay([CODE]).grouped).toBe(true);
  });
});
